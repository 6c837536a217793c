/*
 * The raw `id` tokens of a JSON-RPC body, read only when an id is a number JSON.parse cannot hold
 * exactly: the answer echoes the id byte for byte (docs/SECURITY.md, L5).
 */

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++
  return i
}
function skipString(s: string, i: number): number {
  let j = i + 1
  for (;;) {
    const c = s.charCodeAt(j)
    if (c === 0x5c) j += 2
    else if (c === 0x22 || Number.isNaN(c)) return j + 1
    else j++
  }
}
/** Skips one JSON value starting at i (the text is known to be valid JSON). */
function skipValue(s: string, i: number): number {
  const c = s.charCodeAt(i)
  if (c === 0x22) return skipString(s, i)
  if (c === 0x5b || c === 0x7b) {
    let depth = 0
    for (let j = i; j < s.length; ) {
      const d = s.charCodeAt(j)
      if (d === 0x22) {
        j = skipString(s, j)
        continue
      }
      if (d === 0x5b || d === 0x7b) depth++
      else if ((d === 0x5d || d === 0x7d) && --depth === 0) return j + 1
      j++
    }
    return s.length
  }
  let j = i
  while (j < s.length) {
    const d = s.charCodeAt(j)
    if (d === 0x2c || d === 0x5d || d === 0x7d || isWs(d)) break
    j++
  }
  return j
}
/** The raw text of the last `id` member of the object at i (JSON.parse keeps the last duplicate too). */
function objectId(s: string, i: number): [string | undefined, number] {
  let id: string | undefined
  let j = skipWs(s, i + 1)
  while (j < s.length && s.charCodeAt(j) !== 0x7d) {
    const k = j
    j = skipString(s, j)
    let key = s.slice(k + 1, j - 1)
    if (key.includes('\\')) key = JSON.parse(s.slice(k, j)) as string
    j = skipWs(s, skipWs(s, j) + 1)
    const v = j
    j = skipValue(s, j)
    if (key === 'id') id = s.slice(v, j)
    j = skipWs(s, j)
    if (s.charCodeAt(j) === 0x2c) j = skipWs(s, j + 1)
  }
  return [id, j + 1]
}

/** Raw `id` tokens of the top-level request object, or of each element of a top-level batch. */
export function rawIds(body: string): (string | undefined)[] {
  const out: (string | undefined)[] = []
  let i = skipWs(body, 0)
  if (body.charCodeAt(i) === 0x7b) {
    out.push(objectId(body, i)[0])
  } else if (body.charCodeAt(i) === 0x5b) {
    i = skipWs(body, i + 1)
    while (i < body.length && body.charCodeAt(i) !== 0x5d) {
      if (body.charCodeAt(i) === 0x7b) {
        const [id, end] = objectId(body, i)
        out.push(id)
        i = end
      } else {
        out.push(undefined)
        i = skipValue(body, i)
      }
      i = skipWs(body, i)
      if (body.charCodeAt(i) === 0x2c) i = skipWs(body, i + 1)
    }
  }
  return out
}

/**
 * Whether the body has an `"id"` member whose number has a fraction or an exponent (`1e3`, `1.0`): JS
 * prints it back otherwise (docs/SECURITY.md, L5: echo byte for byte). What /"id"\s*:\s*-?[0-9]+[.eE]/
 * finds in JSON that parsed: between tokens only JSON's whitespace, and `"id"` inside a string ends it.
 */
function nonCanonicalId(body: string): boolean {
  for (let at = body.indexOf('"id"'); at !== -1; at = body.indexOf('"id"', at + 4)) {
    let i = skipWs(body, at + 4)
    if (body.charCodeAt(i) !== 0x3a) continue
    i = skipWs(body, i + 1)
    if (body.charCodeAt(i) === 0x2d) i++
    const digits = i
    for (let c = body.charCodeAt(i); c >= 0x30 && c <= 0x39; c = body.charCodeAt(++i));
    const c = body.charCodeAt(i)
    if (i > digits && (c === 0x2e || c === 0x65 || c === 0x45)) return true
  }
  return false
}
/** A number JSON.parse made of an id that cannot print back as it was written, whatever the text. */
const inexact = (id: number): boolean => !Number.isSafeInteger(id) || Object.is(id, -0)
/** Whether the raw `id` token must be read from the body: the number JSON.parse made of it prints differently. */
export const needsRawId = (id: unknown, body: string): boolean => typeof id === 'number' && (inexact(id) || nonCanonicalId(body))

/** needsRawId for a batch's items, scanning the body once, not once per item (W4: batches of 40). */
export function batchNeedsRawIds(items: unknown[], body: string): boolean {
  let numeric = false
  for (const item of items) {
    const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined
    if (typeof id !== 'number') continue
    if (inexact(id)) return true
    numeric = true
  }
  return numeric && nonCanonicalId(body)
}

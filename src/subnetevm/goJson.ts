/**
 * JSON text as Go's encoding/json writes it, for answers that must match subnet-evm byte for byte:
 * object keys in the order given (callers sort where Go marshals a map), bigints as bare integer
 * literals (Go's *big.Int and uint64 are JSON numbers, however large), undefined members left out
 * (omitempty), and `<`, `>`, `&`, U+2028, U+2029 escaped as Go's HTML-safe encoder does.
 */
export type GoJson = null | boolean | number | bigint | string | readonly GoJson[] | { readonly [key: string]: GoJson | undefined }

const HTML_UNSAFE = /[<>&\u2028\u2029]/g

function goString(s: string): string {
  return JSON.stringify(s).replace(HTML_UNSAFE, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/** The JSON text of `value` (see the module comment for how it differs from JSON.stringify). */
export function goJsonStringify(value: GoJson): string {
  if (value === null) return 'null'
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`json: unsupported value: ${value}`)
    return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : JSON.stringify(value)
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') return goString(value)
  if (Array.isArray(value)) return '[' + value.map((v: GoJson) => goJsonStringify(v)).join(',') + ']'
  const members: string[] = []
  for (const [key, v] of Object.entries(value as { readonly [key: string]: GoJson | undefined })) {
    if (v !== undefined) members.push(goString(key) + ':' + goJsonStringify(v))
  }
  return '{' + members.join(',') + '}'
}

/** The members of `record` with keys sorted as Go sorts a map's keys when it marshals it (byte order). */
export function sortedKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const key of Object.keys(record).sort(compareGoStrings)) out[key] = record[key]!
  return out
}

/** Go's string comparison: by UTF-8 bytes (the same as by code points). */
export function compareGoStrings(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8')
  const y = Buffer.from(b, 'utf8')
  return Buffer.compare(x, y)
}

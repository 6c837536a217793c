/** An HTTP/1.1 POST head of the form every JSON-RPC client sends, with the header values the fast path reads (docs/PERFORMANCE.md, "The request path"). */
export interface PlainRequest {
  readonly url: string
  readonly host: string
  readonly origin: string | undefined
  readonly contentType: string | undefined
  readonly contentLength: number
  /** Offset of the body in the buffer read; it ends at bodyStart + contentLength, which may be past the buffer's end. */
  readonly bodyStart: number
}

/** The buffer ends before the request's head does. */
export const INCOMPLETE = 0
/** Anything else: a method, version, header or form this reader does not take (node:http parses it). */
export const NOT_PLAIN = 1

const HEAD_END = Buffer.from('\r\n\r\n')
/** Longer heads go to node:http, which refuses one over its own limit (16 KiB: 431). */
const MAX_HEAD = 8192
const MAX_HEADERS = 64
const REQUEST_LINE = Buffer.from('POST /')
const VERSION = Buffer.from(' HTTP/1.1\r\n')
const KEEP_ALIVE = 'keep-alive'

/** RFC 9110 tchar: the bytes llhttp takes in a header name. */
const TOKEN = new Uint8Array(256)
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TOKEN[c.charCodeAt(0)] = 1

// The headers read, by name length; the others that change what node:http does with a request make it not plain.
const HOST = 1
const ORIGIN = 2
const CONTENT_TYPE = 3
const CONTENT_LENGTH = 4
const CONNECTION = 5
const REFUSED = 6
const NAMES: readonly (readonly [string, number])[] = [
  ['host', HOST],
  ['origin', ORIGIN],
  ['content-type', CONTENT_TYPE],
  ['content-length', CONTENT_LENGTH],
  ['connection', CONNECTION],
  ['expect', REFUSED],
  ['upgrade', REFUSED],
  ['transfer-encoding', REFUSED],
  ['proxy-connection', REFUSED],
]
const BY_LENGTH: (readonly [string, number])[][] = []
for (const entry of NAMES) (BY_LENGTH[entry[0].length] ??= []).push(entry)

/** Whether buf[at, at + name.length) is `name` in any case (`name` lower-case letters and `-`; the bytes are token characters). */
function nameIs(buf: Buffer, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) if ((buf[at + i]! | 0x20) !== name.charCodeAt(i)) return false
  return true
}

/** Whether `bytes` are at buf[at] (1), may still be once more bytes arrive past `limit` (0), or are not (-1). */
function bytesAt(buf: Buffer, at: number, bytes: Buffer, limit: number): -1 | 0 | 1 {
  const n = Math.min(bytes.length, limit - at)
  for (let i = 0; i < n; i++) if (buf[at + i] !== bytes[i]) return -1
  return n === bytes.length ? 1 : 0
}

/** Which header the name at buf[at, end) is (0: one that changes nothing here). */
function headerKind(buf: Buffer, at: number, end: number): number {
  const candidates = BY_LENGTH[end - at]
  if (candidates === undefined) return 0
  for (const [name, kind] of candidates) if (nameIs(buf, at, name)) return kind
  return 0
}

/**
 * Reads the request at `start` of `buf` when it is a plain one: `POST <url> HTTP/1.1`, header lines
 * of token names and printable ASCII values, one Host, at most one Origin, Content-Type and
 * Content-Length (digits) each, Connection absent or `keep-alive`, no Transfer-Encoding, Upgrade,
 * Expect or Proxy-Connection (its body may not all be in the buffer yet). It only recognises: whatever it
 * refuses node:http reads instead, so a request it takes is one llhttp parses to the same method, url
 * and header values. A head not all there yet is INCOMPLETE only while what has arrived begins a plain
 * one: node:http answers bad bytes as they come, so they are its at once.
 */
export function readPlainRequest(buf: Buffer, start: number): PlainRequest | typeof INCOMPLETE | typeof NOT_PLAIN {
  const end = buf.indexOf(HEAD_END, start)
  const whole = end !== -1
  if ((whole ? end : buf.length) - start > MAX_HEAD) return NOT_PLAIN
  // Read up to the last header line's CRLF, or up to what has arrived.
  const limit = whole ? end + 2 : buf.length
  const method = bytesAt(buf, start, REQUEST_LINE, limit)
  if (method !== 1) return method === 0 ? INCOMPLETE : NOT_PLAIN
  let i = start + REQUEST_LINE.length
  while (i < limit && buf[i]! > 0x20 && buf[i]! < 0x7f) i++
  const version = bytesAt(buf, i, VERSION, limit)
  if (version !== 1) return version === 0 ? INCOMPLETE : NOT_PLAIN
  const urlEnd = i
  let host: string | undefined
  let origin: string | undefined
  let contentType: string | undefined
  let contentLength = -1
  let count = 0
  for (i += VERSION.length; i < limit; ) {
    if (++count > MAX_HEADERS) return NOT_PLAIN
    const nameStart = i
    while (i < limit && TOKEN[buf[i]!] === 1) i++
    if (i === limit) return INCOMPLETE
    if (i === nameStart && buf[i] === 0x0d) return i + 1 === limit ? INCOMPLETE : NOT_PLAIN
    if (i === nameStart || buf[i] !== 0x3a) return NOT_PLAIN
    const kind = headerKind(buf, nameStart, i)
    if (kind === REFUSED) return NOT_PLAIN
    i++
    while (i < limit && (buf[i] === 0x20 || buf[i] === 0x09)) i++
    const valueStart = i
    for (; i < limit && buf[i] !== 0x0d; i++) {
      const c = buf[i]!
      if ((c < 0x20 && c !== 0x09) || c >= 0x7f) return NOT_PLAIN
    }
    if (i + 1 >= limit) return INCOMPLETE
    // Trailing whitespace is not part of a value; such a line goes to node:http rather than trimmed here.
    if (buf[i + 1] !== 0x0a || (i > valueStart && (buf[i - 1] === 0x20 || buf[i - 1] === 0x09))) return NOT_PLAIN
    if (kind === HOST) {
      if (host !== undefined) return NOT_PLAIN
      host = buf.toString('latin1', valueStart, i)
    } else if (kind === ORIGIN) {
      if (origin !== undefined) return NOT_PLAIN
      origin = buf.toString('latin1', valueStart, i)
    } else if (kind === CONTENT_TYPE) {
      if (contentType !== undefined) return NOT_PLAIN
      contentType = buf.toString('latin1', valueStart, i)
    } else if (kind === CONTENT_LENGTH) {
      if (contentLength !== -1 || i === valueStart || i - valueStart > 15) return NOT_PLAIN
      contentLength = 0
      for (let j = valueStart; j < i; j++) {
        const d = buf[j]! - 0x30
        if (d < 0 || d > 9) return NOT_PLAIN
        contentLength = contentLength * 10 + d
      }
    } else if (kind === CONNECTION) {
      if (i - valueStart !== KEEP_ALIVE.length || !nameIs(buf, valueStart, KEEP_ALIVE)) return NOT_PLAIN
    }
    i += 2
  }
  if (!whole) return INCOMPLETE
  // HTTP/1.1 without Host is node:http's 400 (requireHostHeader).
  if (host === undefined || contentLength === -1) return NOT_PLAIN
  return { url: buf.toString('latin1', start + REQUEST_LINE.length - 1, urlEnd), host, origin, contentType, contentLength, bodyStart: end + 4 }
}

/**
 * readPlainRequest for one connection, remembering the last head it read: a client sends the same
 * head request after request (only a new body length changes it), and the same bytes read the same,
 * so a head equal to the last one is compared, not read again.
 */
export class PlainRequestReader {
  private head: Buffer | undefined
  private last: PlainRequest | undefined

  read(buf: Buffer, start: number): PlainRequest | typeof INCOMPLETE | typeof NOT_PLAIN {
    const head = this.head
    if (head !== undefined && buf.length - start >= head.length && buf.compare(head, 0, head.length, start, start + head.length) === 0) {
      const last = this.last!
      return { url: last.url, host: last.host, origin: last.origin, contentType: last.contentType, contentLength: last.contentLength, bodyStart: start + head.length }
    }
    const req = readPlainRequest(buf, start)
    if (typeof req === 'object') {
      this.head = Buffer.from(buf.subarray(start, req.bodyStart))
      this.last = req
    }
    return req
  }
}

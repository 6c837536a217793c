import { createHash } from 'node:crypto'
import bs58 from 'bs58'
import { FormatError } from './errors.js'

const CHECKSUM_LEN = 4
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Last 4 bytes of sha256(bytes): the checksum of CB58 and of the API `hex` encoding (utils/hashing Checksum). */
export function checksum(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(bytes).digest().subarray(-CHECKSUM_LEN))
}

/** CB58: base58 of bytes ‖ last 4 bytes of sha256(bytes) (avalanchego utils/cb58; not bs58check's double hash). */
export function cb58Encode(bytes: Uint8Array): string {
  return bs58.encode(Buffer.concat([bytes, checksum(bytes)]))
}

/** Decodes CB58, verifying the checksum; errors as avalanchego utils/cb58 over mr-tron/base58. */
export function cb58Decode(text: string): Uint8Array {
  const raw = base58Decode(text)
  if (raw.length < CHECKSUM_LEN) throw new FormatError('input string is smaller than the checksum size')
  const body = raw.subarray(0, raw.length - CHECKSUM_LEN)
  if (Buffer.compare(checksum(body), raw.subarray(raw.length - CHECKSUM_LEN)) !== 0) throw new FormatError('invalid input checksum')
  return new Uint8Array(body)
}

/** ids.FromString: CB58 of exactly 32 bytes, with its errors (avalanchego ids/id.go, utils/hashing ToHash256). */
export function cb58DecodeID(text: string): Uint8Array {
  const bytes = cb58Decode(text)
  if (bytes.length !== 32) throw new FormatError(`invalid hash length: expected 32 bytes but got ${bytes.length}`)
  return bytes
}

function base58Decode(text: string): Uint8Array {
  if (text.length === 0) throw new FormatError('base58 decoding error: zero length string')
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (code > 127) throw new FormatError('base58 decoding error: high-bit set on invalid digit')
    if (!BASE58_ALPHABET.includes(ch)) throw new FormatError(`base58 decoding error: invalid base58 digit (${goQuoteASCII(code)})`)
  }
  return bs58.decode(text)
}

// Go's %q of an ASCII rune, as mr-tron/base58 prints the bad digit.
function goQuoteASCII(code: number): string {
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 39: "\\'", 92: '\\\\' }
  if (escapes[code] !== undefined) return `'${escapes[code]}'`
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`
  return `'${String.fromCharCode(code)}'`
}

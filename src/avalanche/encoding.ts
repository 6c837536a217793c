/** The API byte encodings `hex`, `hexc`, `hexnc`, `json` (avalanchego utils/formatting/encoding.go). */
import { checksum } from './cb58.js'
import { FormatError } from './errors.js'

export type Encoding = 'hex' | 'hexc' | 'hexnc' | 'json'
export const ENCODINGS: readonly Encoding[] = ['hex', 'hexnc', 'hexc', 'json']

/** Parses an `encoding` param, case-insensitively; undefined/null give the default `hex`. */
export function parseEncoding(value: string | null | undefined): Encoding {
  if (value === undefined || value === null) return 'hex'
  const lower = value.toLowerCase()
  if ((ENCODINGS as readonly string[]).includes(lower)) return lower as Encoding
  throw new FormatError('invalid encoding')
}

/** formatting.Encode: `0x` + lowercase hex, with the 4-byte sha256 checksum for hex/hexc. */
export function encodeBytes(encoding: Encoding, bytes: Uint8Array): string {
  if (encoding === 'json') throw new FormatError('unsupported encoding in method')
  const body = encoding === 'hexnc' ? bytes : Buffer.concat([bytes, checksum(bytes)])
  return '0x' + Buffer.from(body).toString('hex')
}

/** formatting.Decode, with its errors; the empty string decodes to empty bytes. */
export function decodeBytes(encoding: Encoding, text: string): Uint8Array {
  if (text.length === 0) return new Uint8Array(0)
  if (encoding === 'json') throw new FormatError('unsupported encoding in method')
  if (!text.startsWith('0x')) throw new FormatError('missing 0x prefix to hex encoding')
  const decoded = goHexDecode(Buffer.from(text.slice(2), 'utf8'))
  if (encoding === 'hexnc') return decoded
  if (decoded.length < 4) throw new FormatError('input string is smaller than the checksum size')
  const raw = decoded.subarray(0, decoded.length - 4)
  if (Buffer.compare(checksum(raw), decoded.subarray(decoded.length - 4)) !== 0) throw new FormatError('invalid input checksum')
  return raw.slice()
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30
  if (b >= 0x61 && b <= 0x66) return b - 0x57
  if (b >= 0x41 && b <= 0x46) return b - 0x37
  return -1
}

// Go's encoding/hex.DecodeString: pairs are checked left to right, then an odd trailing digit.
function goHexDecode(src: Uint8Array): Uint8Array {
  const out = new Uint8Array(src.length >> 1)
  let j = 1
  for (; j < src.length; j += 2) {
    const a = hexValue(src[j - 1]!)
    const b = hexValue(src[j]!)
    if (a < 0) throw invalidHexByte(src[j - 1]!)
    if (b < 0) throw invalidHexByte(src[j]!)
    out[(j - 1) >> 1] = (a << 4) | b
  }
  if (src.length % 2 === 1) {
    if (hexValue(src[j - 1]!) < 0) throw invalidHexByte(src[j - 1]!)
    throw new FormatError('encoding/hex: odd length hex string')
  }
  return out
}

// InvalidByteError prints the byte as a rune with %#U: "U+0067 'g'", the quoted char only when printable.
function invalidHexByte(b: number): FormatError {
  const code = 'U+' + b.toString(16).toUpperCase().padStart(4, '0')
  const printable = (b >= 0x20 && b < 0x7f) || (b >= 0xa1 && b !== 0xad)
  return new FormatError(`encoding/hex: invalid byte: ${printable ? `${code} '${String.fromCharCode(b)}'` : code}`)
}

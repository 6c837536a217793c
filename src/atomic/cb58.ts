import { createHash } from 'node:crypto'
import bs58 from 'bs58'

/** CB58: base58 of bytes ‖ last 4 bytes of sha256(bytes) (avalanchego utils/cb58; not bs58check's double hash). */
export function cb58Encode(bytes: Uint8Array): string {
  const checksum = createHash('sha256').update(bytes).digest().subarray(-4)
  return bs58.encode(Buffer.concat([bytes, checksum]))
}

/** Decodes CB58, verifying the checksum. */
export function cb58Decode(text: string): Uint8Array {
  const raw = bs58.decode(text)
  if (raw.length < 4) throw new Error('invalid input checksum')
  const body = raw.subarray(0, raw.length - 4)
  const checksum = createHash('sha256').update(body).digest().subarray(-4)
  if (Buffer.compare(Buffer.from(checksum), Buffer.from(raw.subarray(raw.length - 4))) !== 0) throw new Error('invalid input checksum')
  return body
}

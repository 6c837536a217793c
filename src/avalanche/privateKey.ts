/** `PrivateKey-<cb58>` keys (avalanchego utils/crypto/secp256k1 PrivateKey String/UnmarshalText). */
import { cb58Decode, cb58Encode } from './cb58.js'
import { FormatError } from './errors.js'
import { SECP256K1_N } from './signature.js'

export const PRIVATE_KEY_PREFIX = 'PrivateKey-'
export const PRIVATE_KEY_LEN = 32

/** Formats a 32-byte private key as `PrivateKey-<cb58>`. */
export function formatPrivateKey(key: Uint8Array): string {
  assertValidPrivateKey(key)
  return PRIVATE_KEY_PREFIX + cb58Encode(key)
}

/**
 * Parses `PrivateKey-<cb58>`. avalanchego's errors for prefix, CB58 and length; a zero key or one >= n
 * (which avalanchego would silently reduce mod n) is refused with geth's crypto.ToECDSA wording.
 */
export function parsePrivateKey(text: string): Uint8Array {
  if (!text.startsWith(PRIVATE_KEY_PREFIX)) throw new FormatError(`private key missing ${PRIVATE_KEY_PREFIX} prefix`)
  const key = cb58Decode(text.slice(PRIVATE_KEY_PREFIX.length))
  assertValidPrivateKey(key)
  return key
}

/** Throws unless the bytes are a usable secp256k1 secret key (32 bytes, 0 < k < n). */
export function assertValidPrivateKey(key: Uint8Array): void {
  if (key.length !== PRIVATE_KEY_LEN) throw new FormatError(`private key has unexpected length, expected ${PRIVATE_KEY_LEN}`)
  const k = BigInt('0x' + Buffer.from(key).toString('hex'))
  if (k === 0n) throw new FormatError('invalid private key, zero or negative')
  if (k >= SECP256K1_N) throw new FormatError('invalid private key, >=N')
}

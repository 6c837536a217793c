/**
 * The stored keystore user record (this node's own, versioned; docs/API.md "Keystore API"): the KDF parameters,
 * the password verifier and the data key's salt, never the password. exportUser/importUser use avalanchego's
 * format instead (src/keystore/avalancheUser.ts).
 */
import { type ScryptParams, KEY_LEN, SALT_LEN } from './crypto.js'
import { KeystoreError } from './errors.js'

const RECORD_VERSION = 1
const KDF_SCRYPT = 1
export const RECORD_LEN = 5 + SALT_LEN + KEY_LEN + SALT_LEN

/** A user as stored: KDF parameters, the verifier's salt and hash, the data key's salt. */
export interface UserRecord {
  readonly kdf: ScryptParams
  readonly verifierSalt: Uint8Array
  readonly verifier: Uint8Array
  readonly dataSalt: Uint8Array
}

/** version(1)=1 ‖ kdf(1)=1 scrypt ‖ logN(1) ‖ r(1) ‖ p(1) ‖ verifier salt(16) ‖ verifier(32) ‖ data salt(16). */
export function encodeRecord(rec: UserRecord): Uint8Array {
  const out = new Uint8Array(RECORD_LEN)
  out.set([RECORD_VERSION, KDF_SCRYPT, rec.kdf.logN, rec.kdf.r, rec.kdf.p])
  out.set(rec.verifierSalt, 5)
  out.set(rec.verifier, 5 + SALT_LEN)
  out.set(rec.dataSalt, 5 + SALT_LEN + KEY_LEN)
  return out
}

export function decodeRecord(bytes: Uint8Array): UserRecord {
  if (bytes.length !== RECORD_LEN || bytes[0] !== RECORD_VERSION || bytes[1] !== KDF_SCRYPT) throw new KeystoreError('unsupported keystore user record')
  return {
    kdf: { logN: bytes[2]!, r: bytes[3]!, p: bytes[4]! },
    verifierSalt: bytes.slice(5, 5 + SALT_LEN),
    verifier: bytes.slice(5 + SALT_LEN, 5 + SALT_LEN + KEY_LEN),
    dataSalt: bytes.slice(5 + SALT_LEN + KEY_LEN),
  }
}

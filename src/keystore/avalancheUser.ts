/**
 * A keystore user as avalanchego v1.12.1 exports it (api/keystore/keystore.go `user`, api/keystore/codec.go;
 * utils/password/hash.go; database/encdb/db.go), the bytes of keystore.exportUser and keystore.importUser:
 *
 *   codec version (u16) = 0
 *   password.Hash   Password [32]byte = argon2id(password, Salt, time 1, memory 64 MiB, 4 threads, 32 bytes)
 *                   Salt [16]byte
 *   Data []kvPair   count (u32), then each pair: Key []byte (u32 length ‖ bytes), Value []byte (u32 length ‖ bytes)
 *
 * Data is the user's whole database in key order: each key is sha256(blockchain ID) ‖ that chain's key
 * (src/keystore/chainKeys.ts), each value encdb's encryptedValue: codec v0 {Ciphertext []byte, Nonce []byte},
 * XChaCha20-Poly1305 under sha256(password) with a random 24-byte nonce and no associated data.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { argon2idAsync } from '@noble/hashes/argon2.js'
import { marshal, unmarshal } from '../avalanche/codec.js'
import { sha256 } from '../util/crypto.js'
import { NONCE_LEN, bytesEqual, randomSalt } from './crypto.js'

/** api/keystore/codec.go maxPackerSize: 1 GiB. */
const USER_CODEC_MAX = 1024 * 1024 * 1024
/** password.Hash: argon2.IDKey(password, salt, 1, 64*1024, 4, 32). */
const ARGON2 = { t: 1, m: 64 * 1024, p: 4, dkLen: 32 } as const
export const HASH_SALT_LEN = 16
const HASH_LEN = 32

/** One key/value pair of the user's database, the value as encdb stores it (sealed). */
export interface KVPair {
  readonly key: Uint8Array
  readonly value: Uint8Array
}

/** keystore.user: the password hash and the database. */
export interface AvalancheUser {
  readonly hash: Uint8Array
  readonly salt: Uint8Array
  readonly data: readonly KVPair[]
}

/** password.Hash.Set/Check's argon2id (pure JS, yielding to the event loop as it runs). */
export async function passwordHash(password: string, salt: Uint8Array): Promise<Uint8Array> {
  return argon2idAsync(Buffer.from(password, 'utf8'), salt, ARGON2)
}

/** password.Hash.Check: constant-time compare of the recomputed hash. */
export async function passwordMatches(user: AvalancheUser, password: string): Promise<boolean> {
  return bytesEqual(await passwordHash(password, user.salt), user.hash)
}

/** Codec.Marshal(CodecVersion, &user). */
export function encodeUser(user: AvalancheUser): Uint8Array {
  return marshal((w) => {
    w.fixed(user.hash, HASH_LEN).fixed(user.salt, HASH_SALT_LEN)
    w.slice(user.data, (ww, kv) => ww.bytesU32(kv.key).bytesU32(kv.value))
  }, USER_CODEC_MAX)
}

/** Codec.Unmarshal(bytes, &user): the codec's errors (`couldn't unmarshal slice: …`, `trailing buffer space: …`). */
export function decodeUser(bytes: Uint8Array): AvalancheUser {
  return unmarshal(
    bytes,
    (r) => ({
      hash: r.fixed(HASH_LEN),
      salt: r.fixed(HASH_SALT_LEN),
      data: r.slice((rr) => ({ key: rr.bytesU32(), value: rr.bytesU32() })),
    }),
    USER_CODEC_MAX,
  )
}

/** encdb.New's key: sha256 of the password's bytes. */
export function encdbKey(password: string): Uint8Array {
  return sha256(Buffer.from(password, 'utf8'))
}

/** encdb's encrypt: a fresh nonce, the ciphertext with its tag, both in an encryptedValue. */
export function encdbSeal(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const nonce = randomSalt(NONCE_LEN)
  const ciphertext = xchacha20poly1305(key, nonce).encrypt(plaintext)
  return marshal((w) => w.bytesU32(ciphertext).bytesU32(nonce))
}

/** encdb's decrypt; undefined when the value is not an encryptedValue that opens under `key`. */
export function encdbOpen(key: Uint8Array, value: Uint8Array): Uint8Array | undefined {
  try {
    const { ciphertext, nonce } = unmarshal(value, (r) => ({ ciphertext: r.bytesU32(), nonce: r.bytesU32() }))
    if (nonce.length !== NONCE_LEN) return undefined
    return xchacha20poly1305(key, nonce).decrypt(ciphertext)
  } catch {
    return undefined
  }
}

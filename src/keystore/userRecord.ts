/**
 * Byte formats of the keystore: the stored user record and the export blob of exportUser/importUser
 * (this node's own, versioned; docs/API.md "Keystore API"). Neither holds a password or a plaintext key.
 */
import { createHmac } from 'node:crypto'
import { type ScryptParams, KEY_LEN, SALT_LEN, bytesEqual } from './crypto.js'
import { KeystoreError } from './errors.js'
import type { KeystoreEntry } from '../store/keystoreStore.js'

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

const MAGIC = Buffer.from('CCKS', 'ascii')
const BLOB_VERSION = 1
const MAC_LEN = 32
/** Bounds on what an imported blob may hold. */
const MAX_ENTRIES = 100_000
const MAX_ENTRY_KEY = 64
const MAX_ENTRY_VALUE = 4096

/** A decoded export blob; `mac` covers `body` and is checked once the data key is known. */
export interface UserBlob {
  readonly record: Uint8Array
  readonly entries: KeystoreEntry[]
  readonly body: Uint8Array
  readonly mac: Uint8Array
}

function blobMac(exportKey: Uint8Array, body: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', exportKey).update(body).digest())
}

/**
 * "CCKS" ‖ version(1)=1 ‖ record length(u16 BE) ‖ record ‖ count(u32 BE) ‖ count × (key length(u16 BE) ‖
 * key ‖ value length(u32 BE) ‖ sealed value) ‖ HMAC-SHA256(export subkey of the data key, all before).
 */
export function encodeBlob(record: Uint8Array, entries: readonly KeystoreEntry[], exportKey: Uint8Array): Uint8Array {
  const parts: Buffer[] = [MAGIC, Buffer.of(BLOB_VERSION)]
  const u16 = (n: number) => {
    const b = Buffer.alloc(2)
    b.writeUInt16BE(n)
    return b
  }
  const u32 = (n: number) => {
    const b = Buffer.alloc(4)
    b.writeUInt32BE(n)
    return b
  }
  parts.push(u16(record.length), Buffer.from(record), u32(entries.length))
  for (const e of entries) parts.push(u16(e.key.length), Buffer.from(e.key), u32(e.value.length), Buffer.from(e.value))
  const body = Buffer.concat(parts)
  // A plain Uint8Array: Buffer's slice() is a view, which callers would not expect.
  return new Uint8Array(Buffer.concat([body, blobMac(exportKey, body)]))
}

/** Parses the framing only (nothing here needs the password); throws `invalid user data: …`. */
export function decodeBlob(input: Uint8Array): UserBlob {
  const bytes = new Uint8Array(input)
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  const bad = (why: string): never => {
    throw new KeystoreError(`invalid user data: ${why}`)
  }
  if (buf.length < MAGIC.length + 1 + MAC_LEN || !buf.subarray(0, 4).equals(MAGIC)) bad('not a cchain-node keystore export')
  if (buf[4] !== BLOB_VERSION) bad(`unsupported export version ${buf[4]}`)
  const end = buf.length - MAC_LEN
  let pos = 5
  const need = (n: number) => {
    if (pos + n > end) bad('truncated')
  }
  need(2)
  const recLen = buf.readUInt16BE(pos)
  pos += 2
  need(recLen)
  const record = bytes.slice(pos, pos + recLen)
  pos += recLen
  need(4)
  const count = buf.readUInt32BE(pos)
  pos += 4
  if (count > MAX_ENTRIES) bad('too many entries')
  const entries: KeystoreEntry[] = []
  for (let i = 0; i < count; i++) {
    need(2)
    const kl = buf.readUInt16BE(pos)
    pos += 2
    if (kl === 0 || kl > MAX_ENTRY_KEY) bad('entry key length')
    need(kl)
    const key = bytes.slice(pos, pos + kl)
    pos += kl
    need(4)
    const vl = buf.readUInt32BE(pos)
    pos += 4
    if (vl > MAX_ENTRY_VALUE) bad('entry value length')
    need(vl)
    entries.push({ key, value: bytes.slice(pos, pos + vl) })
    pos += vl
  }
  if (pos !== end) bad('trailing bytes')
  return { record, entries, body: bytes.slice(0, end), mac: bytes.slice(end) }
}

/** Whether the blob's MAC matches under the export subkey (constant time). */
export function blobAuthentic(blob: UserBlob, exportKey: Uint8Array): boolean {
  return bytesEqual(blobMac(exportKey, blob.body), blob.mac)
}

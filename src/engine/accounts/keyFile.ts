import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { keccak256 } from '../../util/crypto.js'
import { AccountError } from './accountError.js'

/**
 * geth's key-file format (accounts/keystore passphrase.go): Web3 Secret Storage v3, scrypt or
 * pbkdf2 + aes-128-ctr with a keccak MAC, kept apart from the account manager so the format geth,
 * ethers (`Wallet.fromEncryptedJson`) and this node share is read in one place. The KDF runs on
 * libuv's thread pool (node:crypto scrypt), not on the event loop (foreign files with
 * N >= 2^(16r), which OpenSSL refuses, use noble's scrypt, which yields as it runs).
 */

export const ERR_DECRYPT = 'could not decrypt key with given password'

/** geth keystore.StandardScryptN / StandardScryptP. */
export const STANDARD_SCRYPT_N = 1 << 18
export const STANDARD_SCRYPT_P = 1
const SCRYPT_R = 8
const SCRYPT_DKLEN = 32
/** Largest KDF work accepted from a key file (N * r * 128 bytes of memory). */
const MAX_SCRYPT_MEM = 1024 * 1024 * 1024
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** geth keystore keyFileName: `UTC--2006-01-02T15-04-05.999999999Z--<hex address>`. */
export function keyFileName(address: string, now = new Date()): string {
  const iso = now
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.?0*Z$/, 'Z')
  return `UTC--${iso}--${address.replace(/^0x/, '').toLowerCase()}`
}

function runScrypt(password: Buffer, salt: Buffer, n: number, r: number, p: number, dklen: number): Promise<Buffer> {
  // OpenSSL refuses N >= 2^(16r) (RFC 7914), which Go's scrypt and the Web3 Secret Storage test
  // vectors (r = 1) accept: such files go through noble's scrypt, which yields to the loop as it runs.
  if (n >= 2 ** (16 * r)) return scryptAsync(password, salt, { N: n, r, p, dkLen: dklen, maxmem: 128 * n * r * 2 + 1024 * 1024 }).then((k) => Buffer.from(k))
  const opts: ScryptOptions = { N: n, r, p, maxmem: 128 * n * r + 128 * r * p + 32 * 1024 * 1024 }
  return new Promise((resolve, reject) => scrypt(password, salt, dklen, opts, (err, key) => (err ? reject(err) : resolve(key))))
}

/** The private key's checks of geth crypto.ToECDSA. */
export function checkPrivateKey(key: Uint8Array): void {
  if (key.length !== 32) throw new AccountError('invalid length, need 256 bits')
  const d = BigInt('0x' + Buffer.from(key).toString('hex'))
  if (d >= SECP256K1_N) throw new AccountError('invalid private key, >=N')
  if (d === 0n) throw new AccountError('invalid private key, zero or negative')
}

/** Web3 Secret Storage v3 as geth writes it (keystore/passphrase.go EncryptKey). */
export async function encryptKeyJson(key: Uint8Array, address: string, password: string, n: number, p: number): Promise<Record<string, unknown>> {
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const derived = await runScrypt(Buffer.from(password, 'utf8'), salt, n, SCRYPT_R, p, SCRYPT_DKLEN)
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv)
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()])
  const mac = keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext]))
  derived.fill(0)
  return {
    address: address.slice(2),
    crypto: {
      cipher: 'aes-128-ctr',
      ciphertext: ciphertext.toString('hex'),
      cipherparams: { iv: iv.toString('hex') },
      kdf: 'scrypt',
      kdfparams: { dklen: SCRYPT_DKLEN, n, p, r: SCRYPT_R, salt: salt.toString('hex') },
      mac: Buffer.from(mac).toString('hex'),
    },
    id: randomUUID(),
    version: 3,
  }
}

const hexField = (v: unknown): Buffer => {
  if (typeof v !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(v)) throw new AccountError('invalid key file')
  return Buffer.from(v.replace(/^0x/, ''), 'hex')
}
const intField = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new AccountError('invalid key file')
  return v
}

/** geth keystore DecryptKey for version 3 files (scrypt or pbkdf2/hmac-sha256, aes-128-ctr). */
export async function decryptKeyJson(json: unknown, password: string): Promise<Uint8Array> {
  const root = json as { version?: unknown; crypto?: unknown; Crypto?: unknown }
  if (root?.version !== 3) throw new AccountError(`version not supported: ${String(root?.version)}`)
  const c = (root.crypto ?? root.Crypto) as Record<string, unknown> | undefined
  if (c === undefined || typeof c !== 'object') throw new AccountError('invalid key file')
  if (c.cipher !== 'aes-128-ctr') throw new AccountError(`cipher not supported: ${String(c.cipher)}`)
  const params = (c.kdfparams ?? {}) as Record<string, unknown>
  const salt = hexField(params.salt)
  const dklen = intField(params.dklen)
  if (dklen < 32) throw new AccountError('invalid key file')
  const pass = Buffer.from(password, 'utf8')
  let derived: Buffer
  if (c.kdf === 'scrypt') {
    const n = intField(params.n)
    const r = intField(params.r)
    const p = intField(params.p)
    if ((n & (n - 1)) !== 0 || 128 * n * r > MAX_SCRYPT_MEM) throw new AccountError('invalid scrypt parameters')
    derived = await runScrypt(pass, salt, n, r, p, dklen)
  } else if (c.kdf === 'pbkdf2') {
    if (params.prf !== 'hmac-sha256') throw new AccountError(`unsupported PBKDF2 PRF: ${String(params.prf)}`)
    const iterations = intField(params.c)
    derived = await new Promise<Buffer>((resolve, reject) => pbkdf2(pass, salt, iterations, dklen, 'sha256', (err, k) => (err ? reject(err) : resolve(k))))
  } else {
    throw new AccountError(`kdf not supported: ${String(c.kdf)}`)
  }
  const ciphertext = hexField(c.ciphertext)
  const mac = Buffer.from(keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])))
  const want = hexField(c.mac)
  if (want.length !== mac.length || !timingSafeEqual(want, mac)) {
    derived.fill(0)
    throw new AccountError(ERR_DECRYPT)
  }
  const iv = hexField((c.cipherparams as { iv?: unknown } | undefined)?.iv)
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), iv)
  const key = Buffer.concat([decipher.update(ciphertext), decipher.final()])
  derived.fill(0)
  if (key.length !== 32) throw new AccountError('invalid key file')
  return new Uint8Array(key)
}

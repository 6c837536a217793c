import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { privateToAddress } from '@ethereumjs/util'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { keccak256 } from '../../util/crypto.js'
import { EngineError } from '../base/errors.js'

/**
 * Keystore accounts of personal_ and the account methods: geth's accounts/keystore, one Web3
 * Secret Storage (v3, scrypt + aes-128-ctr) JSON file per key under `<data-dir>/keystore`, named
 * `UTC--<ISO time>--<address>` as geth names them, so geth, ethers (`Wallet.fromEncryptedJson`)
 * and this node read each other's files. The KDF runs on libuv's thread pool (node:crypto
 * scrypt), one at a time, not on the event loop (foreign files with N >= 2^(16r), which OpenSSL
 * refuses, use noble's scrypt, which yields as it runs). Passwords and keys are never logged.
 */

/** geth accounts/keystore errors (and accounts.ErrUnknownAccount), code -32000. */
export class AccountError extends EngineError {
  override name = 'AccountError'
}

export const ERR_UNKNOWN_ACCOUNT = 'unknown account'
export const ERR_LOCKED = 'authentication needed: password or unlock'
export const ERR_DECRYPT = 'could not decrypt key with given password'
export const ERR_NO_MATCH = 'no key for given address or file'
export const ERR_ALREADY_EXISTS = 'account already exists'

/** geth keystore.StandardScryptN / StandardScryptP. */
export const STANDARD_SCRYPT_N = 1 << 18
export const STANDARD_SCRYPT_P = 1
const SCRYPT_R = 8
const SCRYPT_DKLEN = 32
/** Largest KDF work accepted from a key file (N * r * 128 bytes of memory). */
const MAX_SCRYPT_MEM = 1024 * 1024 * 1024
/** Largest setTimeout delay (~24.8 days); longer unlocks re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

interface Unlocked {
  key: Uint8Array
  /** ms since epoch; Infinity = until locked or the node stops. */
  expiresAt: number
  timer: NodeJS.Timeout | undefined
}

/** Lowercase 0x address of 20 bytes. */
const addrHex = (a: Uint8Array | string): string => (typeof a === 'string' ? a.toLowerCase() : '0x' + Buffer.from(a).toString('hex'))

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

export interface AccountManagerOptions {
  /** scrypt N for new key files (geth StandardScryptN, 2^18). */
  scryptN?: number
  /** scrypt p for new key files (geth StandardScryptP, 1). */
  scryptP?: number
  /** The clock of timed unlocks (ms since the epoch; Date.now when absent); tests pass one they move on. */
  now?: () => number
}

/** geth's keystore.KeyStore over one directory (created on the first new key). */
export class AccountManager {
  /** geth: the largest duration (seconds) personal_unlockAccount takes (MaxInt64 ns). */
  static readonly MAX_UNLOCK_SECONDS = 9_223_372_036n
  private readonly files = new Map<string, string>() // file name -> lowercase address
  private readonly unlocked = new Map<string, Unlocked>()
  private kdfQueue: Promise<unknown> = Promise.resolve()
  private readonly scryptN: number
  private readonly scryptP: number
  private readonly now: () => number
  private closed = false

  constructor(
    readonly dir: string,
    opts: AccountManagerOptions = {},
  ) {
    this.scryptN = opts.scryptN ?? STANDARD_SCRYPT_N
    this.scryptP = opts.scryptP ?? STANDARD_SCRYPT_P
    this.now = opts.now ?? Date.now
  }

  /** Addresses of the key files, ordered by file name (geth: by URL), lowercase 0x hex. */
  async list(): Promise<string[]> {
    await this.scan()
    const out: string[] = []
    for (const name of [...this.files.keys()].sort()) {
      const a = this.files.get(name)!
      if (!out.includes(a)) out.push(a)
    }
    return out
  }

  /** Whether a key file holds `address` (accounts.Manager.Find). */
  async has(address: Uint8Array | string): Promise<boolean> {
    return (await this.fileOf(addrHex(address))) !== undefined
  }

  /** Throws geth's `unknown account` unless a key file holds `address`. */
  async find(address: Uint8Array | string): Promise<void> {
    if (!(await this.has(address))) throw new AccountError(ERR_UNKNOWN_ACCOUNT)
  }

  /** personal_newAccount: a fresh key, encrypted with `password`; its lowercase address. */
  async create(password: string): Promise<string> {
    for (;;) {
      const key = randomBytes(32)
      const d = BigInt('0x' + key.toString('hex'))
      if (d !== 0n && d < SECP256K1_N) return this.store(key, password)
    }
  }

  /** personal_importRawKey: stores `key` encrypted with `password`; `account already exists` if held. */
  async importKey(key: Uint8Array, password: string): Promise<string> {
    checkPrivateKey(key)
    const address = addrHex(privateToAddress(key))
    if (await this.has(address)) throw new AccountError(ERR_ALREADY_EXISTS)
    return this.store(key, password)
  }

  /**
   * geth KeyStore.TimedUnlock: decrypts with `password`, keeps the key for `seconds` (0 = until
   * locked or stopped). An indefinite unlock is not shortened by a timed one.
   */
  async unlock(address: Uint8Array | string, password: string, seconds: bigint): Promise<void> {
    const addr = addrHex(address)
    const key = await this.decrypt(addr, password)
    const existing = this.unlocked.get(addr)
    if (existing !== undefined) {
      if (existing.expiresAt === Infinity) {
        key.fill(0)
        return
      }
      this.drop(addr)
    }
    const entry: Unlocked = { key, expiresAt: seconds === 0n ? Infinity : this.now() + Number(seconds) * 1000, timer: undefined }
    this.unlocked.set(addr, entry)
    if (entry.expiresAt !== Infinity) this.arm(addr, entry)
  }

  /** geth KeyStore.Lock: forgets the decrypted key (a no-op for a locked or unknown address). */
  lock(address: Uint8Array | string): void {
    this.drop(addrHex(address))
  }

  /** The decrypted key of an unlocked account; geth's `authentication needed: password or unlock` otherwise. */
  unlockedKey(address: Uint8Array | string): Uint8Array {
    const addr = addrHex(address)
    const entry = this.unlocked.get(addr)
    if (entry === undefined || entry.expiresAt <= this.now()) {
      if (entry !== undefined) this.drop(addr)
      throw new AccountError(ERR_LOCKED)
    }
    return entry.key
  }

  /** Decrypts `address`'s key file with `password` (the *WithPassphrase methods); the caller zeroes it. */
  async decrypt(address: Uint8Array | string, password: string): Promise<Uint8Array> {
    const addr = addrHex(address)
    const file = await this.fileOf(addr)
    if (file === undefined) throw new AccountError(ERR_NO_MATCH)
    let json: unknown
    try {
      json = JSON.parse(await readFile(join(this.dir, file), 'utf8'))
    } catch {
      throw new AccountError(ERR_NO_MATCH)
    }
    const key = await this.kdf(() => decryptKeyJson(json, password))
    const actual = addrHex(privateToAddress(key))
    if (actual !== addr) {
      key.fill(0)
      throw new AccountError(`key content mismatch: have account ${actual.slice(2)}, want ${addr.slice(2)}`)
    }
    return key
  }

  /** Zeroes every unlocked key and stops their timers. */
  close(): void {
    this.closed = true
    for (const addr of [...this.unlocked.keys()]) this.drop(addr)
  }

  private arm(addr: string, entry: Unlocked): void {
    const wait = Math.min(Math.max(entry.expiresAt - this.now(), 0), MAX_TIMER_MS)
    entry.timer = setTimeout(() => {
      if (this.unlocked.get(addr) !== entry) return
      if (this.now() >= entry.expiresAt) this.drop(addr)
      else this.arm(addr, entry)
    }, wait)
    entry.timer.unref()
  }

  private drop(addr: string): void {
    const entry = this.unlocked.get(addr)
    if (entry === undefined) return
    if (entry.timer !== undefined) clearTimeout(entry.timer)
    entry.key.fill(0)
    this.unlocked.delete(addr)
  }

  /** One KDF at a time: scrypt N=2^18 takes 256 MiB. */
  private kdf<T>(work: () => Promise<T>): Promise<T> {
    const run = this.kdfQueue.then(work, work)
    this.kdfQueue = run.catch(() => undefined)
    return run
  }

  private async store(key: Uint8Array, password: string): Promise<string> {
    if (this.closed) throw new AccountError('keystore closed')
    const address = addrHex(privateToAddress(key))
    const json = await this.kdf(() => encryptKeyJson(key, address, password, this.scryptN, this.scryptP))
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const name = keyFileName(address)
    // geth writeKeyFile: a temporary file in the same directory, then rename (no torn key file).
    const tmp = join(this.dir, `.${name}.tmp-${randomBytes(6).toString('hex')}`)
    const fh = await open(tmp, 'wx', 0o600)
    try {
      await fh.writeFile(JSON.stringify(json))
      await fh.sync()
    } finally {
      await fh.close()
    }
    try {
      await rename(tmp, join(this.dir, name))
    } catch (err) {
      await rm(tmp, { force: true })
      throw err
    }
    this.files.set(name, address)
    return address
  }

  private async fileOf(addr: string): Promise<string | undefined> {
    await this.scan()
    let found: string | undefined
    for (const [name, a] of this.files) if (a === addr && (found === undefined || name < found)) found = name
    return found
  }

  /** Picks up key files added or removed behind the node's back (geth's keystore watches the directory). */
  private async scan(): Promise<void> {
    let names: string[]
    try {
      names = (await readdir(this.dir, { withFileTypes: true })).filter((d) => d.isFile() && !d.name.startsWith('.') && !d.name.endsWith('~')).map((d) => d.name)
    } catch {
      this.files.clear()
      return
    }
    const present = new Set(names)
    for (const name of [...this.files.keys()]) if (!present.has(name)) this.files.delete(name)
    for (const name of names) {
      if (this.files.has(name)) continue
      try {
        const text = await readFile(join(this.dir, name), 'utf8')
        const address = (JSON.parse(text) as { address?: unknown }).address
        if (typeof address !== 'string') continue
        const hex = address.replace(/^0x/i, '')
        if (/^[0-9a-fA-F]{40}$/.test(hex)) this.files.set(name, '0x' + hex.toLowerCase())
      } catch {
        // Not a key file: skipped, as geth's account cache does.
      }
    }
  }
}

/** Web3 Secret Storage v3 as geth writes it (keystore/passphrase.go EncryptKey). */
async function encryptKeyJson(key: Uint8Array, address: string, password: string, n: number, p: number): Promise<Record<string, unknown>> {
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
async function decryptKeyJson(json: unknown, password: string): Promise<Uint8Array> {
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

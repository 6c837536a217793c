import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { privateToAddress } from '@ethereumjs/util'
import { AccountError } from './accountError.js'
import { SECP256K1_N, STANDARD_SCRYPT_N, STANDARD_SCRYPT_P, checkPrivateKey, decryptKeyJson, encryptKeyJson, keyFileName } from './keyFile.js'

/**
 * Keystore accounts of personal_ and the account methods: geth's accounts/keystore, one Web3
 * Secret Storage JSON file per key under `<data-dir>/keystore` (the format is keyFile.ts's), so
 * geth, ethers and this node read each other's files. The KDF runs one at a time (scrypt N=2^18
 * takes 256 MiB). Passwords and keys are never logged.
 */

export const ERR_UNKNOWN_ACCOUNT = 'unknown account'
export const ERR_LOCKED = 'authentication needed: password or unlock'
export const ERR_NO_MATCH = 'no key for given address or file'
export const ERR_ALREADY_EXISTS = 'account already exists'

/** Largest setTimeout delay (~24.8 days); longer unlocks re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Unlocked {
  key: Uint8Array
  /** ms since epoch; Infinity = until locked or the node stops. */
  expiresAt: number
  timer: NodeJS.Timeout | undefined
}

/** Lowercase 0x address of 20 bytes. */
const addrHex = (a: Uint8Array | string): string => (typeof a === 'string' ? a.toLowerCase() : '0x' + Buffer.from(a).toString('hex'))

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

/**
 * The node keystore (avalanchego v1.12.1: api/keystore; docs/SECURITY.md, K2-K8, D-d): users with a
 * scrypt password verifier, and per-user entries sealed with a data key that only the password
 * unlocks. The per-user key API (`addKey`, `keys`, `keyFor`, `hasAddress`) is what the keystore-backed
 * `native.*` methods use (coreth v0.14.0: plugin/evm/user.go).
 */
import type { Logger } from 'pino'
import type { KeystoreEntry, KeystoreStore } from '../store/keystoreStore.js'
import { ethAddress, publicKeyOf, shortAddress } from '../avalanche/signature.js'
import { assertValidPrivateKey } from '../avalanche/privateKey.js'
import { type ScryptParams, DEFAULT_SCRYPT, KeyDeriver, bytesEqual, open, randomSalt, seal, subkey } from './crypto.js'
import { IncorrectPasswordError, KeystoreError, shown } from './errors.js'
import { MAX_PASSWORD_LEN, MAX_USERNAME_LEN, checkNewPassword, checkPasswordLength, checkUsername } from './password.js'
import { type ThrottleOptions, DEFAULT_THROTTLE, FailureThrottle } from './throttle.js'
import { type UserRecord, blobAuthentic, decodeBlob, decodeRecord, encodeBlob, encodeRecord } from './userRecord.js'

export interface KeystoreOptions {
  /** scrypt cost of new users (docs/SECURITY.md, K3 default N = 2^15, r = 8, p = 1). */
  readonly kdf?: ScryptParams
  readonly throttle?: ThrottleOptions
  /** Longest username and password in UTF-8 bytes (docs/SECURITY.md, K2; default 1024 each, avalanchego's). */
  readonly maxUsernameLength?: number
  readonly maxPasswordLength?: number
  /** Derivations running at once (2) and waiting at most (64); past that `keystore busy`. */
  readonly kdfConcurrency?: number
  readonly kdfMaxQueued?: number
  /** Clock of the back-off (tests). */
  readonly now?: () => number
}

/** Who is calling, for the per-client back-off (the HTTP peer address). */
export interface KeystoreCaller {
  readonly client?: string
}

/** One of the user's keys with both of its address forms. */
export interface KeystoreKey {
  /** DATA, 32 bytes: the secp256k1 private key. */
  readonly privateKey: Uint8Array
  /** DATA, 20 bytes: the EVM address. */
  readonly ethAddress: Uint8Array
  /** DATA, 20 bytes: the short address (X/P-Chain `ids.ShortID`). */
  readonly shortAddress: Uint8Array
}

/** Entry key of the n-th C-Chain private key: 'c' ‖ n(u32 BE), so key order is insertion order. */
const KEY_ENTRY = 0x63

function keyEntry(seq: number): Uint8Array {
  const out = new Uint8Array(5)
  out[0] = KEY_ENTRY
  new DataView(out.buffer).setUint32(1, seq)
  return out
}

function isKeyEntry(key: Uint8Array): boolean {
  return key.length === 5 && key[0] === KEY_ENTRY
}

/** An unlocked user: its record as read, and the subkey that seals its values. */
interface Unlocked {
  readonly raw: Uint8Array
  readonly sealKey: Uint8Array
  readonly exportKey: Uint8Array
}

/** The keystore: all state is in the store; back-off counts are in memory. */
export class Keystore {
  private readonly kdf: ScryptParams
  private readonly deriver: KeyDeriver
  private readonly throttle: FailureThrottle
  private readonly maxUsername: number
  private readonly maxPassword: number
  /** Verifier checked for unknown users, so that they cost the same KDF work (docs/SECURITY.md, K3). */
  private readonly dummy: UserRecord
  private tail: Promise<unknown> = Promise.resolve()

  constructor(
    opts: KeystoreOptions,
    private readonly deps: { store: KeystoreStore; log?: Logger },
  ) {
    this.kdf = opts.kdf ?? DEFAULT_SCRYPT
    this.deriver = new KeyDeriver({ concurrency: opts.kdfConcurrency ?? 2, maxQueued: opts.kdfMaxQueued ?? 64 })
    this.throttle = new FailureThrottle(opts.throttle ?? DEFAULT_THROTTLE, opts.now)
    this.maxUsername = opts.maxUsernameLength ?? MAX_USERNAME_LEN
    this.maxPassword = opts.maxPasswordLength ?? MAX_PASSWORD_LEN
    this.dummy = { kdf: this.kdf, verifierSalt: randomSalt(), verifier: randomSalt(32), dataSalt: randomSalt() }
  }

  /** keystore.createUser: username rules, `user already exists`, then password rules; never overwrites. */
  async createUser(username: string, password: string): Promise<void> {
    checkUsername(username, this.maxUsername)
    if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
    checkNewPassword(password, this.maxPassword)
    const verifierSalt = randomSalt()
    const verifier = await this.deriver.derive(password, verifierSalt, this.kdf)
    const record = encodeRecord({ kdf: this.kdf, verifierSalt, verifier, dataSalt: randomSalt() })
    await this.exclusive(async () => {
      if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
      await this.deps.store.putUser(username, record, [])
    })
  }

  /** keystore.deleteUser: needs the password; an unknown user is `user doesn't exist` (avalanchego). */
  async deleteUser(username: string, password: string, caller: KeystoreCaller = {}): Promise<void> {
    const raw = await this.authenticate(username, password, caller, true)
    await this.exclusive(async () => {
      await this.assertUnchanged(username, raw)
      await this.deps.store.deleteUser(username)
    })
  }

  /** keystore.listUsers: names only, byte-sorted. */
  async listUsers(): Promise<string[]> {
    return this.deps.store.listUsers()
  }

  /** keystore.exportUser: the user as an authenticated blob of still-sealed values (docs/API.md "Keystore API"). */
  async exportUser(username: string, password: string, caller: KeystoreCaller = {}): Promise<Uint8Array> {
    const u = await this.unlock(username, password, caller)
    return this.exclusive(async () => {
      await this.assertUnchanged(username, u.raw)
      return encodeBlob(u.raw, await this.deps.store.entries(username), u.exportKey)
    })
  }

  /**
   * keystore.importUser: a blob from exportUser becomes user `username` (any name). The password must
   * match the blob's embedded verifier, and the blob's MAC and every sealed value must check out.
   */
  async importUser(username: string, password: string, blob: Uint8Array, caller: KeystoreCaller = {}): Promise<void> {
    checkUsername(username, this.maxUsername)
    checkPasswordLength(password, this.maxPassword)
    if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
    const parsed = decodeBlob(blob)
    let rec: UserRecord
    try {
      rec = decodeRecord(parsed.record)
    } catch (err) {
      throw new KeystoreError(`invalid user data: ${(err as Error).message}`)
    }
    this.throttle.check(username, caller.client)
    const verifier = await this.deriver.derive(password, rec.verifierSalt, rec.kdf, () => this.throttle.check(username, caller.client))
    if (!bytesEqual(verifier, rec.verifier)) {
      this.throttle.failure(username, caller.client)
      throw new IncorrectPasswordError(username)
    }
    const dataKey = await this.deriver.derive(password, rec.dataSalt, rec.kdf)
    const sealKey = subkey(dataKey, 'seal')
    try {
      if (!blobAuthentic(parsed, subkey(dataKey, 'export'))) throw new KeystoreError('invalid user data: authentication failed')
      for (const e of parsed.entries) {
        const plain = open(sealKey, e.value, e.key)
        plain.fill(0)
      }
    } catch (err) {
      if (err instanceof KeystoreError && err.message.startsWith('invalid user data')) throw err
      throw new KeystoreError('invalid user data: a value does not open')
    } finally {
      dataKey.fill(0)
      sealKey.fill(0)
    }
    await this.exclusive(async () => {
      if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
      await this.deps.store.putUser(username, parsed.record, parsed.entries)
    })
  }

  /**
   * Stores a private key for the user (idempotent: a key already held is not added twice). Refuses
   * empty, wrong-length, zero and >= n keys (docs/SECURITY.md, K8). Returns the key's EVM address.
   */
  async addKey(username: string, password: string, privateKey: Uint8Array, caller: KeystoreCaller = {}): Promise<{ ethAddress: Uint8Array; added: boolean }> {
    try {
      assertValidPrivateKey(privateKey)
    } catch (err) {
      throw new KeystoreError((err as Error).message)
    }
    const address = ethAddress(publicKeyOf(privateKey))
    const u = await this.unlock(username, password, caller)
    return this.exclusive(async () => {
      await this.assertUnchanged(username, u.raw)
      let next = 0
      for (const e of await this.deps.store.entries(username)) {
        if (!isKeyEntry(e.key)) continue
        next = Math.max(next, new DataView(e.key.buffer, e.key.byteOffset).getUint32(1) + 1)
        const held = open(u.sealKey, e.value, e.key)
        const same = bytesEqual(held, privateKey)
        held.fill(0)
        if (same) return { ethAddress: address, added: false }
      }
      const key = keyEntry(next)
      const entry: KeystoreEntry = { key, value: seal(u.sealKey, privateKey, key) }
      await this.deps.store.putEntries(username, [entry])
      return { ethAddress: address, added: true }
    })
  }

  /** The user's private keys (32 bytes each) in insertion order (coreth's stored address list order). */
  async keys(username: string, password: string, caller: KeystoreCaller = {}): Promise<Uint8Array[]> {
    const u = await this.unlock(username, password, caller)
    const entries = await this.deps.store.entries(username)
    return entries.filter((e) => isKeyEntry(e.key)).map((e) => open(u.sealKey, e.value, e.key))
  }

  /** Alias of keys(): the name the keystore-backed native methods use. */
  getKeys(username: string, password: string, caller: KeystoreCaller = {}): Promise<Uint8Array[]> {
    return this.keys(username, password, caller)
  }

  /** The user's keys with their EVM and short addresses, in insertion order. */
  async keysWithAddresses(username: string, password: string, caller: KeystoreCaller = {}): Promise<KeystoreKey[]> {
    return (await this.keys(username, password, caller)).map((privateKey) => {
      const pub = publicKeyOf(privateKey)
      return { privateKey, ethAddress: ethAddress(pub), shortAddress: shortAddress(pub) }
    })
  }

  /** The user's key controlling `address` (20 bytes, EVM or short form), or undefined. */
  async keyFor(username: string, password: string, address: Uint8Array, caller: KeystoreCaller = {}): Promise<Uint8Array | undefined> {
    let found: Uint8Array | undefined
    for (const k of await this.keysWithAddresses(username, password, caller)) {
      if (found === undefined && (bytesEqual(k.ethAddress, address) || bytesEqual(k.shortAddress, address))) found = k.privateKey
      else k.privateKey.fill(0)
    }
    return found
  }

  /** Whether the user holds a key for `address` (EVM or short form). */
  async hasAddress(username: string, password: string, address: Uint8Array, caller: KeystoreCaller = {}): Promise<boolean> {
    const key = await this.keyFor(username, password, address, caller)
    key?.fill(0)
    return key !== undefined
  }

  /**
   * Checks the password: length rules, back-off, then the KDF and a constant-time compare; an unknown
   * user runs the same KDF on a dummy record. Returns the stored record bytes.
   */
  private async authenticate(username: string, password: string, caller: KeystoreCaller, unknownIsError = false): Promise<Uint8Array> {
    checkUsername(username, this.maxUsername)
    checkPasswordLength(password, this.maxPassword)
    const { client } = caller
    this.throttle.check(username, client)
    const raw = await this.deps.store.getUser(username)
    const rec = raw === undefined ? this.dummy : decodeRecord(raw)
    // The last check runs when a KDF slot is free, so a queued burst stops at the lock (docs/SECURITY.md, K5).
    const verifier = await this.deriver.derive(password, rec.verifierSalt, rec.kdf, () => this.throttle.check(username, client))
    const match = bytesEqual(verifier, rec.verifier)
    if (raw === undefined || !match) {
      this.throttle.failure(username, client)
      if (raw === undefined && unknownIsError) throw new KeystoreError(`user doesn't exist: ${shown(username)}`)
      throw new IncorrectPasswordError(username)
    }
    this.throttle.success(username)
    return raw
  }

  /** authenticate() and the data key's subkeys. */
  private async unlock(username: string, password: string, caller: KeystoreCaller): Promise<Unlocked> {
    const raw = await this.authenticate(username, password, caller)
    const rec = decodeRecord(raw)
    const dataKey = await this.deriver.derive(password, rec.dataSalt, rec.kdf)
    try {
      return { raw, sealKey: subkey(dataKey, 'seal'), exportKey: subkey(dataKey, 'export') }
    } finally {
      dataKey.fill(0)
    }
  }

  /** The user was deleted or replaced between the password check and the write: as a wrong password. */
  private async assertUnchanged(username: string, raw: Uint8Array): Promise<void> {
    const now = await this.deps.store.getUser(username)
    if (now === undefined || !bytesEqual(now, raw)) throw new IncorrectPasswordError(username)
  }

  private alreadyExists(username: string): KeystoreError {
    return new KeystoreError(`user already exists: ${shown(username)}`)
  }

  /** Runs store read-check-write sequences one at a time (avalanchego's keystore lock); KDFs stay outside. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn)
    this.tail = run.catch(() => undefined)
    return run
  }
}

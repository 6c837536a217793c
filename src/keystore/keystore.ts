/**
 * The node keystore (avalanchego v1.12.1: api/keystore; docs/SECURITY.md, K2-K8, D-d): users with a
 * scrypt password verifier, and per-user entries sealed with a data key that only the password
 * unlocks. The entries are avalanchego's user database (each chain's key set in its own part,
 * src/keystore/chainKeys.ts), so exportUser/importUser speak avalanchego's format; the per-chain key API
 * (`addKey`, `createKey`, `addresses`, `keysWithAddresses`, `keyFor`) is what the keystore-backed `avax.*`,
 * `avm.*` and `platform.*` methods use.
 */
import type { Logger } from 'pino'
import type { KeystoreEntry, KeystoreStore } from '../store/keystoreStore.js'
import { assertValidPrivateKey } from '../avalanche/privateKey.js'
import { type AvalancheUser, HASH_SALT_LEN, decodeUser, encdbKey, encdbOpen, encdbSeal, encodeUser, passwordHash, passwordMatches } from './avalancheUser.js'
import { type KeySpace, addressOf } from './chainKeys.js'
import { type ScryptParams, DEFAULT_SCRYPT, KeyDeriver, bytesEqual, randomSalt, seal, subkey } from './crypto.js'
import { IncorrectPasswordError, KeystoreError, shown } from './errors.js'
import { migrateLegacyKeys } from './legacyKeys.js'
import { MAX_PASSWORD_LEN, MAX_USERNAME_LEN, checkNewPassword, checkPasswordLength, checkUsername } from './password.js'
import { type ThrottleOptions, DEFAULT_THROTTLE, FailureThrottle } from './throttle.js'
import { type KeystoreKey, UserDb, newPrivateKey } from './userDb.js'
import { type UserRecord, decodeRecord, encodeRecord } from './userRecord.js'

export type { KeystoreKey, UserDb } from './userDb.js'

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
  /** The key set that keys stored by earlier versions (one set for all chains) join: the C-Chain's (legacyKeys.ts). */
  readonly legacyKeySpace?: KeySpace
  /** Clock of the back-off (tests). */
  readonly now?: () => number
}

/** Who is calling, for the per-client back-off (the HTTP peer address). */
export interface KeystoreCaller {
  readonly client?: string
}

/** An open user database (keystore.GetDatabase's): `run` works on it alone, `close` wipes its key. */
export interface UserSession {
  run<T>(work: (db: UserDb) => Promise<T>): Promise<T>
  close(): void
}

/** An unlocked user: its record as read, and the subkey that seals its values. */
interface Unlocked {
  readonly raw: Uint8Array
  readonly sealKey: Uint8Array
}

/** Shortest key in an avalanchego user's database: the 32-byte prefix of a chain's part (prefixdb.NewNested). */
const MIN_IMPORTED_KEY = 32

/** The keystore: all state is in the store; back-off counts are in memory. */
export class Keystore {
  private readonly kdf: ScryptParams
  private readonly deriver: KeyDeriver
  /** avalanchego's argon2id (64 MiB, on the event loop in slices): one at a time, a few waiting. */
  private readonly argon = new KeyDeriver({ concurrency: 1, maxQueued: 4 })
  private readonly throttle: FailureThrottle
  private readonly maxUsername: number
  private readonly maxPassword: number
  private readonly legacy: KeySpace | undefined
  /** Users whose legacy keys were looked for since the start (a user gains none later: only old versions wrote them). */
  private readonly migrated = new Set<string>()
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
    this.legacy = opts.legacyKeySpace
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

  /**
   * keystore.exportUser: the user in avalanchego's format (avalancheUser.ts): a fresh argon2id hash of the
   * password, and every entry of the user's database re-encrypted as avalanchego's encdb stores it.
   */
  async exportUser(username: string, password: string, caller: KeystoreCaller = {}): Promise<Uint8Array> {
    const plain = await this.withUser(username, password, caller, (db) => db.all(), true)
    const key = encdbKey(password)
    try {
      const data = plain.map((e) => ({ key: e.key, value: encdbSeal(key, e.value) }))
      const salt = randomSalt(HASH_SALT_LEN)
      const hash = await this.argon.run(() => passwordHash(password, salt))
      return encodeUser({ hash, salt, data })
    } finally {
      key.fill(0)
      for (const e of plain) e.value.fill(0)
    }
  }

  /**
   * keystore.importUser: an avalanchego export becomes user `username` (any name), in avalanchego's order:
   * `user already exists`, the codec's errors, then the password against the export's hash. Its values
   * must open under the password (encdb) and are sealed anew under a fresh record; one atomic write.
   */
  async importUser(username: string, password: string, bytes: Uint8Array, caller: KeystoreCaller = {}): Promise<void> {
    checkUsername(username, this.maxUsername)
    checkPasswordLength(password, this.maxPassword)
    if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
    let user: AvalancheUser
    try {
      user = decodeUser(bytes)
    } catch (err) {
      throw new KeystoreError((err as Error).message)
    }
    const { client } = caller
    this.throttle.check(username, client)
    const match = await this.argon.run(
      () => passwordMatches(user, password),
      () => this.throttle.check(username, client),
    )
    if (!match) {
      this.throttle.failure(username, client)
      throw new IncorrectPasswordError(username)
    }
    this.throttle.success(username, client)
    const plain = this.openImported(user, password)
    let sealKey: Uint8Array | undefined
    try {
      const record = await this.newRecord(password)
      sealKey = record.sealKey
      const entries: KeystoreEntry[] = plain.map((e) => ({ key: e.key, value: seal(record.sealKey, e.value, e.key) }))
      await this.exclusive(async () => {
        if ((await this.deps.store.getUser(username)) !== undefined) throw this.alreadyExists(username)
        await this.deps.store.putUser(username, record.bytes, entries)
      })
    } finally {
      sealKey?.fill(0)
      for (const e of plain) e.value.fill(0)
    }
  }

  /**
   * PutKeys (X, P) / putAddress (C): `privateKey` joins the chain's key set unless its address is there.
   * Refuses empty, wrong-length, zero and >= n keys (docs/SECURITY.md, K8).
   */
  async addKey(username: string, password: string, space: KeySpace, privateKey: Uint8Array, caller: KeystoreCaller = {}): Promise<{ address: Uint8Array; added: boolean }> {
    try {
      assertValidPrivateKey(privateKey)
    } catch (err) {
      throw new KeystoreError((err as Error).message)
    }
    const address = addressOf(space, privateKey)
    const added = await this.withUser(username, password, caller, (db) => db.putKey(space, privateKey))
    return { address, added }
  }

  /** keystore.NewKey: a fresh random key in the chain's key set; its address there. */
  async createKey(username: string, password: string, space: KeySpace, caller: KeystoreCaller = {}): Promise<Uint8Array> {
    const privateKey = newPrivateKey()
    try {
      await this.withUser(username, password, caller, (db) => db.putKey(space, privateKey))
      return addressOf(space, privateKey)
    } finally {
      privateKey.fill(0)
    }
  }

  /** GetAddresses: the chain's addresses in the order they were added. */
  async addresses(username: string, password: string, space: KeySpace, caller: KeystoreCaller = {}): Promise<Uint8Array[]> {
    return this.withUser(username, password, caller, (db) => db.addresses(space))
  }

  /** The chain's keys with both address forms, in the order they were added. */
  async keysWithAddresses(username: string, password: string, space: KeySpace, caller: KeystoreCaller = {}): Promise<KeystoreKey[]> {
    return this.withUser(username, password, caller, (db) => db.keys(space))
  }

  /** The chain's private keys (32 bytes each), in the order they were added. */
  async keys(username: string, password: string, space: KeySpace, caller: KeystoreCaller = {}): Promise<Uint8Array[]> {
    return (await this.keysWithAddresses(username, password, space, caller)).map((k) => k.privateKey)
  }

  /** GetKey: the chain's key stored under `address` (the chain's own address form), or undefined. */
  async keyFor(username: string, password: string, space: KeySpace, address: Uint8Array, caller: KeystoreCaller = {}): Promise<Uint8Array | undefined> {
    return this.withUser(username, password, caller, (db) => db.key(space, address))
  }

  /**
   * keystore.GetDatabase: checks the password and opens the user's database (`user`'s errors: the keystore's).
   * The session runs work on it alone and must be closed (it holds the seal key).
   */
  async open(username: string, password: string, caller: KeystoreCaller = {}, recheckLegacy = false): Promise<UserSession> {
    const u = await this.unlock(username, password, caller)
    const run = <T>(work: (db: UserDb) => Promise<T>): Promise<T> =>
      this.exclusive(async () => {
        await this.assertUnchanged(username, u.raw)
        const db = new UserDb(this.deps.store, username, u.sealKey)
        if (this.legacy !== undefined && (recheckLegacy || !this.migrated.has(username))) {
          await migrateLegacyKeys(this.deps.store, username, u.sealKey, db, this.legacy)
          this.migrated.add(username)
        }
        return work(db)
      })
    return { run, close: () => u.sealKey.fill(0) }
  }

  /** open(), `work`, close(); `recheckLegacy` looks for legacy keys again (an export must hold none). */
  private async withUser<T>(username: string, password: string, caller: KeystoreCaller, work: (db: UserDb) => Promise<T>, recheckLegacy = false): Promise<T> {
    const session = await this.open(username, password, caller, recheckLegacy)
    try {
      return await session.run(work)
    } finally {
      session.close()
    }
  }

  /** The imported values opened with avalanchego's encdb key; a value that does not open refuses the import. */
  private openImported(user: AvalancheUser, password: string): { key: Uint8Array; value: Uint8Array }[] {
    const key = encdbKey(password)
    try {
      return user.data.map((kv) => {
        if (kv.key.length < MIN_IMPORTED_KEY) throw new KeystoreError('invalid user data: a key shorter than a chain prefix')
        const value = encdbOpen(key, kv.value)
        if (value === undefined) throw new KeystoreError('invalid user data: a value does not open with the password')
        return { key: kv.key, value }
      })
    } finally {
      key.fill(0)
    }
  }

  /** A new user record for `password` (fresh salts) and its seal key. */
  private async newRecord(password: string): Promise<{ bytes: Uint8Array; sealKey: Uint8Array }> {
    const verifierSalt = randomSalt()
    const dataSalt = randomSalt()
    const verifier = await this.deriver.derive(password, verifierSalt, this.kdf)
    const dataKey = await this.deriver.derive(password, dataSalt, this.kdf)
    try {
      return { bytes: encodeRecord({ kdf: this.kdf, verifierSalt, verifier, dataSalt }), sealKey: subkey(dataKey, 'seal') }
    } finally {
      dataKey.fill(0)
    }
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
    this.throttle.success(username, client)
    return raw
  }

  /** authenticate() and the data key's seal subkey. */
  private async unlock(username: string, password: string, caller: KeystoreCaller): Promise<Unlocked> {
    const raw = await this.authenticate(username, password, caller)
    const rec = decodeRecord(raw)
    const dataKey = await this.deriver.derive(password, rec.dataSalt, rec.kdf)
    try {
      return { raw, sealKey: subkey(dataKey, 'seal') }
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

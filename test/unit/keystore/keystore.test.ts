import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Keystore, type KeystoreOptions } from '../../../src/keystore/keystore.js'
import { KeystoreStore } from '../../../src/store/keystoreStore.js'
import { openDatabase, type Database } from '../../../src/store/db.js'
import { ethAddress, publicKeyOf, shortAddress } from '../../../src/avalanche/signature.js'
import { PREFIX } from '../../../src/store/keys.js'
import { EWOQ_KEY, EWOQ_SHORT } from '../../helpers/constants.js'

const EWOQ = Buffer.from(EWOQ_KEY.slice(2), 'hex')
const PW = 'correct horse battery staple'
/** Cheap scrypt for the behaviour tests; the default cost is measured in crypto.test.ts and the integration test. */
const FAST: KeystoreOptions = { kdf: { logN: 10, r: 8, p: 1 } }

let dir: string
let db: Database
let n = 0
const fresh = (opts: KeystoreOptions = FAST) => new Keystore(opts, { store: new KeystoreStore({ db }) })
const uniq = () => `user-${++n}`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cchain-keystore-'))
  db = await openDatabase(dir)
})
afterAll(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('Keystore users', () => {
  it('creates, lists (byte-sorted), refuses duplicates without overwriting, deletes with the password', async () => {
    const ks = fresh()
    for (const name of ['bob', 'Alice', 'alice', 'alice\0x', 'é']) await ks.createUser(name, PW)
    await expect(ks.createUser('alice', 'another good passphrase 93')).rejects.toThrow('user already exists: alice')
    // The first password still works: nothing was overwritten.
    await ks.addKey('alice', PW, EWOQ)
    expect((await ks.listUsers()).filter((u) => !u.startsWith('user-'))).toEqual(['Alice', 'alice', 'alice\0x', 'bob', 'é'])
    await expect(ks.deleteUser('alice', 'wrong password here')).rejects.toThrow('incorrect password: user "alice"')
    await expect(ks.deleteUser('nobody', PW)).rejects.toThrow("user doesn't exist: nobody")
    await ks.deleteUser('alice', PW)
    expect(await ks.listUsers()).not.toContain('alice')
    // alice's keys went with her; `alice\0x` (whose key space would share a prefix without the length) kept nothing of hers.
    expect(await ks.keys('alice\0x', PW)).toEqual([])
    await ks.createUser('alice', PW)
    expect(await ks.keys('alice', PW)).toEqual([])
    for (const name of ['bob', 'Alice', 'alice', 'alice\0x', 'é']) await ks.deleteUser(name, PW)
  })

  it('checks username and password rules in avalanchego order', async () => {
    const ks = fresh()
    await expect(ks.createUser('', PW)).rejects.toThrow('empty username')
    await expect(ks.createUser('u'.repeat(1025), PW)).rejects.toThrow('username exceeds maximum length of 1024 chars')
    const u = uniq()
    await expect(ks.createUser(u, '')).rejects.toThrow('empty password')
    await expect(ks.createUser(u, 'p'.repeat(1025))).rejects.toThrow('password exceeds maximum length of 1024 chars')
    await expect(ks.createUser(u, 'password')).rejects.toThrow('password is too weak')
    expect(await ks.listUsers()).not.toContain(u)
    await ks.createUser(u, PW)
    // Existence is checked before the password rules (avalanchego CreateUser).
    await expect(ks.createUser(u, '')).rejects.toThrow(`user already exists: ${u}`)
    await expect(ks.exportUser(u, 'p'.repeat(1025))).rejects.toThrow('password exceeds maximum length of 1024 chars')
  })

  it('answers an unknown user exactly as a wrong password, and cuts long usernames in errors', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    const wrong = await ks.keys(u, 'not the password').catch((e: Error) => e.message)
    const unknown = await ks.keys(u + '-ghost', 'not the password').catch((e: Error) => e.message)
    expect(wrong).toBe(`incorrect password: user "${u}"`)
    expect(unknown).toBe(`incorrect password: user "${u}-ghost"`)
    const long = 'L'.repeat(1000)
    expect(await ks.keys(long, PW).catch((e: Error) => e.message)).toBe(`incorrect password: user "${'L'.repeat(64)}..."`)
  })

  it('spends the same KDF work on unknown users (docs/SECURITY.md, K3)', async () => {
    const ks = fresh({})
    const u = uniq()
    await ks.createUser(u, PW)
    const time = async (name: string) => {
      const t0 = performance.now()
      await ks.exportUser(name, 'wrong password value').catch(() => undefined)
      return performance.now() - t0
    }
    await time(u)
    const known = Math.min(await time(u), await time(u))
    const unknown = Math.min(await time('ghost-user'), await time('ghost-user'))
    expect(known).toBeGreaterThan(10)
    expect(unknown).toBeGreaterThan(known * 0.5)
    expect(unknown).toBeLessThan(known * 2)
  })

  it('backs off after 5 failures without running the KDF, whatever the password', async () => {
    let now = 0
    const ks = fresh({ ...FAST, now: () => now })
    const u = uniq()
    await ks.createUser(u, PW)
    for (let i = 0; i < 5; i++) await expect(ks.keys(u, `guess number ${i}`, { client: '127.0.0.1' })).rejects.toThrow('incorrect password')
    await expect(ks.keys(u, PW, { client: '127.0.0.1' })).rejects.toThrow('too many failed attempts, try again in 2 s')
    now += 2000
    expect(await ks.keys(u, PW)).toEqual([])
  })
})

describe('Keystore per-user key API', () => {
  it('adds keys idempotently, in insertion order, finds them by EVM or short address', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    const k2 = Buffer.alloc(32, 7)
    const r1 = await ks.addKey(u, PW, EWOQ)
    expect(r1.added).toBe(true)
    expect(Buffer.from(r1.ethAddress).toString('hex')).toBe('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')
    expect((await ks.addKey(u, PW, k2)).added).toBe(true)
    expect((await ks.addKey(u, PW, EWOQ)).added).toBe(false)
    expect((await ks.keys(u, PW)).map((k) => Buffer.from(k).toString('hex'))).toEqual([EWOQ.toString('hex'), k2.toString('hex')])
    expect((await ks.getKeys(u, PW)).length).toBe(2)
    const pub = publicKeyOf(k2)
    expect(Buffer.from((await ks.keyFor(u, PW, ethAddress(pub)))!)).toEqual(k2)
    expect(Buffer.from((await ks.keyFor(u, PW, shortAddress(pub)))!)).toEqual(k2)
    expect(await ks.keyFor(u, PW, new Uint8Array(20))).toBeUndefined()
    expect(await ks.hasAddress(u, PW, ethAddress(publicKeyOf(EWOQ)))).toBe(true)
    expect(await ks.hasAddress(u, PW, new Uint8Array(20))).toBe(false)
    const listed = await ks.keysWithAddresses(u, PW)
    expect(Buffer.from(listed[0]!.shortAddress).toString('hex')).toBe(EWOQ_SHORT)
    // Another user does not see them.
    const other = uniq()
    await ks.createUser(other, PW)
    expect(await ks.keys(other, PW)).toEqual([])
    expect(await ks.hasAddress(other, PW, ethAddress(pub))).toBe(false)
    await expect(ks.addKey(u, 'bad password guess', k2)).rejects.toThrow(`incorrect password: user "${u}"`)
  })

  it('refuses empty, short, zero and >= n keys (docs/SECURITY.md, K8)', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await expect(ks.addKey(u, PW, new Uint8Array(0))).rejects.toThrow('private key has unexpected length, expected 32')
    await expect(ks.addKey(u, PW, new Uint8Array(31))).rejects.toThrow('unexpected length')
    await expect(ks.addKey(u, PW, new Uint8Array(32))).rejects.toThrow('invalid private key, zero or negative')
    await expect(ks.addKey(u, PW, new Uint8Array(32).fill(0xff))).rejects.toThrow('invalid private key, >=N')
    expect(await ks.keys(u, PW)).toEqual([])
  })

  it('stores neither the key nor the password in clear', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, EWOQ)
    for await (const [key, value] of db.iterator()) {
      for (const needle of [EWOQ, Buffer.from(PW), Buffer.from(EWOQ.toString('hex'))]) {
        expect(Buffer.from(value).includes(needle)).toBe(false)
        expect(Buffer.from(key).includes(needle)).toBe(false)
      }
    }
  })
})

describe('Keystore export/import', () => {
  it('moves a user (under any name) with its keys; a wrong password or a changed byte cannot import it', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, EWOQ)
    const blob = await ks.exportUser(u, PW)
    expect(Buffer.from(blob).includes(EWOQ)).toBe(false)
    expect(Buffer.from(blob.subarray(0, 4)).toString()).toBe('CCKS')
    await expect(ks.exportUser(u, 'wrong password 123')).rejects.toThrow(`incorrect password: user "${u}"`)
    await expect(ks.importUser(u, PW, blob)).rejects.toThrow(`user already exists: ${u}`)
    const moved = uniq()
    await expect(ks.importUser(moved, 'wrong password 123', blob)).rejects.toThrow(`incorrect password: user "${moved}"`)
    for (const i of [10, 40, blob.length - 40, blob.length - 1]) {
      const bad = blob.slice()
      bad[i]! ^= 1
      await expect(ks.importUser(moved, PW, bad)).rejects.toThrow(/invalid user data|incorrect password/)
    }
    await expect(ks.importUser(moved, PW, blob.subarray(0, 60))).rejects.toThrow('invalid user data: truncated')
    await expect(ks.importUser(moved, PW, new Uint8Array(0))).rejects.toThrow('invalid user data: not a cchain-node keystore export')
    expect(await ks.listUsers()).not.toContain(moved)
    // The failed guesses above locked `moved` on this instance (back-off); a fresh one shares the store.
    const later = fresh()
    await later.importUser(moved, PW, blob)
    expect((await later.keys(moved, PW)).map((k) => Buffer.from(k).toString('hex'))).toEqual([EWOQ.toString('hex')])
  })

  it('imports in one synced batch: the user record and its entries appear together', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, EWOQ)
    const blob = await ks.exportUser(u, PW)
    const batches: unknown[][] = []
    const original = db.batch.bind(db)
    ;(db as unknown as { batch: unknown }).batch = (ops: unknown[], opts: unknown) => {
      batches.push(ops)
      return original(ops as never, opts as never)
    }
    try {
      await ks.importUser(uniq(), PW, blob)
      await ks.createUser(uniq(), PW)
    } finally {
      ;(db as unknown as { batch: unknown }).batch = original
    }
    expect(batches.map((b) => b.length)).toEqual([2, 1])
    const prefixes = (batches[0] as { key: Uint8Array }[]).map((op) => op.key[0]).sort()
    expect(prefixes).toEqual([PREFIX.keystoreData, PREFIX.keystoreUser].sort())
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Keystore, type KeystoreOptions } from '../../../src/keystore/keystore.js'
import { KeystoreStore } from '../../../src/store/keystoreStore.js'
import { openDatabase, type Database } from '../../../src/store/db.js'
import { ethAddress, publicKeyOf, shortAddress } from '../../../src/avalanche/signature.js'
import { recordBatches } from '../../helpers/batchRecorder.js'
import { PREFIX } from '../../../src/store/keys.js'
import { avaxKeySpace, evmKeySpace } from '../../../src/keystore/chainKeys.js'
import { decodeUser, encdbKey, encdbOpen } from '../../../src/keystore/avalancheUser.js'
import { KeyDeriver, seal, subkey } from '../../../src/keystore/crypto.js'
import { decodeRecord } from '../../../src/keystore/userRecord.js'
import { EWOQ_KEY, EWOQ_SHORT } from '../../helpers/constants.js'

const EWOQ = Buffer.from(EWOQ_KEY.slice(2), 'hex')
const PW = 'correct horse battery staple'
/** Three chains' key sets: two X/P-style, one EVM. */
const X = avaxKeySpace(Buffer.alloc(32, 0xaa))
const P = avaxKeySpace(new Uint8Array(32))
const C = evmKeySpace(Buffer.alloc(32, 0xcc))
const hex = (keys: Uint8Array[]) => keys.map((k) => Buffer.from(k).toString('hex'))
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
    await ks.addKey('alice', PW, C, EWOQ)
    expect((await ks.listUsers()).filter((u) => !u.startsWith('user-'))).toEqual(['Alice', 'alice', 'alice\0x', 'bob', 'é'])
    await expect(ks.deleteUser('alice', 'wrong password here')).rejects.toThrow('incorrect password: user "alice"')
    await expect(ks.deleteUser('nobody', PW)).rejects.toThrow("user doesn't exist: nobody")
    await ks.deleteUser('alice', PW)
    expect(await ks.listUsers()).not.toContain('alice')
    // alice's keys went with her; `alice\0x` (whose key space would share a prefix without the length) kept nothing of hers.
    expect(await ks.keys('alice\0x', PW, C)).toEqual([])
    await ks.createUser('alice', PW)
    expect(await ks.keys('alice', PW, C)).toEqual([])
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
    const wrong = await ks.keys(u, 'not the password', C).catch((e: Error) => e.message)
    const unknown = await ks.keys(u + '-ghost', 'not the password', C).catch((e: Error) => e.message)
    expect(wrong).toBe(`incorrect password: user "${u}"`)
    expect(unknown).toBe(`incorrect password: user "${u}-ghost"`)
    const long = 'L'.repeat(1000)
    expect(await ks.keys(long, PW, C).catch((e: Error) => e.message)).toBe(`incorrect password: user "${'L'.repeat(64)}..."`)
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
    const other = uniq()
    await ks.createUser(other, PW)
    for (let i = 0; i < 5; i++) await expect(ks.keys(u, `guess number ${i}`, C, { client: '127.0.0.1' })).rejects.toThrow('incorrect password')
    await expect(ks.keys(u, PW, C, { client: '127.0.0.1' })).rejects.toThrow('too many failed attempts, try again in 2 s')
    // Only this client on this user: another user from the same client, and this user from another client, still open.
    expect(await ks.keys(other, PW, C, { client: '127.0.0.1' })).toEqual([])
    expect(await ks.keys(u, PW, C, { client: '127.0.0.2' })).toEqual([])
    now += 2000
    expect(await ks.keys(u, PW, C, { client: '127.0.0.1' })).toEqual([])
  })
})

describe('Keystore per-chain key sets', () => {
  it('adds keys idempotently per chain, in insertion order; a key added on one chain is not on another', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    const k2 = Buffer.alloc(32, 7)
    const r1 = await ks.addKey(u, PW, C, EWOQ)
    expect(r1.added).toBe(true)
    expect(Buffer.from(r1.address).toString('hex')).toBe('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')
    expect((await ks.addKey(u, PW, C, k2)).added).toBe(true)
    expect((await ks.addKey(u, PW, C, EWOQ)).added).toBe(false)
    expect(hex(await ks.keys(u, PW, C))).toEqual([EWOQ.toString('hex'), k2.toString('hex')])
    expect(hex(await ks.addresses(u, PW, C))).toEqual(['8db97c7cece249c2b98bdc0226cc4c2a57bf52fc', Buffer.from(ethAddress(publicKeyOf(k2))).toString('hex')])
    // X and P hold nothing until a key is added there; their addresses are short ones.
    expect(await ks.keys(u, PW, X)).toEqual([])
    expect(await ks.addresses(u, PW, P)).toEqual([])
    const r2 = await ks.addKey(u, PW, X, k2)
    expect(Buffer.from(r2.address)).toEqual(Buffer.from(shortAddress(publicKeyOf(k2))))
    expect(hex(await ks.keys(u, PW, X))).toEqual([k2.toString('hex')])
    expect(await ks.keys(u, PW, P)).toEqual([])
    const pub = publicKeyOf(k2)
    expect(Buffer.from((await ks.keyFor(u, PW, C, ethAddress(pub)))!)).toEqual(k2)
    expect(Buffer.from((await ks.keyFor(u, PW, X, shortAddress(pub)))!)).toEqual(k2)
    // Each chain finds a key by its own address form only.
    expect(await ks.keyFor(u, PW, C, shortAddress(pub))).toBeUndefined()
    expect(await ks.keyFor(u, PW, P, shortAddress(pub))).toBeUndefined()
    const listed = await ks.keysWithAddresses(u, PW, C)
    expect(Buffer.from(listed[0]!.shortAddress).toString('hex')).toBe(EWOQ_SHORT)
    // Another user does not see them.
    const other = uniq()
    await ks.createUser(other, PW)
    expect(await ks.keys(other, PW, C)).toEqual([])
    await expect(ks.addKey(u, 'bad password guess', C, k2)).rejects.toThrow(`incorrect password: user "${u}"`)
  })

  it('createKey adds a fresh key to one chain; X and P stop at 5000 addresses (maxKeystoreAddresses)', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    const a = await ks.createKey(u, PW, P)
    const b = await ks.createKey(u, PW, P)
    expect(hex(await ks.addresses(u, PW, P))).toEqual(hex([a, b]))
    expect(await ks.addresses(u, PW, X)).toEqual([])
    const tiny = { ...X, maxAddresses: 2 }
    await ks.createKey(u, PW, tiny)
    await ks.addKey(u, PW, tiny, EWOQ)
    await expect(ks.createKey(u, PW, tiny)).rejects.toThrow('keystore user has reached its limit of 2 addresses')
    // A key already held is no new address: no error at the limit.
    expect((await ks.addKey(u, PW, tiny, EWOQ)).added).toBe(false)
  })

  it('refuses empty, short, zero and >= n keys (docs/SECURITY.md, K8)', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await expect(ks.addKey(u, PW, C, new Uint8Array(0))).rejects.toThrow('private key has unexpected length, expected 32')
    await expect(ks.addKey(u, PW, C, new Uint8Array(31))).rejects.toThrow('unexpected length')
    await expect(ks.addKey(u, PW, C, new Uint8Array(32))).rejects.toThrow('invalid private key, zero or negative')
    await expect(ks.addKey(u, PW, C, new Uint8Array(32).fill(0xff))).rejects.toThrow('invalid private key, >=N')
    expect(await ks.keys(u, PW, C)).toEqual([])
  })

  it('stores neither the key nor the password in clear', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, C, EWOQ)
    await ks.addKey(u, PW, X, EWOQ)
    for await (const [key, value] of db.iterator()) {
      for (const needle of [EWOQ, Buffer.from(PW), Buffer.from(EWOQ.toString('hex'))]) {
        expect(Buffer.from(value).includes(needle)).toBe(false)
        expect(Buffer.from(key).includes(needle)).toBe(false)
      }
    }
  })

  it("moves keys stored before per-chain sets ('c' ‖ n) into the C-Chain's set on the next unlock", async () => {
    const store = new KeystoreStore({ db })
    const ks = new Keystore({ ...FAST, legacyKeySpace: C }, { store })
    const u = uniq()
    await ks.createUser(u, PW)
    // The old layout, written as the previous version did: 'c' ‖ u32 BE index -> sealed key, the entry key as aad.
    const rec = decodeRecord((await store.getUser(u))!)
    const sealKey = subkey(await new KeyDeriver({ concurrency: 1, maxQueued: 1 }).derive(PW, rec.dataSalt, rec.kdf), 'seal')
    const k2 = Buffer.alloc(32, 9)
    const legacy = [EWOQ, k2].map((k, i) => {
      const key = Uint8Array.of(0x63, 0, 0, 0, i)
      return { key, value: seal(sealKey, k, key) }
    })
    await store.putEntries(u, legacy)
    expect(hex(await ks.keys(u, PW, C))).toEqual([EWOQ.toString('hex'), k2.toString('hex')])
    expect(await ks.keys(u, PW, X)).toEqual([])
    const left = (await store.entries(u)).map((e) => e.key.length)
    expect(left).not.toContain(5)
    expect(await store.getEntry(u, legacy[0]!.key)).toBeUndefined()
    // Already moved: a second unlock finds nothing to do.
    expect(hex(await ks.keys(u, PW, C))).toEqual([EWOQ.toString('hex'), k2.toString('hex')])
  })
})

describe('Keystore export/import (avalanchego v1.12.1 format)', () => {
  it('exports the password hash and every chain part of the database as avalanchego does; imports it under any name', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, C, EWOQ)
    await ks.addKey(u, PW, X, EWOQ)
    const blob = await ks.exportUser(u, PW)
    expect(Buffer.from(blob).includes(EWOQ)).toBe(false)
    const user = decodeUser(blob)
    expect(Buffer.from(blob.subarray(0, 2))).toEqual(Buffer.of(0, 0))
    // X: list + key, C: list + key, in key order; each value opens with encdb's key to what the chain stored.
    expect(user.data).toHaveLength(4)
    const keys = user.data.map((kv) => Buffer.from(kv.key))
    expect(keys).toEqual([...keys].sort(Buffer.compare))
    const plain = user.data.map((kv) => Buffer.from(encdbOpen(encdbKey(PW), kv.value)!).toString('hex'))
    expect(plain.filter((v) => v === EWOQ.toString('hex'))).toHaveLength(2)
    expect(plain).toContain('0000' + '00000001' + EWOQ_SHORT)
    expect(plain).toContain('0000' + '00000001' + '8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')
    await expect(ks.exportUser(u, 'wrong password 123')).rejects.toThrow(`incorrect password: user "${u}"`)
    await expect(ks.importUser(u, PW, blob)).rejects.toThrow(`user already exists: ${u}`)
    const moved = uniq()
    await ks.importUser(moved, PW, blob)
    expect(hex(await ks.keys(moved, PW, C))).toEqual([EWOQ.toString('hex')])
    expect(hex(await ks.keys(moved, PW, X))).toEqual([EWOQ.toString('hex')])
    expect(await ks.keys(moved, PW, P)).toEqual([])
  })

  it("refuses a wrong password, a changed hash and malformed bytes with avalanchego's (codec) errors; writes nothing", async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, X, EWOQ)
    const blob = await ks.exportUser(u, PW)
    const moved = uniq()
    await expect(ks.importUser(moved, 'wrong password 123', blob)).rejects.toThrow(`incorrect password: user "${moved}"`)
    const hashFlipped = blob.slice()
    hashFlipped[5]! ^= 1
    await expect(ks.importUser(moved, PW, hashFlipped)).rejects.toThrow(`incorrect password: user "${moved}"`)
    await expect(ks.importUser(moved, PW, new Uint8Array(1))).rejects.toThrow("couldn't unpack codec version")
    await expect(ks.importUser(moved, PW, Uint8Array.of(0, 1, ...blob.subarray(2)))).rejects.toThrow('unknown codec version')
    await expect(ks.importUser(moved, PW, blob.subarray(0, 20))).rejects.toThrow(/^packer has insufficient length for input$/)
    await expect(ks.importUser(moved, PW, blob.subarray(0, 51))).rejects.toThrow("couldn't unmarshal slice: packer has insufficient length for input")
    await expect(ks.importUser(moved, PW, Uint8Array.of(...blob, 0))).rejects.toThrow(`trailing buffer space: read ${blob.length} provided ${blob.length + 1}`)
    // A value changed in the last byte (its nonce): the password is right, the value does not open.
    const valueFlipped = blob.slice()
    valueFlipped[blob.length - 1]! ^= 1
    const later = fresh()
    await expect(later.importUser(moved, PW, valueFlipped)).rejects.toThrow('invalid user data: a value does not open with the password')
    expect(await ks.listUsers()).not.toContain(moved)
  })

  it('imports in one atomic write: the user record and its entries appear together', async () => {
    const ks = fresh()
    const u = uniq()
    await ks.createUser(u, PW)
    await ks.addKey(u, PW, C, EWOQ)
    const blob = await ks.exportUser(u, PW)
    const recorder = recordBatches(db)
    try {
      await ks.importUser(uniq(), PW, blob)
      await ks.createUser(uniq(), PW)
    } finally {
      recorder.stop()
    }
    const batches = recorder.batches
    expect(batches.map((b) => [b.keys.length, b.options?.sync])).toEqual([
      [3, true],
      [1, true],
    ])
    const prefixes = batches[0]!.keys.map((key) => key[0]).sort()
    expect(prefixes).toEqual([PREFIX.keystoreData, PREFIX.keystoreData, PREFIX.keystoreUser].sort())
  })
})

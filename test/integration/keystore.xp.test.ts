/**
 * The X- and P-Chain keystore key methods of avalanchego v1.12.1 (avm.importKey, avm.exportKey, avm.listAddresses,
 * avm.createAddress; platform.importKey, platform.exportKey, platform.listAddresses, platform.createAddress) with
 * the per-chain key sets: a key imported on X spends on X only until platform.importKey puts it in P's set.
 * Then keystore.exportUser / keystore.importUser with a user built in avalanchego's format
 * (test/fixtures/avalanchego-keystore), read back here with an independent decoder.
 */
import { readFileSync } from 'node:fs'
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { argon2id } from '@noble/hashes/argon2.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS, EWOQ_KEY, EWOQ_P, EWOQ_PRIVATE_KEY, EWOQ_X, LOCAL_P, LOCAL_X } from '../helpers/constants.js'
import { startTestNode, type RpcAnswer, type TestNode } from '../helpers/testNode.js'

const FRESH_X = 'X-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqljssag'
/** The ewoq short address (3cb7d384…b29c) as a CB58 ids.ShortID. */
const EWOQ_SHORT_CB58 = '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV'
const auth = { username: 'flow-user', password: 'Flow-Keystore-Passphrase-5381' }
const X_FEE = 1_000_000n

let tn: TestNode
let off: TestNode
const call = (path: string, method: string, params: unknown = {}, node = tn): Promise<RpcAnswer> => node.api(path, method, params)
async function ok(path: string, method: string, params: unknown = {}, node = tn): Promise<any> {
  const a = await call(path, method, params, node)
  expect(a.error, `${method}: ${JSON.stringify(a.error)}`).toBeUndefined()
  return a.result
}
const errorOf = async (path: string, method: string, params: unknown, node = tn): Promise<string | undefined> => (await call(path, method, params, node)).error?.message
const xBalance = async (address = EWOQ_X): Promise<bigint> => BigInt((await ok('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).balance)
const pBalance = async (): Promise<bigint> => BigInt((await ok('/ext/bc/P', 'platform.getBalance', { addresses: [EWOQ_P] })).unlocked)

beforeAll(async () => {
  ;[tn, off] = await Promise.all([startTestNode({ config: { logLevel: 'error', keystoreEnabled: true } }), startTestNode({ config: { logLevel: 'error' } })])
  expect(await ok('/ext/keystore', 'keystore.createUser', auth)).toEqual({})
})

afterAll(async () => {
  await tn?.close()
  await off?.close()
})

describe('per-chain key sets: avm.* and platform.* key methods', () => {
  it('avm.importKey puts the key in X only: avm.send spends it, P cannot until platform.importKey', async () => {
    expect(await ok('/ext/bc/X', 'avm.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_X })
    // A key already held is not added twice.
    expect(await ok('/ext/bc/X', 'avm.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_X })
    expect(await ok('/ext/bc/X', 'avm.listAddresses', auth)).toEqual({ addresses: [EWOQ_X] })
    expect(await ok('/ext/bc/P', 'platform.listAddresses', auth)).toEqual({ addresses: [] })
    // The C-Chain's set is its own too.
    expect(await errorOf('/ext/bc/C/avax', 'avax.exportKey', { ...auth, address: EWOQ_ADDRESS })).toBe('problem retrieving private key: not found')

    const before = await xBalance()
    const sent = await ok('/ext/bc/X', 'avm.send', { ...auth, assetID: 'AVAX', amount: 5_000, to: FRESH_X })
    expect(sent.changeAddr).toBe(EWOQ_X)
    expect((await ok('/ext/bc/X', 'avm.getTxStatus', { txID: sent.txID })).status).toBe('Accepted')
    expect(await xBalance()).toBe(before - 5_000n - X_FEE)

    expect(await errorOf('/ext/bc/P', 'platform.exportAVAX', { ...auth, amount: 1_000, to: EWOQ_X })).toBe("couldn't create tx: user has no keys or funds")
    expect(await ok('/ext/bc/P', 'platform.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_P })
    expect(await ok('/ext/bc/P', 'platform.listAddresses', auth)).toEqual({ addresses: [EWOQ_P] })
    const pBefore = await pBalance()
    const exported = await ok('/ext/bc/P', 'platform.exportAVAX', { ...auth, amount: 7_000_000, to: EWOQ_X })
    expect(exported.changeAddr).toBe(EWOQ_P)
    expect((await ok('/ext/bc/P', 'platform.getTxStatus', { txID: exported.txID })).status).toBe('Committed')
    expect((await pBalance()) < pBefore - 7_000_000n).toBe(true)
    const xBefore = await xBalance()
    await ok('/ext/bc/X', 'avm.import', { ...auth, sourceChain: 'P', to: EWOQ_X })
    expect(await xBalance()).toBe(xBefore + 7_000_000n - X_FEE)
  })

  it('exportKey gives back the imported key on each chain, by local address or CB58 short ID; importKey round trip', async () => {
    expect(await ok('/ext/bc/X', 'avm.exportKey', { ...auth, address: EWOQ_X })).toEqual({ privateKey: EWOQ_PRIVATE_KEY })
    expect(await ok('/ext/bc/P', 'platform.exportKey', { ...auth, address: EWOQ_P })).toEqual({ privateKey: EWOQ_PRIVATE_KEY })
    // avax.ParseServiceAddress also takes the CB58 short ID.
    const exported = (await ok('/ext/bc/X', 'avm.exportKey', { ...auth, address: EWOQ_SHORT_CB58 })).privateKey as string
    expect(exported).toBe(EWOQ_PRIVATE_KEY)
    // The exported key imports into another user at the same address.
    const other = { username: 'flow-other', password: 'Flow-Other-Passphrase-7702' }
    await ok('/ext/keystore', 'keystore.createUser', other)
    expect(await ok('/ext/bc/X', 'avm.importKey', { ...other, privateKey: exported })).toEqual({ address: EWOQ_X })
    expect(await ok('/ext/bc/X', 'avm.exportKey', { ...other, address: EWOQ_X })).toEqual({ privateKey: EWOQ_PRIVATE_KEY })

    expect(await errorOf('/ext/bc/X', 'avm.exportKey', { ...auth, address: EWOQ_P })).toBe(
      `problem parsing address "${EWOQ_P}": couldn't parse address "${EWOQ_P}": mismatched chainIDs: expected "${LOCAL_X}" but got "${LOCAL_P}"`,
    )
    expect(await errorOf('/ext/bc/P', 'platform.exportKey', { ...auth, address: 'nope' })).toBe(`couldn't parse nope to address: couldn't parse address "nope": no separator found in address`)
    expect(await errorOf('/ext/bc/X', 'avm.exportKey', { ...auth, address: FRESH_X })).toBe('problem retrieving private key: not found')
    expect(await errorOf('/ext/bc/P', 'platform.exportKey', { ...other, address: EWOQ_P })).toBe('problem retrieving private key: not found')
  })

  it("createAddress makes a fresh key in that chain's set only, listed last and exportable", async () => {
    const created = (await ok('/ext/bc/X', 'avm.createAddress', auth)).address as string
    expect(created).toMatch(/^X-local1[0-9a-z]{38}$/)
    expect(await ok('/ext/bc/X', 'avm.listAddresses', auth)).toEqual({ addresses: [EWOQ_X, created] })
    const key = (await ok('/ext/bc/X', 'avm.exportKey', { ...auth, address: created })).privateKey as string
    expect(key).toMatch(/^PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/)
    const third = { username: 'flow-third', password: 'Flow-Third-Passphrase-1190' }
    await ok('/ext/keystore', 'keystore.createUser', third)
    expect(await ok('/ext/bc/X', 'avm.importKey', { ...third, privateKey: key })).toEqual({ address: created })
    const pCreated = (await ok('/ext/bc/P', 'platform.createAddress', auth)).address as string
    expect(pCreated).toMatch(/^P-local1[0-9a-z]{38}$/)
    expect(pCreated.slice(2)).not.toBe(created.slice(2))
    expect(await ok('/ext/bc/P', 'platform.listAddresses', auth)).toEqual({ addresses: [EWOQ_P, pCreated] })
    expect((await ok('/ext/bc/X', 'avm.listAddresses', auth)).addresses).toHaveLength(2)
  })

  it("errors in avalanchego's words: missing or bad privateKey, wrong password; with the keystore off every user is unknown", async () => {
    for (const [path, method] of [
      ['/ext/bc/X', 'avm.importKey'],
      ['/ext/bc/P', 'platform.importKey'],
    ] as const) {
      expect(await errorOf(path, method, auth)).toBe("argument 'privateKey' not given")
      expect(await errorOf(path, method, { ...auth, privateKey: 'PrivateKey-nope' })).toMatch(/^couldn't unmarshal an argument/)
      expect(await errorOf(path, method, { ...auth, password: 'Wrong-Passphrase-0000', privateKey: EWOQ_PRIVATE_KEY })).toBe(
        `problem retrieving user "${auth.username}": incorrect password: user "${auth.username}"`,
      )
    }
    const ghost = { username: 'ghost', password: 'Any-Passphrase-4444' }
    const unknown = 'problem retrieving user "ghost": incorrect password: user "ghost"'
    for (const [path, method, params] of [
      ['/ext/bc/X', 'avm.importKey', { ...ghost, privateKey: EWOQ_PRIVATE_KEY }],
      ['/ext/bc/X', 'avm.exportKey', { ...ghost, address: EWOQ_X }],
      ['/ext/bc/X', 'avm.listAddresses', ghost],
      ['/ext/bc/X', 'avm.createAddress', ghost],
      ['/ext/bc/P', 'platform.importKey', { ...ghost, privateKey: EWOQ_PRIVATE_KEY }],
      ['/ext/bc/P', 'platform.exportKey', { ...ghost, address: EWOQ_P }],
      ['/ext/bc/P', 'platform.listAddresses', ghost],
      ['/ext/bc/P', 'platform.createAddress', ghost],
    ] as const) {
      expect(await errorOf(path, method, params, off), `${method} (keystore off)`).toBe(unknown)
    }
    // Argument checks still come first with the keystore off.
    expect(await errorOf('/ext/bc/X', 'avm.importKey', ghost, off)).toBe("argument 'privateKey' not given")
    expect(await errorOf('/ext/bc/X', 'avm.exportKey', { ...ghost, address: 'nope' }, off)).toBe(`problem parsing address "nope": couldn't parse address "nope": no separator found in address`)
  })

  it("a wrong password for one user never blocks another user's right password from the same client", async () => {
    const victim = { username: 'flow-locked', password: 'Flow-Locked-Passphrase-3310' }
    await ok('/ext/keystore', 'keystore.createUser', victim)
    for (let i = 0; i < 5; i++) {
      expect(await errorOf('/ext/bc/X', 'avm.listAddresses', { ...victim, password: `Guess-${i}` })).toBe(`problem retrieving user "flow-locked": incorrect password: user "flow-locked"`)
    }
    const locked = await call('/ext/bc/X', 'avm.listAddresses', victim)
    expect(locked.error?.code).toBe(-32005)
    expect(locked.error?.message).toMatch(/^problem retrieving user "flow-locked": too many failed attempts, try again in \d+ s$/)
    expect(await ok('/ext/bc/X', 'avm.listAddresses', auth)).toEqual({ addresses: [EWOQ_X, expect.stringMatching(/^X-local1/)] })
    expect((await ok('/ext/bc/P', 'platform.listAddresses', auth)).addresses[0]).toBe(EWOQ_P)
  })
})

/** test/fixtures/avalanchego-keystore: a user in avalanchego v1.12.1's export format (see its README). */
const FIXTURE = new URL('../fixtures/avalanchego-keystore/', import.meta.url)
const FIXTURE_USER = readFileSync(new URL('user.txt', FIXTURE), 'utf8').trim()
const FIXTURE_PASSWORD = 'Fixture-Keystore-Passphrase-2417'
const SPEC = JSON.parse(readFileSync(new URL('spec.json', FIXTURE), 'utf8')) as { entries: { chain: string; inner: string; plaintext: string }[] }
const K2 = 'b0619967d86631e74bf0498953281d9b8db530f27491425f444cf05852a2b761'
const K2_ETH = '0xd9448142deec920180edfc4331b660bfe72f9479'

/**
 * Reads an export as avalanchego would, written here from the format alone (not the node's code): the hex
 * checksum, codec v0, password.Hash checked with argon2id, each value opened with XChaCha20-Poly1305 under
 * sha256(password). Returns `hex(key) -> hex(plaintext)`.
 */
function readExport(text: string, password: string): Map<string, string> {
  const all = Buffer.from(text.slice(2), 'hex')
  const body = all.subarray(0, -4)
  expect(Buffer.from(sha256(body).subarray(28))).toEqual(all.subarray(-4))
  let at = 0
  const take = (n: number) => body.subarray(at, (at += n))
  const u32 = () => take(4).readUInt32BE()
  expect(take(2).readUInt16BE()).toBe(0)
  const hash = take(32)
  const salt = take(16)
  expect(Buffer.from(argon2id(Buffer.from(password), salt, { t: 1, m: 64 * 1024, p: 4, dkLen: 32 }))).toEqual(hash)
  const key = sha256(Buffer.from(password))
  const out = new Map<string, string>()
  for (let n = u32(), i = 0; i < n; i++) {
    const k = take(u32())
    const v = take(u32())
    expect(v.readUInt16BE(0)).toBe(0)
    const ctLen = v.readUInt32BE(2)
    const ct = v.subarray(6, 6 + ctLen)
    expect(v.readUInt32BE(6 + ctLen)).toBe(24)
    const nonce = v.subarray(10 + ctLen)
    out.set(k.toString('hex'), Buffer.from(xchacha20poly1305(key, nonce).decrypt(ct)).toString('hex'))
  }
  expect(at).toBe(body.length)
  return out
}

describe("keystore.exportUser / keystore.importUser in avalanchego's format", () => {
  const fx = { username: 'from-avalanchego', password: FIXTURE_PASSWORD }

  it('imports a user avalanchego exported: each chain gets its own keys back', async () => {
    expect(await ok('/ext/keystore', 'keystore.importUser', { ...fx, user: FIXTURE_USER })).toEqual({})
    expect(await ok('/ext/bc/X', 'avm.listAddresses', fx)).toEqual({ addresses: [EWOQ_X] })
    const k2P = (await ok('/ext/bc/P', 'platform.listAddresses', fx)).addresses as string[]
    expect(k2P).toHaveLength(1)
    expect(k2P[0]).not.toBe(EWOQ_P)
    expect(await ok('/ext/bc/C/avax', 'avax.exportKey', { ...fx, address: EWOQ_ADDRESS })).toEqual({ privateKey: EWOQ_PRIVATE_KEY, privateKeyHex: EWOQ_KEY })
    const k2 = await ok('/ext/bc/C/avax', 'avax.exportKey', { ...fx, address: K2_ETH })
    expect(k2.privateKeyHex).toBe('0x' + K2)
    // P holds key 2 only: the same key C holds second.
    expect(await ok('/ext/bc/P', 'platform.exportKey', { ...fx, address: k2P[0] })).toEqual({ privateKey: k2.privateKey })
    // The imported X key spends on X.
    const sent = await ok('/ext/bc/X', 'avm.send', { ...fx, assetID: 'AVAX', amount: 1_000, to: FRESH_X })
    expect(sent.changeAddr).toBe(EWOQ_X)
    expect(await errorOf('/ext/keystore', 'keystore.importUser', { ...fx, password: 'Not-The-Passphrase-1', user: FIXTURE_USER })).toBe('user already exists: from-avalanchego')
    expect(await errorOf('/ext/keystore', 'keystore.importUser', { username: 'fx2', password: 'Not-The-Passphrase-1', user: FIXTURE_USER })).toBe('incorrect password: user "fx2"')
  })

  it("exports the same database back in avalanchego's format, and it imports again", async () => {
    const exported = await ok('/ext/keystore', 'keystore.exportUser', fx)
    expect(exported.encoding).toBe('hex')
    const pairs = readExport(exported.user, FIXTURE_PASSWORD)
    const expected = new Map(SPEC.entries.map((e) => [Buffer.from(sha256(Buffer.from(e.chain, 'hex'))).toString('hex') + e.inner, e.plaintext]))
    // avm.send above changed no key set: the database is the fixture's, the other chain's pair included.
    expect(new Map([...pairs].sort())).toEqual(new Map([...expected].sort()))
    expect([...pairs.keys()]).toEqual([...pairs.keys()].sort())
    expect(await ok('/ext/keystore', 'keystore.importUser', { username: 'round-trip', password: FIXTURE_PASSWORD, user: exported.user })).toEqual({})
    expect(await ok('/ext/bc/X', 'avm.listAddresses', { username: 'round-trip', password: FIXTURE_PASSWORD })).toEqual({ addresses: [EWOQ_X] })
    expect(await ok('/ext/bc/X', 'avm.exportKey', { username: 'round-trip', password: FIXTURE_PASSWORD, address: EWOQ_X })).toEqual({ privateKey: EWOQ_PRIVATE_KEY })
  })
})

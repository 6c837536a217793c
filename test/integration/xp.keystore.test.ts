/**
 * The keystore-backed X-Chain and P-Chain methods (issue 7): avm.send, avm.export, avm.import,
 * platform.exportAVAX, platform.importAVAX, with plain JSON over HTTP, for a keystore user holding the
 * ewoq key on each chain; round trips with the C-Chain's keystore-backed native.exportNative / native.import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { poll } from '../helpers/chain.js'
import { EWOQ_ADDRESS, EWOQ_C, EWOQ_P, EWOQ_PRIVATE_KEY, EWOQ_X } from '../helpers/constants.js'
import { startTestNode, type RpcAnswer, type TestNode } from '../helpers/testNode.js'

const FRESH_X = 'X-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqljssag'
const X_FEE = 1_000_000n
const auth = { username: 'xp-keystore-user', password: 'Xp-Keystore-Passphrase-9137' }

let tn: TestNode
const post = (path: string, method: string, params: unknown = {}): Promise<RpcAnswer> => tn.api(path, method, params)
async function ok(path: string, method: string, params: unknown = {}): Promise<any> {
  const a = await post(path, method, params)
  expect(a.error, JSON.stringify(a.error)).toBeUndefined()
  return a.result
}
const xBalance = async (address = EWOQ_X): Promise<bigint> => BigInt((await ok('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).balance)
const pBalance = async (): Promise<bigint> => BigInt((await ok('/ext/bc/P', 'platform.getBalance', { addresses: [EWOQ_P] })).unlocked)
const cBalance = async (): Promise<bigint> => BigInt(await ok('/ext/bc/C/rpc', 'eth_getBalance', [EWOQ_ADDRESS, 'latest']))
const xStatus = async (txID: string): Promise<string> => (await ok('/ext/bc/X', 'avm.getTxStatus', { txID })).status
const cStatus = async (txID: string): Promise<string> => (await ok('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID })).status
const until = (check: () => Promise<boolean>): Promise<true> => poll(async () => (await check()) || undefined, 'the status', 5_000)

beforeAll(async () => {
  tn = await startTestNode({ config: { logLevel: 'error', keystoreEnabled: true } })
  expect((await post('/ext/keystore', 'keystore.createUser', auth)).result).toEqual({})
  // Each chain keeps its own key set (avalanchego v1.12.1): the ewoq key goes into C's, X's and P's.
  await ok('/ext/bc/C/avax', 'avax.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })
  await ok('/ext/bc/X', 'avm.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })
  await ok('/ext/bc/P', 'platform.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })
})

afterAll(() => tn?.close())

describe('keystore-backed X-Chain and P-Chain methods', () => {
  it('avm.send moves amount + fee; the change goes back to ewoq', async () => {
    const before = await xBalance()
    const res = await ok('/ext/bc/X', 'avm.send', { ...auth, assetID: 'AVAX', amount: 12_345, to: FRESH_X, memo: 'hi' })
    expect(res.changeAddr).toBe(EWOQ_X)
    expect(await xStatus(res.txID)).toBe('Accepted')
    expect(await xBalance(FRESH_X)).toBe(12_345n)
    expect(await xBalance()).toBe(before - 12_345n - X_FEE)
  })

  it('C->X: native.exportNative (keystore) then avm.import credits X', async () => {
    const amount = 50_000_000n
    const exp = await ok('/ext/bc/C/native', 'native.exportNative', { ...auth, amount: Number(amount), to: EWOQ_X })
    await until(async () => (await cStatus(exp.txID)) === 'Accepted')
    const before = await xBalance()
    const imp = await ok('/ext/bc/X', 'avm.import', { ...auth, sourceChain: 'C', to: EWOQ_X })
    expect(Object.keys(imp)).toEqual(['txID'])
    expect(await xStatus(imp.txID)).toBe('Accepted')
    expect(await xBalance()).toBe(before + amount - X_FEE)
    const again = await post('/ext/bc/X', 'avm.import', { ...auth, sourceChain: 'C', to: EWOQ_X })
    expect(again.error?.message).toMatch(/^problem issuing transaction: /)
  })

  it('X->C: avm.export then native.import credits C', async () => {
    const amount = 40_000_000n
    const before = await xBalance()
    const exp = await ok('/ext/bc/X', 'avm.export', { ...auth, assetID: 'AVAX', amount: Number(amount), to: EWOQ_C })
    expect(exp.changeAddr).toBe(EWOQ_X)
    expect(await xStatus(exp.txID)).toBe('Accepted')
    expect(await xBalance()).toBe(before - amount - X_FEE)
    const utxos = await ok('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding: 'hex' })
    expect(utxos.utxos).toHaveLength(1)
    const cBefore = await cBalance()
    const imp = await ok('/ext/bc/C/native', 'native.import', { ...auth, sourceChain: 'X', to: EWOQ_ADDRESS })
    await until(async () => (await cStatus(imp.txID)) === 'Accepted')
    const gained = (await cBalance()) - cBefore
    // amount (nAVAX) x 1e9 wei, less the import's dynamic fee
    expect(gained > 0n && gained < amount * 1_000_000_000n).toBe(true)
    const again = await post('/ext/bc/C/native', 'native.import', { ...auth, sourceChain: 'X', to: EWOQ_ADDRESS })
    expect(again.error).toBeDefined()
  })

  it('P->X: platform.exportAVAX then avm.import', async () => {
    const amount = 30_000_000n
    const pBefore = await pBalance()
    const exp = await ok('/ext/bc/P', 'platform.exportAVAX', { ...auth, amount: Number(amount), to: EWOQ_X })
    expect(exp.changeAddr).toBe(EWOQ_P)
    expect((await ok('/ext/bc/P', 'platform.getTxStatus', { txID: exp.txID })).status).toBe('Committed')
    const pFee = pBefore - amount - (await pBalance())
    expect(pFee > 0n && pFee < 1_000_000n).toBe(true)
    const before = await xBalance()
    const imp = await ok('/ext/bc/X', 'avm.import', { ...auth, sourceChain: 'P', to: EWOQ_X })
    expect(await xStatus(imp.txID)).toBe('Accepted')
    expect(await xBalance()).toBe(before + amount - X_FEE)
  })

  it('X->P: avm.export then platform.importAVAX; a second import is refused', async () => {
    const amount = 20_000_000n
    const before = await xBalance()
    const exp = await ok('/ext/bc/X', 'avm.export', { ...auth, assetID: 'AVAX', amount: Number(amount), to: EWOQ_P })
    expect(await xBalance()).toBe(before - amount - X_FEE)
    expect(exp.txID).toBeTypeOf('string')
    const pBefore = await pBalance()
    const imp = await ok('/ext/bc/P', 'platform.importAVAX', { ...auth, sourceChain: 'X', to: EWOQ_P })
    expect(imp.changeAddr).toBe(EWOQ_P)
    expect((await ok('/ext/bc/P', 'platform.getTxStatus', { txID: imp.txID })).status).toBe('Committed')
    const gained = (await pBalance()) - pBefore
    expect(gained > amount - 1_000_000n && gained < amount).toBe(true)
    const again = await post('/ext/bc/P', 'platform.importAVAX', { ...auth, sourceChain: 'X', to: EWOQ_P })
    expect(again.error?.message).toBe("couldn't create tx: no spendable funds were found")
  })

  it('errors: wrong password, unknown asset, zero amount, too much', async () => {
    const bad = { ...auth, password: 'Wrong-Passphrase-0000' }
    const send = await post('/ext/bc/X', 'avm.send', { ...bad, assetID: 'AVAX', amount: 1, to: FRESH_X })
    expect(send.error?.message).toBe(`problem retrieving user "${auth.username}": incorrect password: user "${auth.username}"`)
    const imp = await post('/ext/bc/X', 'avm.import', { ...bad, sourceChain: 'C', to: EWOQ_X })
    expect(imp.error?.message).toMatch(/^problem retrieving user .*incorrect password/)
    const pexp = await post('/ext/bc/P', 'platform.exportAVAX', { ...bad, amount: 1, to: EWOQ_X })
    expect(pexp.error?.message).toMatch(/^couldn't create tx: problem retrieving user .*incorrect password/)
    const pimp = await post('/ext/bc/P', 'platform.importAVAX', { ...bad, sourceChain: 'X', to: EWOQ_P })
    expect(pimp.error?.message).toMatch(/^couldn't create tx: problem retrieving user .*incorrect password/)
    expect((await post('/ext/bc/X', 'avm.send', { ...auth, assetID: 'NOPE', amount: 1, to: FRESH_X })).error?.message).toBe("couldn't find asset NOPE")
    expect((await post('/ext/bc/X', 'avm.send', { ...auth, assetID: 'AVAX', amount: 0, to: FRESH_X })).error?.message).toBe('amount must be positive')
    expect((await post('/ext/bc/X', 'avm.export', { ...auth, assetID: 'AVAX', amount: 0, to: EWOQ_C })).error?.message).toBe('amount must be positive')
    expect((await post('/ext/bc/P', 'platform.exportAVAX', { ...auth, amount: 0, to: EWOQ_X })).error?.message).toBe("couldn't create tx: argument 'amount' must be > 0")
    const tooMuch = await post('/ext/bc/X', 'avm.send', { ...auth, assetID: 'AVAX', amount: '18000000000000000000', to: FRESH_X })
    expect(tooMuch.error?.message).toMatch(/^want to spend \d+ of asset \w+ but only have \d+$/)
  })
})

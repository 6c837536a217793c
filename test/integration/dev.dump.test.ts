/**
 * anvil_dumpState and anvil_loadState (issue 15) in anvil's format: a dump, a reset and a load put
 * back balances, code, storage and nonces (viem's test client in anvil mode, across a restart);
 * a dump made by anvil 1.7.1 loads (`cast rpc`, test/fixtures/anvil/README.md); anvil's rules for a
 * load (the higher nonce, the dump's code) and its error for what is not a dump.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestClient, http, publicActions, type Hex } from 'viem'
import { openDatabase } from '../../src/store/db.js'
import { PREFIX } from '../../src/store/keys.js'
import { deploy, iface, send } from '../helpers/chain.js'
import { EWOQ_ADDRESS } from '../helpers/constants.js'
import { castRpc, localChain } from '../helpers/devClients.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const ANVIL_DUMP = readFileSync(join(process.cwd(), 'test/fixtures/anvil/state-dump-1.7.1.hex'), 'utf8').trim()
const FRESH = '0x00000000000000000000000000000000f4e5a001'
const EDITED = '0x00000000000000000000000000000000ed17ed02'
const BOB = '0x00000000000000000000000000000000000b0b03'
const ETHER = 10n ** 18n

let tn: TestNode
beforeAll(async () => {
  tn = await startTestNode()
})
afterAll(() => tn?.close())

const chain = localChain
const decode = (dump: string) => JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString('utf8'))
const tokenBalance = async (node: TestNode, token: string, who: string) =>
  BigInt(await node.call('eth_call', [{ to: token, data: iface('TestToken').encodeFunctionData('balanceOf', [who]) }, 'latest']))

/** What the test compares before the dump and after the load. */
async function picture(node: TestNode, token: string) {
  const get = (m: string, ...p: unknown[]) => node.call(m, [...p, 'latest'])
  return {
    balances: await Promise.all([EWOQ_ADDRESS, FRESH, EDITED, token].map((a) => get('eth_getBalance', a))),
    nonces: await Promise.all([EWOQ_ADDRESS, EDITED, token].map((a) => get('eth_getTransactionCount', a))),
    code: await Promise.all([token, EDITED].map((a) => get('eth_getCode', a))),
    storage: await Promise.all(['0x0', '0x5'].map((slot) => get('eth_getStorageAt', EDITED, slot))),
    tokens: await Promise.all([EWOQ_ADDRESS, BOB].map((a) => tokenBalance(node, token, a))),
  }
}

describe('dump, reset, load', () => {
  it("viem's test client: the load after a reset puts back balances, code, storage and nonces; the chain goes on from them", async () => {
    const node = await startTestNode()
    let again: TestNode | undefined
    try {
      const { address: token } = await deploy(node, 'TestToken', [1000n])
      await send(node, { to: token, data: iface('TestToken').encodeFunctionData('transfer', [BOB, 250n]), gasLimit: 100_000n })
      await send(node, { to: FRESH, value: ETHER })
      await node.call('anvil_setCode', [EDITED, '0x602a60005260206000f3'])
      await node.call('anvil_setStorageAt', [EDITED, '0x5', `0x${'00'.repeat(31)}2a`])
      await node.call('anvil_setNonce', [EDITED, '0x7'])
      await node.call('anvil_setBalance', [EDITED, '0x1234'])
      const before = await picture(node, token)
      expect(before.tokens).toEqual([750n, 250n])

      // The preimages are on disk: a restarted node dumps the same accounts.
      await node.stop()
      again = await startTestNode({ dataDir: node.dataDir })
      const test = createTestClient({ mode: 'anvil', chain: chain(again.url), transport: http(again.url) }).extend(publicActions)
      const dump = await test.dumpState()
      const state = decode(dump)
      expect(state.best_block_number).toBe(Number(await again.call('eth_blockNumber', [])))
      expect(state.blocks).toEqual([])
      const mine = state.accounts[token.toLowerCase()]
      expect(mine.code).toBe(before.code[0])
      // totalSupply and the two holders' balances, each as eth_getStorageAt reads it.
      expect(Object.keys(mine.storage)).toHaveLength(3)
      for (const [slot, value] of Object.entries(mine.storage)) expect(await again.call('eth_getStorageAt', [token, slot, 'latest'])).toBe(value)
      expect(state.accounts[EWOQ_ADDRESS.toLowerCase()].nonce).toBe(3)
      expect(state.accounts[EDITED]).toEqual({ nonce: 7, balance: '0x1234', code: '0x602a60005260206000f3', storage: { [`0x${'00'.repeat(31)}05`]: `0x${'00'.repeat(31)}2a` } })

      // viem's reset() sends a `forking` object, which anvil too refuses without a fork: the raw name.
      expect(await again.call('anvil_reset', [])).toBeNull()
      expect(await again.call('eth_getCode', [token, 'latest'])).toBe('0x')
      expect(BigInt(await again.call('eth_getBalance', [FRESH, 'latest']))).toBe(0n)
      await test.loadState({ state: dump })
      expect(await picture(again, token)).toEqual(before)

      // The next block builds on the loaded state: ewoq's nonce goes on, the token moves.
      await send(again, { to: token, data: iface('TestToken').encodeFunctionData('transfer', [BOB, 50n]), gasLimit: 100_000n })
      expect(await tokenBalance(again, token, BOB)).toBe(300n)
      expect(await again.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])).toBe('0x4')
    } finally {
      await again?.close()
      await node.close()
    }
  })
})

describe('anvil_dumpState', () => {
  it('refuses, with the count, a state whose keys it cannot name (a data directory from before preimages were recorded)', async () => {
    const node = await startTestNode()
    try {
      await node.call('anvil_setStorageAt', [FRESH, '0x1', `0x${'00'.repeat(31)}01`])
      await node.stop()
      const db = await openDatabase(node.dataDir)
      await db.clear({ gte: Uint8Array.of(PREFIX.preimage), lt: Uint8Array.of(PREFIX.preimage + 1) })
      await db.close()
      const again = await startTestNode({ dataDir: node.dataDir })
      try {
        const answer = await again.rpc('anvil_dumpState', [])
        expect(answer.error?.code).toBe(-32000)
        expect(answer.error?.message).toMatch(/^the state holds 2 accounts or slots whose address or slot this node did not record/)
      } finally {
        await again.close()
      }
    } finally {
      await node.close()
    }
  })
})

describe('anvil_loadState', () => {
  it('cast rpc: a dump made by anvil 1.7.1 loads its accounts', async () => {
    expect(await castRpc(tn.url, 'anvil_loadState', ANVIL_DUMP)).toBe('true')
    const contract = '0x00000000000000000000000000000000c0de0001'
    expect(await tn.call('eth_getCode', [contract, 'latest'])).toBe('0x602a60005260206000f3')
    expect(await tn.call('eth_getTransactionCount', [contract, 'latest'])).toBe('0x5')
    expect(await tn.call('eth_getBalance', [contract, 'latest'])).toBe('0x7b')
    expect(await tn.call('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(`0x${'00'.repeat(31)}2a`)
    expect(await tn.call('eth_getStorageAt', [contract, '0x290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563', 'latest'])).toBe(`0xff${'00'.repeat(30)}01`)
    expect(await tn.call('eth_call', [{ to: contract }, 'latest'])).toBe(`0x${'00'.repeat(31)}2a`)
    const holder = '0x00000000000000000000000000000000ba1a0002'
    expect(BigInt(await tn.call('eth_getBalance', [holder, 'latest']))).toBe(10n * ETHER)
    expect(await tn.call('eth_getTransactionCount', [holder, 'latest'])).toBe('0x3')
    // This node's dump writes those accounts as anvil's did.
    const ours = decode(JSON.parse(await castRpc(tn.url, 'anvil_dumpState')))
    const anvils = decode(ANVIL_DUMP)
    for (const a of [contract, holder]) expect(ours.accounts[a]).toEqual(anvils.accounts[a])
  })

  it("anvil's rules: the higher nonce stays, the dump's code replaces (none if empty), other slots stay; plain JSON loads too", async () => {
    const addr = '0x00000000000000000000000000000000a0a0a004'
    await tn.call('anvil_setNonce', [addr, '0x9'])
    await tn.call('anvil_setCode', [addr, '0x6000'])
    await tn.call('anvil_setStorageAt', [addr, '0x1', `0x${'00'.repeat(31)}01`])
    const json = { accounts: { [addr]: { nonce: 3, balance: '0x10', code: '0x', storage: { '0x2': '0x22' } } } }
    expect(await tn.call('anvil_loadState', [`0x${Buffer.from(JSON.stringify(json)).toString('hex')}`])).toBe(true)
    expect(await tn.call('eth_getTransactionCount', [addr, 'latest'])).toBe('0x9')
    expect(await tn.call('eth_getBalance', [addr, 'latest'])).toBe('0x10')
    expect(await tn.call('eth_getCode', [addr, 'latest'])).toBe('0x')
    expect(await tn.call('eth_getStorageAt', [addr, '0x1', 'latest'])).toBe(`0x${'00'.repeat(31)}01`)
    expect(await tn.call('eth_getStorageAt', [addr, '0x2', 'latest'])).toBe(`0x${'00'.repeat(31)}22`)
    json.accounts[addr]!.nonce = 12
    expect(await tn.call('anvil_loadState', [`0x${gzipSync(JSON.stringify(json)).toString('hex')}`])).toBe(true)
    expect(await tn.call('eth_getTransactionCount', [addr, 'latest'])).toBe('0xc')
  })

  it('what is not a dump is -32602 Failed to decode state dump, and changes nothing', async () => {
    const addr = '0x00000000000000000000000000000000a0a0a005'
    const partlyBad = { accounts: { [addr]: { nonce: 1, balance: '0x5', code: '0x', storage: {} }, '0x1234': { nonce: 0, balance: '0x0', code: '0x', storage: {} } } }
    for (const bad of ['0x00', `0x${gzipSync('{"accounts": 5}').toString('hex')}`, `0x${Buffer.from(JSON.stringify(partlyBad)).toString('hex')}` as Hex]) {
      expect((await tn.rpc('anvil_loadState', [bad])).error).toEqual({ code: -32602, message: 'Failed to decode state dump' })
    }
    expect(await tn.call('eth_getBalance', [addr, 'latest'])).toBe('0x0')
  })
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseNodeConfig, readChainConfigFile } from '../../src/config.js'
import { DEFAULT_ETH_APIS, ETH_API_NAMES, LEGACY_ETH_API_NAMES, resolveEthApis } from '../../src/ethApiNames.js'
import { createNode } from '../../src/node.js'
import { methodNames, startTestNode, type TestNode } from '../helpers/testNode.js'
import { WsClient } from '../helpers/transport.js'

/*
 * The chain config's `eth-apis` switches coreth's services on and off (graft/coreth/plugin/evm/vm.go
 * attachEthService); a method of a service that is off answers -32601 as geth does.
 */

/** Which service serves each method, as coreth registers them (the spec this test holds the node to). */
const EXPECTED: Record<string, string[]> = {
  eth: ['eth_coinbase'],
  'eth-filter': ['eth_getLogs', 'eth_newFilter', 'eth_newBlockFilter', 'eth_newPendingTransactionFilter', 'eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter'],
  net: ['net_version', 'net_listening', 'net_peerCount'],
  web3: ['web3_clientVersion', 'web3_sha3'],
  dev: ['evm_snapshot', 'evm_revert', 'anvil_reset', 'anvil_setBalance', 'hardhat_setBalance', 'anvil_setStorageAt'],
  'internal-eth': ['eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_baseFee', 'eth_blobBaseFee', 'eth_feeHistory', 'eth_syncing'],
  'internal-blockchain': [
    'eth_chainId',
    'eth_blockNumber',
    'eth_getBalance',
    'eth_getProof',
    'eth_getHeaderByNumber',
    'eth_getHeaderByHash',
    'eth_getBlockByNumber',
    'eth_getBlockByHash',
    'eth_getUncleByBlockNumberAndIndex',
    'eth_getUncleByBlockHashAndIndex',
    'eth_getUncleCountByBlockNumber',
    'eth_getUncleCountByBlockHash',
    'eth_getCode',
    'eth_getStorageAt',
    'eth_getStorageValues',
    'eth_getBlockReceipts',
    'eth_call',
    'eth_estimateGas',
    'eth_createAccessList',
    'eth_getChainConfig',
  ],
  'internal-transaction': [
    'eth_getBlockTransactionCountByNumber',
    'eth_getBlockTransactionCountByHash',
    'eth_getTransactionByBlockNumberAndIndex',
    'eth_getTransactionByBlockHashAndIndex',
    'eth_getTransactionCount',
    'eth_getTransactionByHash',
    'eth_getTransactionReceipt',
    'eth_sendRawTransaction',
    'eth_fillTransaction',
  ],
  'internal-tx-pool': ['txpool_content', 'txpool_contentFrom', 'txpool_status', 'txpool_inspect'],
  'internal-debug': ['debug_getRawHeader', 'debug_getRawBlock', 'debug_getRawReceipts', 'debug_getRawTransaction'],
  'internal-account': [],
  'internal-personal': [
    'personal_listAccounts',
    'personal_newAccount',
    'personal_importRawKey',
    'personal_unlockAccount',
    'personal_lockAccount',
    'personal_sendTransaction',
    'personal_signTransaction',
    'personal_sign',
    'personal_ecRecover',
  ],
}
/** Served whatever the list says (geth answers any `<ns>_unsubscribe`; eth_accounts is `[]` without internal-account). */
const ALWAYS = ['eth_unsubscribe', 'eth_accounts']
/** coreth's TransactionAPI signing methods: internal-transaction, and (docs/SECURITY.md, E9) internal-account. */
const SIGNING = ['eth_sign', 'eth_signTransaction', 'eth_sendTransaction']

const notAvailable = (method: string) => ({ code: -32601, message: `the method ${method} does not exist/is not available` })

describe('eth-apis: which methods each coreth service enables', () => {
  let node: TestNode
  let table: (names: readonly string[]) => string[]
  beforeAll(async () => {
    node = await startTestNode()
    table = (names) => methodNames(node.node, { 'eth-apis': [...names] }).sort()
  })
  afterAll(() => node.close())

  it("each service alone serves its methods and no other service's", () => {
    const everything = Object.values(EXPECTED).flat()
    for (const service of ETH_API_NAMES) {
      const served = table([service])
      const own = EXPECTED[service] ?? []
      for (const m of own) expect(served, `${service} serves ${m}`).toContain(m)
      for (const m of everything.filter((x) => !own.includes(x))) expect(served, `${service} does not serve ${m}`).not.toContain(m)
      for (const m of ALWAYS) expect(served).toContain(m)
      for (const m of SIGNING) expect(served).not.toContain(m)
    }
  })

  it("eth_subscribe belongs to eth-filter; without it geth's rpc layer still answers (no such subscription)", () => {
    expect(table(['eth-filter'])).toContain('eth_subscribe')
    expect(table(['eth'])).toContain('eth_subscribe')
  })

  it('eth_sign, eth_signTransaction and eth_sendTransaction need internal-transaction and internal-account', () => {
    for (const m of SIGNING) {
      expect(table(['internal-transaction'])).not.toContain(m)
      expect(table(['internal-account'])).not.toContain(m)
      expect(table(['internal-transaction', 'internal-account'])).toContain(m)
    }
  })

  it('debug_trace* belong to debug-tracer, debug_getRaw* to internal-debug', () => {
    const all = table(ETH_API_NAMES)
    const traces = all.filter((m) => m.startsWith('debug_trace'))
    for (const m of traces) {
      expect(table(['debug-tracer'])).toContain(m)
      expect(table(['internal-debug', 'debug'])).not.toContain(m)
    }
    expect(table(['debug-tracer'])).not.toContain('debug_getRawBlock')
  })

  it("the default list is coreth's plus internal-tx-pool, debug-tracer, internal-debug and this node's dev", () => {
    expect(DEFAULT_ETH_APIS).toEqual(['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction', 'internal-tx-pool', 'debug-tracer', 'internal-debug', 'dev'])
    expect(parseNodeConfig({}).chain['eth-apis']).toEqual(DEFAULT_ETH_APIS)
    const served = table(DEFAULT_ETH_APIS)
    expect(served.filter((m) => m.startsWith('personal_'))).toEqual([])
    // eth_sendTransaction is served for impersonated senders (dev with internal-transaction, docs/DEV.md); no keystore signing.
    for (const m of SIGNING) expect(served.includes(m)).toBe(m === 'eth_sendTransaction')
    expect(table(['internal-transaction', 'dev'])).toContain('eth_sendTransaction')
    expect(served).toContain('txpool_status')
    expect(served).toContain('debug_getRawHeader')
  })

  it('legacy names are aliases of the current ones', () => {
    for (const [legacy, current] of Object.entries(LEGACY_ETH_API_NAMES)) {
      expect(table([legacy]), legacy).toEqual(table([current]))
    }
    expect([...resolveEthApis(['public-eth', 'eth', 'private-debug', 'public-debug'])]).toEqual(['eth', 'debug'])
  })

  it('an unknown name is refused', () => {
    expect(() => resolveEthApis(['eth', 'personal'])).toThrow(/API service "personal" not found/)
  })
})

describe('eth-apis over the wire', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'eth-apis': ['eth', 'net'] } })
  })
  afterAll(() => node.close())

  it("a method of a disabled service answers -32601 with geth's text", async () => {
    for (const m of ['eth_chainId', 'eth_blockNumber', 'eth_gasPrice', 'eth_getLogs', 'eth_sendRawTransaction', 'web3_clientVersion', 'txpool_status', 'debug_getRawHeader', 'personal_listAccounts']) {
      expect((await node.rpc(m, [])).error, m).toEqual(notAvailable(m))
    }
    expect(await node.call('eth_coinbase')).toBe('0x0100000000000000000000000000000000000000')
    expect(await node.call('net_version')).toBe('1')
    expect(await node.call('eth_accounts')).toEqual([])
  })

  it('eth_subscribe without eth-filter: no subscription in the eth namespace (WS), notifications not supported (HTTP)', async () => {
    expect((await node.rpc('eth_subscribe', ['newHeads'])).error).toEqual({ code: -32601, message: 'notifications not supported' })
    const ws = await WsClient.connect(node.wsUrl)
    try {
      expect((await ws.rpc('eth_subscribe', ['newHeads'])).error).toEqual({ code: -32601, message: 'no "newHeads" subscription in eth namespace' })
      expect((await ws.rpc('eth_chainId')).error).toEqual(notAvailable('eth_chainId'))
    } finally {
      await ws.close()
    }
  })

  it('legacy names work in the chain config', async () => {
    const legacy = await startTestNode({ chain: { 'eth-apis': ['public-eth', 'internal-public-blockchain', 'internal-private-personal'] } })
    try {
      expect(await legacy.call('eth_chainId')).toBe('0xa868')
      expect(await legacy.call('eth_coinbase')).toBe('0x0100000000000000000000000000000000000000')
      expect(await legacy.call('personal_listAccounts')).toEqual([])
      expect((await legacy.rpc('eth_gasPrice')).error).toEqual(notAvailable('eth_gasPrice'))
      expect((await legacy.rpc('net_version')).error).toEqual(notAvailable('net_version'))
    } finally {
      await legacy.close()
    }
  })
})

describe('eth-apis: an unknown name stops startup, naming it', () => {
  it('in the chain config file and in a config object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cchain-ethapis-'))
    try {
      const file = join(dir, 'config.json')
      writeFileSync(file, JSON.stringify({ 'eth-apis': ['eth', 'internal-personl'] }))
      expect(() => readChainConfigFile(file)).toThrow(ConfigError)
      expect(() => readChainConfigFile(file)).toThrow(/eth-apis.*API service "internal-personl" not found/)
      await expect(startTestNode({ chain: { 'eth-apis': ['warp'] } })).rejects.toThrow(/API service "warp" not found/)
      // createNode itself refuses an unchecked config before opening the database.
      const config = parseNodeConfig({ dataDir: join(dir, 'data'), httpPort: 0, logLevel: 'silent' })
      const bad = { ...config, chain: { ...config.chain, 'eth-apis': ['eth', 'bogus'] } }
      await expect(createNode(bad, { log: pino({ level: 'silent' }) })).rejects.toThrow(/eth-apis: API service "bogus" not found/)
      const ok = await createNode(config, { log: pino({ level: 'silent' }) })
      await ok.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

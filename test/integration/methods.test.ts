import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ETH_API_NAMES } from '../../src/ethApiNames.js'
import { methodNames, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Walk the assembled method table and fail on a method without a case.
 * Each method names the integration test file that exercises it; that file must call it by name.
 * A new method fails here until it gets a test and an entry.
 */
const COVERAGE: Record<string, string> = {
  hardhat_dumpState: 'dev.extras.test.ts',
  hardhat_loadState: 'dev.extras.test.ts',
  hardhat_autoImpersonateAccount: 'dev.extras.test.ts',
  hardhat_dropAllTransactions: 'dev.extras.test.ts',
  evm_setAccountNonce: 'dev.extras.test.ts',
  eth_sendUnsignedTransaction: 'dev.extras.test.ts',
  anvil_setLoggingEnabled: 'dev.extras.test.ts',
  hardhat_setLoggingEnabled: 'dev.extras.test.ts',
  evm_snapshot: 'dev.snapshots.test.ts',
  anvil_snapshot: 'dev.snapshots.test.ts',
  evm_revert: 'dev.snapshots.test.ts',
  anvil_revert: 'dev.snapshots.test.ts',
  anvil_reset: 'dev.snapshots.test.ts',
  hardhat_reset: 'dev.snapshots.test.ts',
  anvil_setBalance: 'dev.snapshots.test.ts',
  hardhat_setBalance: 'dev.snapshots.test.ts',
  anvil_addBalance: 'dev.snapshots.test.ts',
  anvil_setCode: 'dev.snapshots.test.ts',
  hardhat_setCode: 'dev.snapshots.test.ts',
  anvil_setNonce: 'dev.dump.test.ts',
  hardhat_setNonce: 'dev.snapshots.test.ts',
  anvil_setStorageAt: 'dev.dump.test.ts',
  hardhat_setStorageAt: 'dev.snapshots.test.ts',
  evm_mine: 'dev.accounts.test.ts',
  anvil_mine: 'dev.mining.test.ts',
  hardhat_mine: 'dev.mining.test.ts',
  evm_setAutomine: 'dev.accounts.test.ts',
  anvil_setAutomine: 'dev.mining.test.ts',
  anvil_getAutomine: 'dev.mining.test.ts',
  hardhat_getAutomine: 'dev.mining.test.ts',
  evm_setIntervalMining: 'dev.mining.test.ts',
  anvil_setIntervalMining: 'dev.mining.test.ts',
  anvil_getIntervalMining: 'dev.mining.test.ts',
  evm_increaseTime: 'dev.time.test.ts',
  anvil_increaseTime: 'dev.time.test.ts',
  evm_setNextBlockTimestamp: 'dev.time.test.ts',
  anvil_setNextBlockTimestamp: 'dev.time.test.ts',
  evm_setTime: 'dev.time.test.ts',
  anvil_setTime: 'dev.time.test.ts',
  anvil_setBlockTimestampInterval: 'dev.time.test.ts',
  anvil_removeBlockTimestampInterval: 'dev.time.test.ts',
  anvil_setCoinbase: 'dev.mining.test.ts',
  hardhat_setCoinbase: 'dev.mining.test.ts',
  anvil_setNextBlockBaseFeePerGas: 'dev.mining.test.ts',
  hardhat_setNextBlockBaseFeePerGas: 'dev.mining.test.ts',
  evm_setBlockGasLimit: 'dev.mining.test.ts',
  anvil_setBlockGasLimit: 'dev.mining.test.ts',
  anvil_setMinGasPrice: 'dev.mining.test.ts',
  hardhat_setMinGasPrice: 'dev.mining.test.ts',
  eth_subscribe: 'eth.subscriptions.test.ts',
  eth_unsubscribe: 'eth.subscriptions.test.ts',
  eth_getLogs: 'eth.logs.test.ts',
  eth_simulateV1: 'eth.simulate.test.ts',
  eth_blobBaseFee: 'eth.fees.test.ts',
  txpool_content: 'txpool.debug.test.ts',
  txpool_contentFrom: 'txpool.debug.test.ts',
  txpool_status: 'txpool.debug.test.ts',
  txpool_inspect: 'txpool.debug.test.ts',
  debug_getRawHeader: 'txpool.debug.test.ts',
  debug_getRawBlock: 'txpool.debug.test.ts',
  debug_getRawReceipts: 'txpool.debug.test.ts',
  debug_getRawTransaction: 'txpool.debug.test.ts',
  debug_traceTransaction: 'debug.trace.test.ts',
  debug_traceCall: 'debug.trace.test.ts',
  debug_traceBlockByNumber: 'debug.trace.test.ts',
  debug_traceBlockByHash: 'debug.trace.test.ts',
  eth_newFilter: 'eth.logs.test.ts',
  eth_newBlockFilter: 'eth.logs.test.ts',
  eth_newPendingTransactionFilter: 'eth.logs.test.ts',
  eth_getFilterChanges: 'eth.logs.test.ts',
  eth_getFilterLogs: 'eth.logs.test.ts',
  eth_uninstallFilter: 'eth.logs.test.ts',
  eth_chainId: 'eth.chain.test.ts',
  eth_syncing: 'eth.chain.test.ts',
  eth_coinbase: 'eth.chain.test.ts',
  eth_accounts: 'eth.chain.test.ts',
  eth_getChainConfig: 'eth.chain.test.ts',
  net_version: 'eth.chain.test.ts',
  net_listening: 'eth.chain.test.ts',
  net_peerCount: 'eth.chain.test.ts',
  web3_clientVersion: 'eth.chain.test.ts',
  web3_sha3: 'eth.chain.test.ts',
  eth_blockNumber: 'eth.blocks.test.ts',
  eth_getBlockByNumber: 'eth.blocks.test.ts',
  eth_getBlockByHash: 'eth.blocks.test.ts',
  eth_getHeaderByNumber: 'eth.blocks.test.ts',
  eth_getHeaderByHash: 'eth.blocks.test.ts',
  eth_getBlockTransactionCountByNumber: 'eth.blocks.test.ts',
  eth_getBlockTransactionCountByHash: 'eth.blocks.test.ts',
  eth_getTransactionByBlockNumberAndIndex: 'eth.blocks.test.ts',
  eth_getTransactionByBlockHashAndIndex: 'eth.blocks.test.ts',
  eth_getBlockReceipts: 'eth.blocks.test.ts',
  eth_getUncleCountByBlockNumber: 'eth.blocks.test.ts',
  eth_getUncleCountByBlockHash: 'eth.blocks.test.ts',
  eth_getUncleByBlockNumberAndIndex: 'eth.blocks.test.ts',
  eth_getUncleByBlockHashAndIndex: 'eth.blocks.test.ts',
  eth_getBalance: 'eth.state.test.ts',
  eth_getTransactionCount: 'eth.state.test.ts',
  eth_getCode: 'eth.state.test.ts',
  eth_getStorageAt: 'eth.state.test.ts',
  eth_getStorageValues: 'eth.state.test.ts',
  eth_getProof: 'eth.proof.test.ts',
  eth_call: 'eth.call.test.ts',
  eth_estimateGas: 'eth.call.test.ts',
  eth_createAccessList: 'eth.call.test.ts',
  eth_sendRawTransaction: 'eth.transactions.test.ts',
  eth_getRawTransactionByHash: 'geth.edges.test.ts',
  eth_getRawTransactionByBlockHashAndIndex: 'geth.edges.test.ts',
  eth_getRawTransactionByBlockNumberAndIndex: 'geth.edges.test.ts',
  eth_getTransactionByHash: 'eth.transactions.test.ts',
  eth_getTransactionReceipt: 'eth.transactions.test.ts',
  eth_fillTransaction: 'eth.transactions.test.ts',
  eth_gasPrice: 'eth.fees.test.ts',
  eth_maxPriorityFeePerGas: 'eth.fees.test.ts',
  eth_baseFee: 'eth.fees.test.ts',
  eth_feeHistory: 'eth.fees.test.ts',
  eth_suggestPriceOptions: 'helicon.fees.test.ts',
  eth_callDetailed: 'eth.call.test.ts',
  personal_listAccounts: 'personal.test.ts',
  personal_newAccount: 'personal.test.ts',
  personal_importRawKey: 'personal.test.ts',
  personal_unlockAccount: 'personal.test.ts',
  personal_lockAccount: 'personal.test.ts',
  personal_sendTransaction: 'personal.test.ts',
  personal_signTransaction: 'personal.test.ts',
  personal_sign: 'personal.test.ts',
  personal_ecRecover: 'personal.test.ts',
  eth_sign: 'personal.test.ts',
  eth_signTransaction: 'personal.test.ts',
  eth_sendTransaction: 'personal.test.ts',
  anvil_impersonateAccount: 'dev.accounts.test.ts',
  hardhat_impersonateAccount: 'dev.accounts.test.ts',
  anvil_stopImpersonatingAccount: 'dev.accounts.test.ts',
  hardhat_stopImpersonatingAccount: 'dev.accounts.test.ts',
  anvil_autoImpersonateAccount: 'dev.accounts.test.ts',
  anvil_dropTransaction: 'dev.accounts.test.ts',
  hardhat_dropTransaction: 'dev.accounts.test.ts',
  anvil_dropAllTransactions: 'dev.accounts.test.ts',
  anvil_nodeInfo: 'dev.accounts.test.ts',
  anvil_metadata: 'dev.accounts.test.ts',
  hardhat_metadata: 'dev.accounts.test.ts',
  anvil_dumpState: 'dev.dump.test.ts',
  anvil_loadState: 'dev.dump.test.ts',
}

/** The methods issue 2 requires (its "Methods" list). */
const REQUIRED = [
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_sendRawTransaction',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getHeaderByNumber',
  'eth_getHeaderByHash',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_syncing',
  'eth_accounts',
  'eth_coinbase',
  'eth_baseFee',
  'eth_getChainConfig',
  'net_version',
  'net_listening',
  'net_peerCount',
  'web3_clientVersion',
  'web3_sha3',
]

/*
 * The avalanchego-style (gorilla) methods the walk above does not see, as they are added: each names the
 * test file that calls it, and the node must serve it at `path` (any answer but gorilla's `can't find method`).
 */
const GORILLA_COVERAGE: Record<string, { path: string; file: string }> = {
  'avm.importKey': { path: '/ext/bc/X', file: 'keystore.xp.test.ts' },
  'avm.exportKey': { path: '/ext/bc/X', file: 'keystore.xp.test.ts' },
  'avm.listAddresses': { path: '/ext/bc/X', file: 'keystore.xp.test.ts' },
  'avm.createAddress': { path: '/ext/bc/X', file: 'keystore.xp.test.ts' },
  'platform.importKey': { path: '/ext/bc/P', file: 'keystore.xp.test.ts' },
  'platform.exportKey': { path: '/ext/bc/P', file: 'keystore.xp.test.ts' },
  'platform.listAddresses': { path: '/ext/bc/P', file: 'keystore.xp.test.ts' },
  'platform.createAddress': { path: '/ext/bc/P', file: 'keystore.xp.test.ts' },
  'platform.validatedBy': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'platform.validates': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'platform.getValidatorsAt': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'platform.getCurrentValidators': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'platform.getSubnet': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'platform.getSubnets': { path: '/ext/bc/P', file: 'warp.api.test.ts' },
  'keystore.exportUser': { path: '/ext/keystore', file: 'keystore.xp.test.ts' },
  'keystore.importUser': { path: '/ext/keystore', file: 'keystore.xp.test.ts' },
}

describe('the assembled method table', () => {
  let node: TestNode
  let names: string[]
  beforeAll(async () => {
    // Every eth-apis service on (personal_ and the signing methods are off by default), so the walk sees every method.
    node = await startTestNode({ chain: { 'eth-apis': [...ETH_API_NAMES] } })
    names = methodNames(node.node).sort()
  })
  afterAll(() => node.close())

  it('every served method has a test case listed here, in a file that calls it', () => {
    const missing = names.filter((n) => COVERAGE[n] === undefined)
    expect(missing, `methods without a test case: add a test and a COVERAGE entry`).toEqual([])
    for (const name of names) {
      const source = readFileSync(join(import.meta.dirname, COVERAGE[name]!), 'utf8')
      expect(source.includes(`'${name}'`) || source.includes(`"method":"${name}"`), `${COVERAGE[name]} does not call ${name}`).toBe(true)
    }
  })

  it('lists no method the node does not serve', () => {
    expect(Object.keys(COVERAGE).filter((n) => !names.includes(n))).toEqual([])
  })

  it('serves every method issue 2 requires, over HTTP', async () => {
    expect(REQUIRED.filter((n) => !names.includes(n))).toEqual([])
    for (const name of names) {
      const r = await node.rpc(name, [])
      // geth answers eth_subscribe over HTTP with -32601 "notifications not supported" (rpc/handler.go).
      if (name === 'eth_subscribe') expect(r.error).toEqual({ code: -32601, message: 'notifications not supported' })
      else expect(r.error?.code, name).not.toBe(-32601)
    }
  })
})

describe('the gorilla methods listed in GORILLA_COVERAGE', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ config: { keystoreEnabled: true } })
  })
  afterAll(() => node.close())

  it('are served, each by a test file that calls it', async () => {
    for (const [name, { path, file }] of Object.entries(GORILLA_COVERAGE)) {
      const source = readFileSync(join(import.meta.dirname, file), 'utf8')
      expect(source.includes(`'${name}'`), `${file} does not call ${name}`).toBe(true)
      const r = await node.api(path, name, {})
      expect(r.error?.message ?? '', name).not.toMatch(/can't find method/)
    }
  })
})

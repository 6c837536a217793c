import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { send } from '../helpers/chain.js'
import { GRANITE, startTestNode, type TestNode } from '../helpers/testNode.js'
import { loadVectors, SPEC_METHODS, validateResult, type Exchange, type Vector } from './openrpc.js'

/*
 * Replays the recorded geth vectors (test/fixtures/execution-apis/execution-apis-tests) that do not
 * depend on the hive test chain. Each vector is decided below, by name:
 *   exact  — the answer must equal geth's (result deep-equal; error code and message);
 *   schema — the request is meaningful here but its answer depends on chain contents: the result
 *            must validate against the method's OpenRPC result schema;
 *   absent — a method the node does not serve: the answer must be -32601 (once served, decide again);
 *   skip   — with the reason in the test's name.
 * Any other -32601 answer fails.
 */

type Mode = { mode: 'exact' } | { mode: 'schema' } | { mode: 'absent'; reason: string } | { mode: 'skip'; reason: string }
const exact: Mode = { mode: 'exact' }
const schema: Mode = { mode: 'schema' }
const absent = (reason: string): Mode => ({ mode: 'absent', reason })
const skip = (reason: string): Mode => ({ mode: 'skip', reason })

// Reasons shared by groups of vectors.
const HIVE_HASH = 'names a block or transaction hash of the hive test chain'
const HIVE_FUNDS = 'the sender is funded only on the hive test chain (eth_call/estimate with fees checks its balance)'
const HIVE_SIGNED = 'signed for the hive chain ID 0xc72dd9d5e883e (rejected here as a wrong-chain transaction)'
const HIVE_BLOCKNUM = 'a fork-boundary block number of the hive chain; block shapes are covered by schema.test.ts'
const NO_BLOBS = 'blob transactions (EIP-4844 type 3) and their fields do not exist on the C-Chain'
const NO_7702 = 'EIP-7702 set-code delegations are not active on the C-Chain'
const SIM_BASEFEE = "the base fee in the message is the hive chain's EIP-1559 value; validation here computes ACP-176's"
const CORETH_NATIVE_ASSET =
  "0x0100…0000 is coreth's deprecated native-asset precompile on the C-Chain (a call to it reverts; eth_simulateV1 can move it): coreth's rule wins (test/integration/evm.rules.test.ts, docs/PROJECTS.md)"
const SIM_TIME = "block times relative to the hive chain's head time (0x21c); this chain's head is at wall-clock time"

/** Decision per vector name (<method>/<case>); a prefix ending in '/' decides a whole method. */
const DECISIONS: [string, Mode][] = [
  // debug_getRaw*: parameter errors are chain-independent; contents are the hive chain's.
  ['debug_getRawBlock/get-invalid-number', exact],
  ['debug_getRawBlock/', schema],
  ['debug_getRawHeader/get-invalid-number', exact],
  ['debug_getRawHeader/', schema],
  ['debug_getRawReceipts/get-invalid-number', exact],
  ['debug_getRawReceipts/get-genesis', exact], // genesis has no transactions: []
  ['debug_getRawReceipts/', schema],
  ['debug_getRawTransaction/get-invalid-hash', exact],
  ['debug_getRawTransaction/get-tx', skip(HIVE_HASH)],
  ['debug_traceBlockByHash/trace-block-not-found', exact],
  ['debug_traceBlockByHash/', skip(HIVE_HASH)],
  ['debug_traceBlockByNumber/trace-block-invalid-number', exact],
  ['debug_traceBlockByNumber/trace-genesis', exact],
  ['debug_traceBlockByNumber/', schema], // blocks 0x1 and 0x2 exist here (transfers): shape only
  ['debug_traceTransaction/trace-unknown-tx', exact],
  ['debug_traceTransaction/', skip(HIVE_HASH)],
  ['eth_baseFee/', schema],
  ['eth_blobBaseFee/', skip(NO_BLOBS)],
  ['eth_blockNumber/', schema],
  // eth_call: contracts and balances of the hive chain; calls to code-less accounts still answer "0x".
  ['eth_call/call-callenv-options-eip1559', skip(HIVE_FUNDS)],
  ['eth_call/call-revert-abi-error', skip('the reverting contract exists only on the hive chain (reverts: schema.test.ts, eth.call tests)')],
  ['eth_call/call-revert-abi-panic', skip('the reverting contract exists only on the hive chain (reverts: schema.test.ts, eth.call tests)')],
  ['eth_call/call-eip7702-delegation', skip(NO_7702)],
  ['eth_call/', schema],
  ['eth_capabilities/', absent('eth_capabilities (routing capabilities for RPC routers) is not served by this node')],
  ['eth_chainId/', schema], // chain-specific value: shape only
  ['eth_config/', absent('eth_config (EIP-7910 fork configuration) is not served by this node')],
  ['eth_createAccessList/create-al-abi-revert', schema],
  ['eth_createAccessList/', skip(HIVE_FUNDS)],
  ['eth_estimateGas/estimate-simple-transfer', skip(CORETH_NATIVE_ASSET)], // a transfer to 0x0100…0000, an empty account on Ethereum
  ['eth_estimateGas/estimate-with-eip4844', skip(NO_BLOBS)],
  ['eth_estimateGas/estimate-with-eip7702', skip(NO_7702)],
  ['eth_estimateGas/', schema], // speconly
  ['eth_feeHistory/', skip('newest block 0x1b of the hive chain; eth_feeHistory shapes are covered by schema.test.ts')],
  ['eth_getBalance/get-balance-unknown-account', exact],
  ['eth_getBalance/get-balance-blockhash', skip(HIVE_HASH)],
  ['eth_getBalance/', schema],
  ['eth_getBlockByHash/get-block-by-empty-hash', exact],
  ['eth_getBlockByHash/get-block-by-notfound-hash', exact],
  ['eth_getBlockByHash/', skip(HIVE_HASH)],
  ['eth_getBlockByNumber/get-block-notfound', exact], // 0x3e8 is beyond this chain's head
  ['eth_getBlockByNumber/get-genesis', schema],
  ['eth_getBlockByNumber/get-latest', schema],
  ['eth_getBlockByNumber/get-safe', schema],
  ['eth_getBlockByNumber/get-finalized', schema],
  ['eth_getBlockByNumber/', skip(HIVE_BLOCKNUM)],
  ['eth_getBlockReceipts/get-block-receipts-0', exact],
  ['eth_getBlockReceipts/get-block-receipts-earliest', exact],
  ['eth_getBlockReceipts/get-block-receipts-empty', exact],
  ['eth_getBlockReceipts/get-block-receipts-not-found', exact],
  ['eth_getBlockReceipts/get-block-receipts-future', exact], // 0x37 is beyond this chain's head
  ['eth_getBlockReceipts/get-block-receipts-by-hash', skip(HIVE_HASH)],
  ['eth_getBlockReceipts/', schema],
  ['eth_getBlockTransactionCountByHash/', skip(HIVE_HASH)],
  ['eth_getBlockTransactionCountByNumber/get-genesis', exact],
  ['eth_getBlockTransactionCountByNumber/', schema],
  ['eth_getCode/get-code-unknown-account', exact],
  ['eth_getCode/get-code-eip7702-delegation', skip(NO_7702)],
  ['eth_getCode/', schema],
  // eth_getLogs: range and blockHash errors are decided before any chain content is read.
  ['eth_getLogs/filter-error-future-block-range', exact],
  ['eth_getLogs/filter-error-invalid-blockHash-and-range', exact],
  ['eth_getLogs/filter-error-reversed-block-range', exact],
  ['eth_getLogs/filter-with-blockHash', skip(HIVE_HASH)],
  ['eth_getLogs/filter-with-blockHash-and-topics', skip(HIVE_HASH)],
  ['eth_getLogs/', schema],
  ['eth_getProof/get-account-proof-blockhash', skip(HIVE_HASH)],
  ['eth_getProof/', schema],
  ['eth_getStorageAt/get-storage-invalid-key', exact],
  ['eth_getStorageAt/get-storage-invalid-key-too-large', exact],
  ['eth_getStorageAt/get-storage-unknown-account', exact],
  ['eth_getStorageAt/', schema],
  ['eth_getStorageValues/get-storage-values-empty-request', exact],
  ['eth_getStorageValues/get-storage-values-unknown-account', exact],
  ['eth_getStorageValues/', schema],
  ['eth_getTransactionByBlockHashAndIndex/', skip(HIVE_HASH)],
  ['eth_getTransactionByBlockNumberAndIndex/', schema],
  ['eth_getTransactionByHash/get-empty-tx', exact],
  ['eth_getTransactionByHash/get-notfound-tx', exact],
  ['eth_getTransactionByHash/', skip(HIVE_HASH)],
  ['eth_getTransactionCount/get-nonce-unknown-account', exact],
  ['eth_getTransactionCount/get-nonce-eip7702-account', skip(NO_7702)],
  ['eth_getTransactionCount/', schema],
  ['eth_getTransactionReceipt/get-notfound-tx', exact],
  ['eth_getTransactionReceipt/', skip(HIVE_HASH)],
  ['eth_sendRawTransaction/', skip(HIVE_SIGNED)],
  // eth_simulateV1: errors decided before any hive-chain content is read compare exactly; results
  // (hashes, roots, base block number and time, fork-dependent gas) are the hive chain's: schema only.
  ['eth_simulateV1/ethSimulate-add-more-non-defined-BlockStateCalls-than-fit', exact], // explicit block numbers
  ['eth_simulateV1/ethSimulate-basefee-too-low-with-validation-38012', exact], // base fee overridden to 10
  ['eth_simulateV1/ethSimulate-big-block-state-calls-array', exact],
  ['eth_simulateV1/ethSimulate-block-num-order-38020', exact],
  ['eth_simulateV1/ethSimulate-check-invalid-nonce', exact], // base fee 1: the floor of EIP-1559 and of ACP-176 alike
  ['eth_simulateV1/ethSimulate-empty-with-block-num-set-plus1', exact], // 0x37 is beyond this chain's head too
  ['eth_simulateV1/ethSimulate-gas-fees-and-value-error-38014', exact],
  ['eth_simulateV1/ethSimulate-instrict-gas-38013', exact],
  ['eth_simulateV1/ethSimulate-make-call-with-future-block', exact],
  ['eth_simulateV1/ethSimulate-move-to-address-itself-reference-38022', exact],
  ['eth_simulateV1/ethSimulate-move-two-non-precompiles-accounts-to-same', skip(CORETH_NATIVE_ASSET)], // moves 0x0100…0000 and 0x0200…0000 to one address
  ['eth_simulateV1/ethSimulate-overflow-nonce-validation', exact],
  ['eth_simulateV1/ethSimulate-override-address-twice', exact],
  ['eth_simulateV1/ethSimulate-simple-no-funds', exact],
  ['eth_simulateV1/ethSimulate-simple-no-funds-with-balance-querying', exact], // the gas budget left after earlier calls
  ['eth_simulateV1/ethSimulate-simple-send-from-contract-no-balance', exact],
  ['eth_simulateV1/ethSimulate-try-to-move-non-precompile', exact],
  ['eth_simulateV1/ethSimulate-gas-fees-and-value-error-38014-with-validation', skip(SIM_BASEFEE)],
  ['eth_simulateV1/ethSimulate-simple-no-funds-with-validation', skip(SIM_BASEFEE)],
  ['eth_simulateV1/ethSimulate-simple-no-funds-with-validation-without-nonces', skip(SIM_BASEFEE)],
  ['eth_simulateV1/ethSimulate-simple-send-from-contract-with-validation', skip(SIM_BASEFEE)],
  ['eth_simulateV1/ethSimulate-block-override-reflected-in-contract', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-block-override-reflected-in-contract-simple', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-block-timestamp-auto-increment', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-block-timestamp-non-increment', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-block-timestamp-order-38021', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-block-timestamps-incrementing', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-blocknumber-increment', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-override-all-in-BlockStateCalls', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-use-as-many-features-as-possible', skip(SIM_TIME)],
  ['eth_simulateV1/ethSimulate-empty-with-block-num-set-current', skip(HIVE_BLOCKNUM)],
  ['eth_simulateV1/ethSimulate-empty-with-block-num-set-minusone', skip(HIVE_BLOCKNUM)],
  [
    'eth_simulateV1/ethSimulate-run-out-of-gas-in-block-38015',
    skip("geth's own answer fails the schema (a failed call's -32015 message is 'out of gas', the schema wants '^vm execution error'); the node answers as geth (eth.simulate tests)"),
  ],
  ['eth_simulateV1/', schema],
  ['eth_syncing/', exact], // a single node is never syncing: false
  ['net_version/', schema], // chain-specific value: shape only
  ['testing_buildBlockV1/', skip('testing_ is an engine-API test namespace, not served by a C-Chain node')],
  ['txpool_content/', schema], // pool contents are the hive pool's: shape only
  ['txpool_contentFrom/', schema], // pool contents are the hive pool's: shape only
  ['txpool_status/', schema], // pool contents are the hive pool's: shape only
]

function decide(v: Vector): Mode {
  for (const [key, mode] of DECISIONS) {
    if (key.endsWith('/') ? v.name.startsWith(key) : v.name === key) return mode
  }
  return skip('no decision recorded for this vector (add one to DECISIONS)')
}

const vectors = loadVectors()

describe('replay of the recorded geth vectors (execution-apis tests)', () => {
  let node: TestNode
  const tally = { exact: 0, schema: 0, absent: 0, skipped: [] as string[] }

  beforeAll(async () => {
    node = await startTestNode({ chain: GRANITE })
    // A few blocks, so ranges such as 0x3..0x6 exist here; far below the hive chain's 0x32.. numbers.
    const to = Wallet.createRandom().address
    for (let i = 0; i < 7; i++) await send(node, { to, value: 1n })
  })
  afterAll(async () => {
    await node?.close()
    console.log(`[conformance] replay: ${tally.exact} exact, ${tally.schema} schema, ${tally.absent} not served (-32601 checked), ${tally.skipped.length} skipped by decision`)
  })

  it('finds the vectors', () => {
    expect(vectors.length).toBeGreaterThan(200)
  })

  it('has a decision for every vector', () => {
    expect(vectors.filter((v) => decide(v).mode === 'skip' && (decide(v) as { reason: string }).reason.startsWith('no decision')).map((v) => v.name)).toEqual([])
  })

  for (const v of vectors) {
    const mode = decide(v)
    if (mode.mode === 'skip') {
      it.skip(`${v.name} (skipped: ${mode.reason})`, () => {})
      tally.skipped.push(v.name)
      continue
    }
    if (mode.mode === 'absent') {
      it(`${v.name} (not served: ${mode.reason})`, async () => {
        for (const ex of v.exchanges) {
          const got = await node.rpc(ex.request.method, ex.request.params ?? [])
          expect(got.error?.code, `${v.name}: served now, decide exact or schema in DECISIONS`).toBe(-32601)
        }
        tally.absent++
      })
      continue
    }
    it(`${v.name} (${v.specOnly ? 'speconly → schema' : mode.mode})`, () => run(v, mode.mode))
  }

  async function run(v: Vector, mode: 'exact' | 'schema'): Promise<void> {
    for (const ex of v.exchanges) {
      const got = await node.rpc(ex.request.method, ex.request.params ?? [])
      check(v, mode === 'exact' && !v.specOnly ? 'exact' : 'schema', ex, got)
    }
    if (mode === 'exact' && !v.specOnly) tally.exact++
    else tally.schema++
  }
})

function check(v: Vector, mode: 'exact' | 'schema', ex: Exchange, got: Awaited<ReturnType<TestNode['rpc']>>): void {
  const what = `${v.name}: ${JSON.stringify(ex.request.params ?? [])}`
  if (mode === 'exact') {
    if (ex.response.error !== undefined) {
      expect(got.error, what).toBeDefined()
      // Clients parse geth's wording: code and message both must match.
      expect({ code: got.error!.code, message: got.error!.message }, what).toEqual({ code: ex.response.error.code, message: ex.response.error.message })
      if (ex.response.error.data !== undefined) expect(got.error!.data, what).toEqual(ex.response.error.data)
    } else {
      expect(got.error, what).toBeUndefined()
      expect(got.result, what).toEqual(ex.response.result)
    }
    return
  }
  expect(got.error, what).toBeUndefined()
  if (!SPEC_METHODS.has(ex.request.method)) return
  const verdict = validateResult(ex.request.method, got.result)
  expect(verdict.errors, `${what} → ${JSON.stringify(got.result).slice(0, 300)}`).toEqual([])
}

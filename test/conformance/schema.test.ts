import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet, zeroPadValue, id as topicOf } from 'ethers'
import WebSocket from 'ws'
import { buildMethodTable } from '../../src/node.js'
import { CHAIN_ID, deploy, ewoq, iface, nonceOf, send, sign, waitReceipt } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'
import { compileSchema, SPEC_METHODS, validateResult, validateWith } from './openrpc.js'

/*
 * Every eth_/net_/web3_/debug_getRaw* method the node serves and the execution-apis OpenRPC document
 * defines is called with realistic params over a chain with contracts, logs, a revert and every
 * transaction type the C-Chain has, and each result is validated against the method's result schema.
 * Every method listed here is served: a -32601 answer fails its case.
 */

/**
 * params, and: nullable — null is a valid answer here; geth — geth itself answers this value, which the
 * schema rejects (compared exactly instead); pending — geth's pending block, whose hash, nonce and
 * miner are null (internal/ethapi GetBlockByNumber), outside the schema: checked null, the rest validated.
 */
type Case = { params: unknown[]; label?: string; nullable?: true; geth?: unknown; pending?: true }

/** What the chain activity leaves behind, for building params. */
interface Fixture {
  token: string
  probe: string
  txs: Record<'create' | 'dynamic' | 'legacy' | 'accessList' | 'reverted' | 'tokenTransfer' | 'unprotected', string | undefined>
  blocks: { number: string; hash: string }[]
  other: string
}

const UNKNOWN_HASH = '0x00000000000000000000000000000000000000000000000000000000deadbeef'
const UNKNOWN_ADDR = '0xc1cadaffffffffffffffffffffffffffffffffff'
const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const
const TRANSFER = topicOf('Transfer(address,address,uint256)')

/** Block references of every form geth's BlockNumberOrHash takes. */
function refs(f: Fixture): unknown[] {
  const b = f.blocks[f.blocks.length - 2]!
  return [...TAGS, b.number, b.hash, { blockHash: b.hash }, { blockHash: b.hash, requireCanonical: true }, { blockNumber: b.number }, { blockNumber: 'latest' }]
}

const call = (to: string, data: string, from = EWOQ_ADDRESS) => ({ from, to, data })

/** The cases per method (built once the chain activity exists). */
const CASES: Record<string, (f: Fixture) => Case[]> = {
  eth_chainId: () => [{ params: [] }],
  eth_blockNumber: () => [{ params: [] }],
  eth_syncing: () => [{ params: [] }],
  eth_accounts: () => [{ params: [] }],
  eth_coinbase: () => [{ params: [] }],
  eth_gasPrice: () => [{ params: [] }],
  eth_maxPriorityFeePerGas: () => [{ params: [] }],
  eth_baseFee: () => [{ params: [] }],
  eth_blobBaseFee: () => [{ params: [] }],
  net_version: () => [{ params: [] }],
  eth_getBalance: (f) => [{ params: [EWOQ_ADDRESS] }, ...refs(f).map((r) => ({ params: [EWOQ_ADDRESS, r] })), { params: [UNKNOWN_ADDR, 'latest'] }, { params: [f.probe, 'earliest'] }],
  eth_getTransactionCount: (f) => [{ params: [EWOQ_ADDRESS] }, ...refs(f).map((r) => ({ params: [EWOQ_ADDRESS, r] })), { params: [UNKNOWN_ADDR, 'pending'] }],
  eth_getCode: (f) => [{ params: [f.probe] }, ...refs(f).map((r) => ({ params: [f.token, r] })), { params: [UNKNOWN_ADDR, 'latest'] }, { params: [EWOQ_ADDRESS, 'latest'] }],
  eth_getStorageAt: (f) => [
    { params: [f.probe, '0x0'] },
    { params: [f.probe, '0x0000000000000000000000000000000000000000000000000000000000000000', 'latest'] },
    ...refs(f).map((r) => ({ params: [f.token, '0x2', r] })),
    { params: [UNKNOWN_ADDR, '0x1', 'pending'] },
    { params: [f.probe, '1'] },
  ],
  eth_getStorageValues: (f) => [
    { params: [{ [f.probe]: ['0x0000000000000000000000000000000000000000000000000000000000000000'] }] },
    { params: [{ [f.probe]: ['0x0000000000000000000000000000000000000000000000000000000000000000'], [UNKNOWN_ADDR]: [UNKNOWN_HASH] }, 'latest'] },
  ],
  eth_simulateV1: (f) => [
    {
      params: [{ blockStateCalls: [{ calls: [call(f.probe, iface('Probe').encodeFunctionData('set', [5n])), call(f.probe, iface('Probe').encodeFunctionData('fail', ['x']))] }, {}] }, 'latest'],
      label: 'two blocks, a revert',
    },
    {
      params: [{ blockStateCalls: [{ calls: [{ from: EWOQ_ADDRESS, to: UNKNOWN_ADDR, value: '0x1' }] }], traceTransfers: true, returnFullTransactions: true }],
      label: 'full transactions, traced transfer',
    },
  ],
  eth_call: (f) => [
    { params: [call(f.probe, iface('Probe').encodeFunctionData('stored'))] },
    ...refs(f).map((r) => ({ params: [call(f.token, iface('TestToken').encodeFunctionData('balanceOf', [EWOQ_ADDRESS])), r] })),
    { params: [call(f.probe, iface('Probe').encodeFunctionData('context')), 'pending'] },
    {
      params: [
        { to: f.probe, data: iface('Probe').encodeFunctionData('stored') },
        'latest',
        { [f.probe]: { stateDiff: { '0x0000000000000000000000000000000000000000000000000000000000000000': '0x000000000000000000000000000000000000000000000000000000000000002a' } } },
      ],
      label: 'state override',
    },
    { params: [{ to: UNKNOWN_ADDR }, 'latest'] },
  ],
  eth_estimateGas: (f) => [
    { params: [{ from: EWOQ_ADDRESS, to: f.other, value: '0x1' }] },
    { params: [call(f.probe, iface('Probe').encodeFunctionData('set', [9])), 'latest'] },
    { params: [call(f.probe, iface('Probe').encodeFunctionData('set', [9])), 'pending'] },
    { params: [{ from: EWOQ_ADDRESS, data: '0x6001600055' }, { blockNumber: 'latest' }], label: 'create' },
  ],
  eth_createAccessList: (f) => [
    { params: [call(f.probe, iface('Probe').encodeFunctionData('set', [3]))] },
    { params: [call(f.probe, iface('Probe').encodeFunctionData('fail', ['no'])), 'latest'], label: 'reverting call: error field' },
    { params: [{ from: EWOQ_ADDRESS, to: f.other, value: '0x1' }, 'pending'] },
  ],
  eth_fillTransaction: (f) => [
    { params: [{ from: EWOQ_ADDRESS, to: f.other, value: '0x1' }] },
    { params: [{ from: EWOQ_ADDRESS, to: f.probe, data: iface('Probe').encodeFunctionData('set', [1]), gasPrice: '0x174876e800' }], label: 'legacy' },
  ],
  eth_feeHistory: () => [
    { params: ['0x4', 'latest', [25, 75]] },
    { params: ['0x2', 'pending', [50]] },
    { params: [2, 'latest', [50]] },
    // No pending block (coreth, and geth without one): 'pending' drops one block, so nothing is left and
    // geth answers {oldestBlock: 0x0, gasUsedRatio: null} without baseFeePerGas — outside the schema.
    { params: ['0x1', 'pending', []], geth: { oldestBlock: '0x0', gasUsedRatio: null } },
    { params: ['0xa', 'latest', []] },
    { params: ['0x1', 'earliest', [10, 90]] },
    { params: ['0x3', 'safe', [1, 50, 99]] },
  ],
  eth_getBlockByNumber: (f) => [
    ...TAGS.flatMap((t) => [false, true].map((full) => ({ params: [t, full], ...(t === 'pending' && { pending: true as const }) }))),
    ...f.blocks.map((b) => ({ params: [b.number, true] })),
    ...f.blocks.map((b) => ({ params: [b.number, false] })),
    { params: ['0x3e8', true], nullable: true },
  ],
  eth_getBlockByHash: (f) => [...f.blocks.flatMap((b) => [{ params: [b.hash, true] }, { params: [b.hash, false] }]), { params: [UNKNOWN_HASH, true], nullable: true }],
  eth_getBlockTransactionCountByNumber: (f) => [...TAGS.map((t) => ({ params: [t] })), ...f.blocks.map((b) => ({ params: [b.number] })), { params: ['0x3e8'], nullable: true }],
  eth_getBlockTransactionCountByHash: (f) => [...f.blocks.map((b) => ({ params: [b.hash] })), { params: [UNKNOWN_HASH], nullable: true }],
  eth_getTransactionByHash: (f) => [
    ...Object.entries(f.txs)
      .filter(([, h]) => h)
      .map(([k, h]) => ({ params: [h], label: k })),
    { params: [UNKNOWN_HASH], nullable: true },
  ],
  eth_getTransactionReceipt: (f) => [
    ...Object.entries(f.txs)
      .filter(([, h]) => h)
      .map(([k, h]) => ({ params: [h], label: k })),
    { params: [UNKNOWN_HASH], nullable: true },
  ],
  eth_getTransactionByBlockNumberAndIndex: (f) => [
    ...f.blocks.map((b) => ({ params: [b.number, '0x0'] })),
    { params: ['latest', '0x0'] },
    { params: ['latest', '0x63'], nullable: true },
    { params: ['0x3e8', '0x0'], nullable: true },
  ],
  eth_getTransactionByBlockHashAndIndex: (f) => [
    ...f.blocks.map((b) => ({ params: [b.hash, '0x0'] })),
    { params: [f.blocks[0]!.hash, '0x63'], nullable: true },
    { params: [UNKNOWN_HASH, '0x0'], nullable: true },
  ],
  eth_getBlockReceipts: (f) => [
    ...TAGS.map((t) => ({ params: [t] })),
    ...f.blocks.map((b) => ({ params: [b.number] })),
    ...f.blocks.map((b) => ({ params: [b.hash] })),
    { params: [{ blockHash: f.blocks[0]!.hash }] },
    { params: [UNKNOWN_HASH], nullable: true },
    { params: ['0x3e8'], nullable: true },
  ],
  eth_getLogs: (f) => [
    { params: [{ fromBlock: 'earliest', toBlock: 'latest' }] },
    { params: [{}] },
    { params: [{ address: f.token, fromBlock: '0x0' }] },
    { params: [{ address: [f.token, f.probe], fromBlock: '0x1', toBlock: 'latest' }] },
    { params: [{ blockHash: f.blocks[0]!.hash }] },
    { params: [{ fromBlock: '0x0', topics: [[TRANSFER]] }] },
    { params: [{ fromBlock: '0x0', topics: [null, zeroPadValue(EWOQ_ADDRESS, 32).toLowerCase()] }] },
    { params: [{ fromBlock: '0x0', topics: [[], [UNKNOWN_HASH]] }], label: 'no match: []' },
  ],
  eth_getProof: (f) => [
    { params: [f.probe, ['0x0'], 'latest'] },
    { params: [EWOQ_ADDRESS, [], 'latest'] },
    { params: [f.token, ['0x1', '0x2'], f.blocks[f.blocks.length - 1]!.hash] },
    { params: [UNKNOWN_ADDR, [UNKNOWN_HASH]], label: 'no block argument: latest, as geth (*rpc.BlockNumberOrHash)' },
  ],
  eth_newFilter: (f) => [{ params: [{ fromBlock: 'latest' }] }, { params: [{ address: f.token, topics: [TRANSFER] }] }],
  eth_newBlockFilter: () => [{ params: [] }],
  eth_newPendingTransactionFilter: () => [{ params: [] }],
  txpool_content: () => [{ params: [] }],
  txpool_contentFrom: (f) => [{ params: [EWOQ_ADDRESS] }, { params: [f.other] }],
  txpool_status: () => [{ params: [] }],
  debug_getRawBlock: (f) => [{ params: ['0x0'] }, { params: ['latest'] }, { params: [f.blocks[0]!.number] }],
  debug_getRawHeader: (f) => [{ params: ['0x0'] }, { params: ['latest'] }, { params: [f.blocks[0]!.hash] }],
  debug_getRawReceipts: (f) => [{ params: ['0x0'] }, { params: ['latest'] }, { params: [f.blocks[0]!.number] }],
  debug_getRawTransaction: (f) => [
    ...Object.values(f.txs)
      .filter((h) => h)
      .map((h) => ({ params: [h] })),
    { params: [UNKNOWN_HASH] },
  ],
  debug_traceTransaction: (f) =>
    Object.values(f.txs)
      .filter((h) => h)
      .flatMap((h) => [{ params: [h] }, { params: [h, { enableMemory: true, enableReturnData: true }] }, { params: [h, { disableStack: true, disableStorage: true }] }]),
  debug_traceBlockByNumber: (f) => f.blocks.slice(0, 3).flatMap((b) => [{ params: [b.number] }, { params: [b.number, { enableMemory: true, enableReturnData: true }] }]),
  debug_traceBlockByHash: (f) => f.blocks.slice(0, 3).map((b) => ({ params: [b.hash] })),
}

/** Methods exercised by their own sequences below (filters, send), not by CASES. */
const SEQUENCES = ['eth_sendRawTransaction', 'eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter']

describe('results validate against the execution-apis OpenRPC schemas', () => {
  let node: TestNode
  let f: Fixture
  let served: Set<string>
  const stats = { checks: 0 }

  const rpc = async (method: string, params: unknown[]) => node.rpc(method, params)

  /** Calls and validates; returns the result. */
  async function check(method: string, c: Case): Promise<unknown> {
    const r = await rpc(method, c.params)
    const what = `${method}${c.label ? ` (${c.label})` : ''} ${JSON.stringify(c.params).slice(0, 200)}`
    expect(r.error, what).toBeUndefined()
    if (!c.nullable && r.result === null && method !== 'debug_getRawTransaction') expect.fail(`${what}: null where a value was expected`)
    stats.checks++
    if (c.geth !== undefined) {
      expect(r.result, `${what}: geth's answer`).toEqual(c.geth)
    } else {
      const block = r.result as Record<string, unknown>
      if (c.pending) expect([block.hash, block.nonce, block.miner], `${what}: geth nulls them`).toEqual([null, null, null])
      const result = c.pending ? { ...block, hash: UNKNOWN_HASH, nonce: '0x0000000000000000', miner: UNKNOWN_ADDR } : r.result
      const verdict = validateResult(method, result)
      expect(verdict.errors, `${what} → ${JSON.stringify(r.result).slice(0, 400)}`).toEqual([])
    }
    return r.result
  }

  beforeAll(async () => {
    node = await startTestNode({ chain: { 'allow-unprotected-txs': true } })
    // The whole node as the context: buildMethodTable takes what it needs (engine, config, subscriptions, ...).
    served = new Set(Object.keys(buildMethodTable(node.node as unknown as Parameters<typeof buildMethodTable>[0])))
    const other = Wallet.createRandom().address
    const token = await deploy(node, 'TestToken', [10n ** 24n])
    const probe = await deploy(node, 'Probe')
    const dynamic = await send(node, { to: probe.address, data: iface('Probe').encodeFunctionData('set', [7]), gasLimit: 100_000n })
    const legacy = await send(node, { to: other, value: 1000n, type: 0 })
    const accessList = await send(node, {
      to: probe.address,
      data: iface('Probe').encodeFunctionData('set', [8]),
      gasLimit: 100_000n,
      type: 1,
      accessList: [{ address: probe.address, storageKeys: ['0x0000000000000000000000000000000000000000000000000000000000000000'] }],
    })
    const reverted = await send(node, { to: probe.address, data: iface('Probe').encodeFunctionData('fail', ['nope']), gasLimit: 100_000n })
    expect(reverted.receipt.status).toBe('0x0')
    const tokenTransfer = await send(node, { to: token.address, data: iface('TestToken').encodeFunctionData('transfer', [other, 5n]), gasLimit: 100_000n })
    // A pre-EIP-155 legacy transaction (v = 27/28, no chainId), accepted with allow-unprotected-txs.
    let unprotected: string | undefined
    const raw = await sign({ nonce: await nonceOf(node, ewoq.address), to: other, value: 1n, type: 0, chainId: 0n })
    const sent = await node.rpc('eth_sendRawTransaction', [raw])
    if (sent.result !== undefined) {
      unprotected = sent.result as string
      await waitReceipt(node, unprotected)
    }
    const hashes = [token.hash, dynamic.hash, legacy.hash, accessList.hash, reverted.hash, tokenTransfer.hash, unprotected].filter((h): h is string => h !== undefined)
    const blocks: Fixture['blocks'] = []
    for (const h of hashes) {
      const r = await node.call('eth_getTransactionReceipt', [h])
      if (!blocks.some((b) => b.hash === r.blockHash)) blocks.push({ number: r.blockNumber, hash: r.blockHash })
    }
    f = {
      token: token.address,
      probe: probe.address,
      other,
      txs: { create: token.hash, dynamic: dynamic.hash, legacy: legacy.hash, accessList: accessList.hash, reverted: reverted.hash, tokenTransfer: tokenTransfer.hash, unprotected },
      blocks,
    }
  })

  afterAll(async () => {
    await node?.close()
    console.log(`[conformance] schema: ${stats.checks} results checked`)
  })

  it('every served method the spec defines has cases here', () => {
    const spec = [...served].filter((m) => SPEC_METHODS.has(m))
    expect(spec.filter((m) => CASES[m] === undefined && !SEQUENCES.includes(m))).toEqual([])
  })

  for (const method of Object.keys(CASES)) {
    it(method, async () => {
      expect(SPEC_METHODS.has(method), `${method} is in the spec`).toBe(true)
      for (const c of CASES[method]!(f)) await check(method, c)
    })
  }

  it('eth_sendRawTransaction answers a transaction hash (types 0, 1, 2)', async () => {
    let nonce = await nonceOf(node, ewoq.address)
    for (const type of [0, 1, 2]) {
      const raw = await sign({ nonce: nonce++, to: f.other, value: 1n, type, chainId: CHAIN_ID })
      const hash = await check('eth_sendRawTransaction', { params: [raw] })
      await waitReceipt(node, hash as string)
    }
  })

  it('filters: eth_getFilterChanges / eth_getFilterLogs / eth_uninstallFilter', async () => {
    const logFilter = await check('eth_newFilter', { params: [{ fromBlock: '0x0', address: f.token }] })
    const blockFilter = await check('eth_newBlockFilter', { params: [] })
    const txFilter = await check('eth_newPendingTransactionFilter', { params: [] })
    await send(node, { to: f.token, data: iface('TestToken').encodeFunctionData('transfer', [f.other, 1n]), gasLimit: 100_000n })
    for (const id of [logFilter, blockFilter, txFilter]) {
      const changes = await check('eth_getFilterChanges', { params: [id] })
      expect(changes, `changes of ${String(id)}`).not.toEqual([])
      await check('eth_getFilterChanges', { params: [id], label: 'second poll: empty' })
    }
    const logs = await check('eth_getFilterLogs', { params: [logFilter] })
    expect((logs as unknown[]).length).toBeGreaterThan(0)
    for (const id of [logFilter, blockFilter, txFilter]) expect(await check('eth_uninstallFilter', { params: [id] })).toBe(true)
    expect(await check('eth_uninstallFilter', { params: [logFilter], label: 'already removed' })).toBe(false)
  })

  it('eth_subscribe over WebSocket: newHeads and logs notifications', async () => {
    const blockSchema = (SPEC_METHODS.get('eth_getBlockByNumber')!.result.schema.oneOf as Record<string, unknown>[])[1]!
    // A header is a block without size / transactions / uncles (geth RPCMarshalHeader).
    const headerSchema = compileSchema({ ...blockSchema, required: (blockSchema.required as string[]).filter((k) => !['size', 'transactions', 'uncles'].includes(k)) })
    const logSchema = compileSchema((SPEC_METHODS.get('eth_getLogs')!.result.schema.oneOf as Record<string, unknown>[])[1]!.items)
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const s = new WebSocket(node.wsUrl)
      s.once('open', () => resolve(s))
      s.once('error', reject)
    })
    try {
      const messages: any[] = []
      const waiters: (() => void)[] = []
      ws.on('message', (m) => {
        messages.push(JSON.parse(String(m)))
        waiters.splice(0).forEach((w) => w())
      })
      const next = async (pred: (m: any) => boolean): Promise<any> => {
        const deadline = Date.now() + 5000
        for (;;) {
          const hit = messages.find(pred)
          if (hit !== undefined) return hit
          if (Date.now() > deadline) throw new Error('timed out waiting for a WebSocket message')
          await new Promise<void>((r) => {
            waiters.push(r)
            setTimeout(r, 50)
          })
        }
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
      const sub = await next((m) => m.id === 1)
      expect(sub.error).toBeUndefined()
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: f.token }] }))
      const logSub = await next((m) => m.id === 2)
      expect(logSub.error).toBeUndefined()
      await send(node, { to: f.token, data: iface('TestToken').encodeFunctionData('transfer', [f.other, 2n]), gasLimit: 100_000n })
      const head = await next((m) => m.method === 'eth_subscription' && m.params?.subscription === sub.result)
      const headVerdict = validateWith(headerSchema, head.params.result)
      stats.checks++
      expect(headVerdict.errors, JSON.stringify(head.params.result).slice(0, 400)).toEqual([])
      const log = await next((m) => m.method === 'eth_subscription' && m.params?.subscription === logSub.result)
      const logVerdict = validateWith(logSchema, log.params.result)
      stats.checks++
      expect(logVerdict.errors, JSON.stringify(log.params.result)).toEqual([])
    } finally {
      ws.close()
    }
  })
})

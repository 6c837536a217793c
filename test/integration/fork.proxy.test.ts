import { rmSync } from 'node:fs'
import { JsonRpcProvider, Wallet } from 'ethers'
import { createPublicClient, defineChain, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfigFile } from '../../src/config.js'
import { CHAIN_ID, deploy, ewoq, iface, nonceOf, send, sign } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * What a fork serves from its origin (docs/FORK.md): node A gets transfers and contracts with logs;
 * node B forks A at block N. Everything about A's blocks up to N (and its state before N) must be
 * on B exactly as A answers it; what A did after N is not on B; B's own blocks follow N. Then A goes
 * away: B answers what it cached, and a clear error naming the origin for the rest, caching nothing
 * wrong (A back, the same call works).
 */

const token = iface('TestToken')
const probe = iface('Probe')
const hexN = (n: bigint | number) => '0x' + n.toString(16)

describe('a fork serves the origin’s history up to N from the origin', () => {
  let a: TestNode
  let b: TestNode
  let N: bigint
  let forkChain: Partial<ChainConfigFile>
  let tokenAddr: string
  let probeAddr: string
  const alice = Wallet.createRandom().address
  /** A's txs up to N: hashes in order. */
  const txs: string[] = []
  /** A tx and a block A made after N. */
  let afterTx: string
  let afterBlockHash: string
  /** B's own tx (a Stored log) at N+1. */
  let bTx: { hash: string; receipt: any }

  beforeAll(async () => {
    a = await startTestNode()
    const t = await deploy(a, 'TestToken', [1000n])
    tokenAddr = t.address
    txs.push(t.hash)
    txs.push((await send(a, { to: tokenAddr, data: token.encodeFunctionData('transfer', [alice, 10n]), gasLimit: 100_000n })).hash)
    txs.push((await send(a, { to: alice, value: 12345n })).hash)
    const p = await deploy(a, 'Probe')
    probeAddr = p.address
    txs.push(p.hash)
    txs.push((await send(a, { to: probeAddr, data: probe.encodeFunctionData('set', [5n]), gasLimit: 100_000n })).hash)
    N = BigInt(await a.call('eth_blockNumber'))
    const after = await send(a, { to: alice, value: 1n })
    afterTx = after.hash
    afterBlockHash = after.receipt.blockHash
    // A made 3 logs up to N (the mint, the token transfer, Probe's Stored): the fork answers no more than that at once.
    forkChain = { 'fork-url': a.url, 'fork-block-number': Number(N), 'logs-max-results': 3 }
    b = await startTestNode({ chain: forkChain })
  })
  afterAll(async () => {
    // Restarted nodes were given their data directories: remove them here.
    for (const node of [b, a]) {
      if (node === undefined) continue
      await node.close()
      rmSync(node.dataDir, { recursive: true, force: true })
    }
  })

  const both = async (method: string, params: unknown[]) => [await a.call(method, params), await b.call(method, params)]

  it('answers latest with the origin’s block N while the fork has built nothing', async () => {
    expect(await b.call('eth_blockNumber')).toBe(hexN(N))
    expect(await b.call('eth_getBlockByNumber', ['latest', true])).toEqual(await a.call('eth_getBlockByNumber', [hexN(N), true]))
  })

  it('answers every block up to N, by number and by hash, with or without full txs, exactly as the origin', async () => {
    for (let k = 0n; k <= N; k++) {
      for (const full of [false, true]) {
        const [fromA, fromB] = await both('eth_getBlockByNumber', [hexN(k), full])
        expect(fromB).toEqual(fromA)
        expect(await b.call('eth_getBlockByHash', [fromA.hash, full])).toEqual(fromA)
      }
      const [countA, countB] = await both('eth_getBlockTransactionCountByNumber', [hexN(k)])
      expect(countB).toBe(countA)
      const [receiptsA, receiptsB] = await both('eth_getBlockReceipts', [hexN(k)])
      expect(receiptsB).toEqual(receiptsA)
      const [rawA, rawB] = await both('debug_getRawBlock', [hexN(k)])
      expect(rawB).toBe(rawA)
    }
    const [earliestA, earliestB] = await both('eth_getBlockByNumber', ['earliest', false])
    expect(earliestB).toEqual(earliestA)
  })

  it('answers the origin’s txs and receipts up to N by hash, and their traces', async () => {
    for (const hash of txs) {
      const [txA, txB] = await both('eth_getTransactionByHash', [hash])
      expect(txB).toEqual(txA)
      const [receiptA, receiptB] = await both('eth_getTransactionReceipt', [hash])
      expect(receiptB).toEqual(receiptA)
      const [rawA, rawB] = await both('debug_getRawTransaction', [hash])
      expect(rawB).toBe(rawA)
    }
    const [traceA, traceB] = await both('debug_traceTransaction', [txs[1], { tracer: 'callTracer' }])
    expect(traceB).toEqual(traceA)
    const [blockTraceA, blockTraceB] = await both('debug_traceBlockByNumber', [hexN(N), { tracer: 'callTracer' }])
    expect(blockTraceB).toEqual(blockTraceA)
    expect(blockTraceB).toHaveLength(1)
    const [feesA, feesB] = await both('eth_feeHistory', ['0x3', hexN(N), [50]])
    expect(feesB).toEqual(feesA)
  })

  it('reads state before N from the origin (number and EIP-1898 forms), and state at N as the origin had it', async () => {
    const before = hexN(N - 1n)
    for (const ref of [before, { blockNumber: before }]) {
      const [balA, balB] = await both('eth_getBalance', [ewoq.address, ref])
      expect(balB).toBe(balA)
      const [nonceA, nonceB] = await both('eth_getTransactionCount', [ewoq.address, ref])
      expect(nonceB).toBe(nonceA)
      const [codeA, codeB] = await both('eth_getCode', [tokenAddr, ref])
      expect(codeB).toBe(codeA)
      expect(codeB.length).toBeGreaterThan(2)
      const call = { to: tokenAddr, data: token.encodeFunctionData('balanceOf', [alice]) }
      const [callA, callB] = await both('eth_call', [call, ref])
      expect(callB).toBe(callA)
      expect(BigInt(callB)).toBe(10n)
    }
    const hashBefore = (await a.call('eth_getBlockByNumber', [before, false])).hash
    const [byHashA, byHashB] = await both('eth_getBalance', [alice, { blockHash: hashBefore }])
    expect(byHashB).toBe(byHashA)
    // An origin's error is the answer as the origin gave it: code, message and data.
    const revert = { to: probeAddr, data: probe.encodeFunctionData('fail', ['no']) }
    const [revertA, revertB] = [await a.rpc('eth_call', [revert, before]), await b.rpc('eth_call', [revert, before])]
    expect(revertA.error).toMatchObject({ code: 3, message: 'execution reverted: no' })
    expect(revertB.error).toEqual(revertA.error)
    const [proofA, proofB] = await both('eth_getProof', [tokenAddr, [], before])
    expect(proofB).toEqual(proofA)
    // Probe's slot was set at N: before N it is the origin's 0, at N the origin's 5.
    expect(BigInt(await b.call('eth_getStorageAt', [probeAddr, '0x0', hexN(N - 1n)]))).toBe(BigInt(await a.call('eth_getStorageAt', [probeAddr, '0x0', hexN(N - 1n)])))
    expect(await b.call('eth_getStorageAt', [probeAddr, '0x0', hexN(N)])).toBe(await a.call('eth_getStorageAt', [probeAddr, '0x0', hexN(N)]))
  })

  it('knows nothing of what the origin did after N: its tx and its block N+1 are null here', async () => {
    expect(await b.call('eth_getTransactionByHash', [afterTx])).toBeNull()
    expect(await b.call('eth_getTransactionReceipt', [afterTx])).toBeNull()
    expect(await b.call('eth_getBlockByHash', [afterBlockHash, false])).toBeNull()
    expect(await b.call('eth_getBlockTransactionCountByHash', [afterBlockHash])).toBeNull()
    expect((await b.rpc('eth_getBalance', [alice, { blockHash: afterBlockHash }])).error).toMatchObject({ code: -32000, message: 'header for hash not found' })
    expect((await b.rpc('eth_getLogs', [{ blockHash: afterBlockHash }])).error).toMatchObject({ code: -32000, message: 'unknown block' })
    expect((await b.rpc('debug_traceTransaction', [afterTx])).error).toMatchObject({ code: -32000, message: 'transaction not found' })
    // A tx still pending on the origin is not on the fork either.
    await a.call('evm_setAutomine', [false])
    const pending = await a.call('eth_sendRawTransaction', [await sign({ to: alice, value: 2n, nonce: await nonceOf(a, ewoq.address) })])
    expect(await a.call('eth_getTransactionByHash', [pending])).toMatchObject({ blockNumber: null })
    expect(await b.call('eth_getTransactionByHash', [pending])).toBeNull()
    expect(await b.call('debug_getRawTransaction', [pending])).toBe('0x')
    await a.call('evm_setAutomine', [true])
  })

  it('answers through ethers and viem as the origin does', async () => {
    const pa = new JsonRpcProvider(a.url, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const pb = new JsonRpcProvider(b.url, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const blockA = await pa.getBlock(Number(N) - 1, true)
    const blockB = await pb.getBlock(Number(N) - 1, true)
    expect(blockB!.toJSON()).toEqual(blockA!.toJSON())
    expect((await pb.getTransactionReceipt(txs[0]!))!.toJSON()).toEqual((await pa.getTransactionReceipt(txs[0]!))!.toJSON())
    expect(await pb.getBalance(alice, Number(N) - 1)).toBe(await pa.getBalance(alice, Number(N) - 1))
    pa.destroy()
    pb.destroy()
    const chain = defineChain({ id: Number(CHAIN_ID), name: 'local', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [a.url] } } })
    const va = createPublicClient({ chain, transport: http(a.url) })
    const vb = createPublicClient({ chain, transport: http(b.url) })
    expect(await vb.getBlock({ blockNumber: N, includeTransactions: true })).toEqual(await va.getBlock({ blockNumber: N, includeTransactions: true }))
    expect(await vb.getTransaction({ hash: txs[1] as `0x${string}` })).toEqual(await va.getTransaction({ hash: txs[1] as `0x${string}` }))
  })

  it('answers eth_getLogs across N: the origin’s logs up to N, then the fork’s own, under the node’s limits on the whole', async () => {
    const originLogs = await a.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: hexN(N) }])
    expect(originLogs).toHaveLength(3)
    expect(await b.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: hexN(N) }])).toEqual(originLogs)
    bTx = await send(b, { to: probeAddr, data: probe.encodeFunctionData('set', [9n]), gasLimit: 100_000n })
    expect(bTx.receipt.blockNumber).toBe(hexN(N + 1n))
    expect(bTx.receipt.logs).toHaveLength(1)
    const across = await b.call('eth_getLogs', [{ fromBlock: hexN(N - 1n), toBlock: 'latest', address: probeAddr }])
    const originPart = await a.call('eth_getLogs', [{ fromBlock: hexN(N - 1n), toBlock: hexN(N), address: probeAddr }])
    expect(across).toEqual([...originPart, ...bTx.receipt.logs])
    // By block hash: the origin's block N, and the fork's N+1.
    const blockN = await a.call('eth_getBlockByNumber', [hexN(N), false])
    expect(await b.call('eth_getLogs', [{ blockHash: blockN.hash }])).toEqual(await a.call('eth_getLogs', [{ blockHash: blockN.hash }]))
    expect(await b.call('eth_getLogs', [{ blockHash: bTx.receipt.blockHash }])).toEqual(bTx.receipt.logs)
    // logs-max-results (3) holds on the whole range: the origin's 3 and the fork's 1 are over it.
    expect((await b.rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).error).toEqual({ code: -32005, message: 'query returned more than 3 results' })
  })

  it('answers blocks after N itself: N+1 is the fork’s own block', async () => {
    const own = await b.call('eth_getBlockByNumber', [hexN(N + 1n), true])
    expect(own.hash).toBe(bTx.receipt.blockHash)
    expect(own.parentHash).toBe((await a.call('eth_getBlockByNumber', [hexN(N), false])).hash)
    expect(await b.call('eth_getBlockByHash', [own.hash, true])).toEqual(own)
    expect(await b.call('eth_getTransactionByHash', [bTx.hash])).toMatchObject({ blockNumber: hexN(N + 1n) })
    expect(await a.call('eth_getTransactionByHash', [bTx.hash])).toBeNull()
  })

  it('restarted with the origin gone, answers what it cached and names the origin for the rest; nothing wrong is cached', async () => {
    const cachedBlock = await b.call('eth_getBlockByNumber', [hexN(N - 1n), true])
    const cachedReceipt = await b.call('eth_getTransactionReceipt', [txs[0]])
    await a.stop()
    await b.stop()
    b = await startTestNode({ dataDir: b.dataDir, chain: forkChain })
    expect(await b.call('eth_getBlockByNumber', [hexN(N - 1n), true])).toEqual(cachedBlock)
    expect(await b.call('eth_getTransactionReceipt', [txs[0]])).toEqual(cachedReceipt)
    // Never asked before: the origin is needed and is gone.
    const uncached = await b.rpc('eth_getUncleCountByBlockNumber', ['0x1'])
    expect(uncached.error?.code).toBe(-32000)
    expect(uncached.error?.message).toMatch(/fork origin http:\/\/127\.0\.0\.1:\d+/)
    expect(uncached.error?.message).not.toContain('/ext/bc')
    // A back on the same port: the same call now works (the failure was not cached).
    a = await startTestNode({ dataDir: a.dataDir, config: { httpPort: a.port } })
    expect(await b.call('eth_getUncleCountByBlockNumber', ['0x1'])).toBe(await a.call('eth_getUncleCountByBlockNumber', ['0x1']))
  })

  it('follows a fork again at another block (anvil_reset with forking): what the origin did after the new point is not on it', async () => {
    const M = N - 1n
    expect(await b.call('anvil_reset', [{ forking: { blockNumber: Number(M) } }])).toBeNull()
    expect(await b.call('eth_blockNumber')).toBe(hexN(M))
    const [blockA, blockB] = await both('eth_getBlockByNumber', [hexN(M), true])
    expect(blockB).toEqual(blockA)
    expect(await b.call('eth_getBlockByNumber', ['latest', true])).toEqual(blockA)
    // Probe.set was mined at N: after this fork's point, so not on it (though cached for the fork at N).
    expect(await b.call('eth_getTransactionByHash', [txs[4]])).toBeNull()
    expect(await b.call('eth_getBlockByNumber', [hexN(N), false])).toBeNull()
    expect(await b.call('eth_getTransactionByHash', [txs[3]])).toEqual(await a.call('eth_getTransactionByHash', [txs[3]]))
  })
})

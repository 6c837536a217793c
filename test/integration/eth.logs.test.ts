import { Wallet, zeroPadValue } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, nonceOf, send, sign, waitReceipt } from '../helpers/chain.js'
import { SkipClock } from '../helpers/clock.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const token = iface('TestToken')
const probe = iface('Probe')
const TRANSFER = token.getEvent('Transfer')!.topicHash
const STORED = probe.getEvent('Stored')!.topicHash
const topicOf = (address: string) => zeroPadValue(address, 32).toLowerCase()

describe('eth_getLogs and filters', () => {
  let node: TestNode
  let tokenAddr: string
  let probeAddr: string
  const alice = Wallet.createRandom().address
  const bob = Wallet.createRandom().address
  /** Block numbers: token deploy (mint log), transfer to alice, transfer to bob, probe deploy, probe.set. */
  const blocks: Record<string, string> = {}

  beforeAll(async () => {
    node = await startTestNode({ chain: { 'api-max-blocks-per-request': 50 } })
    const t = await deploy(node, 'TestToken', [1000n])
    tokenAddr = t.address
    blocks.mint = t.receipt.blockNumber
    blocks.alice = (await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [alice, 10n]), gasLimit: 100_000n })).receipt.blockNumber
    blocks.bob = (await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [bob, 20n]), gasLimit: 100_000n })).receipt.blockNumber
    const p = await deploy(node, 'Probe')
    probeAddr = p.address
    blocks.set = (await send(node, { to: probeAddr, data: probe.encodeFunctionData('set', [5n]), gasLimit: 100_000n })).receipt.blockNumber
  })
  afterAll(() => node.close())

  const logs = (filter: object) => node.call('eth_getLogs', [filter])

  it('filters by one address or several, over the whole chain', async () => {
    const tokenLogs = await logs({ fromBlock: 'earliest', toBlock: 'latest', address: tokenAddr })
    expect(tokenLogs).toHaveLength(3)
    expect(tokenLogs.map((l: any) => l.blockNumber)).toEqual([blocks.mint, blocks.alice, blocks.bob])
    const both = await logs({ fromBlock: '0x0', address: [tokenAddr, probeAddr] })
    expect(both).toHaveLength(4)
    expect(both[3].address).toBe(probeAddr.toLowerCase())
    expect(both[3].topics).toEqual([STORED, topicOf(ewoq.address)])
  })

  it("log objects have geth's fields and agree with the receipt", async () => {
    const [log] = await logs({ fromBlock: blocks.alice, toBlock: blocks.alice })
    const receipt = await node.call('eth_getTransactionReceipt', [log.transactionHash])
    expect(log).toEqual(receipt.logs[0])
    const block = await node.call('eth_getBlockByNumber', [blocks.alice, false])
    expect(log.blockTimestamp).toBe(block.timestamp)
    expect(log).toMatchObject({ address: tokenAddr.toLowerCase(), blockHash: block.hash, logIndex: '0x0', transactionIndex: '0x0', removed: false })
    expect(log.topics).toEqual([TRANSFER, topicOf(ewoq.address), topicOf(alice)])
    expect(BigInt(log.data)).toBe(10n)
  })

  it('topics: exact, null wildcard, empty-list wildcard, OR-lists, too long', async () => {
    const all = { fromBlock: '0x0', toBlock: 'latest' }
    expect(await logs({ ...all, topics: [TRANSFER, null, topicOf(bob)] })).toHaveLength(1)
    expect(await logs({ ...all, topics: [null, topicOf(ewoq.address)] })).toHaveLength(3) // two transfers + Stored
    expect(await logs({ ...all, topics: [[], null, [topicOf(alice), topicOf(bob)]] })).toHaveLength(2)
    expect(await logs({ ...all, topics: [[TRANSFER, STORED]] })).toHaveLength(4)
    expect(await logs({ ...all, topics: [[TRANSFER, null]] })).toHaveLength(4) // a null alternative matches anything
    // A filter with more positions than a log has topics does not match it.
    expect(await logs({ ...all, topics: [STORED, null, null] })).toHaveLength(0)
    const five = await node.rpc('eth_getLogs', [{ topics: [null, null, null, null, null] }])
    expect(five.error).toEqual({ code: -32602, message: 'invalid argument 0: exceed max topics' })
    // geth maxSubTopics: at most 1000 alternatives in one position (docs/SECURITY.md, E4; robustness sweep finding).
    const wide = await node.rpc('eth_getLogs', [{ topics: [Array(1001).fill(TRANSFER)] }])
    expect(wide.error).toEqual({ code: -32602, message: 'invalid argument 0: exceed max topics' })
    expect(await logs({ ...all, topics: [Array(1000).fill(TRANSFER)] })).toEqual(await logs({ ...all, topics: [TRANSFER] }))
    const bad = await node.rpc('eth_getLogs', [{ topics: [42] }])
    expect(bad.error).toEqual({ code: -32602, message: 'invalid argument 0: invalid topic(s)' })
  })

  it('blockHash selects one block; unknown hashes and hash-with-range are errors', async () => {
    const block = await node.call('eth_getBlockByNumber', [blocks.bob, false])
    const byHash = await logs({ blockHash: block.hash })
    expect(byHash).toHaveLength(1)
    expect(byHash[0].topics[2]).toBe(topicOf(bob))
    const unknown = await node.rpc('eth_getLogs', [{ blockHash: '0x' + '11'.repeat(32) }])
    expect(unknown.error).toEqual({ code: -32000, message: 'unknown block' })
    const both = await node.rpc('eth_getLogs', [{ blockHash: block.hash, fromBlock: '0x1' }])
    expect(both.error).toEqual({ code: -32602, message: 'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other' })
  })

  it('ranges: defaults to latest, reversed and beyond-head ranges, the configured block limit', async () => {
    const latest = await logs({})
    expect(latest.map((l: any) => l.blockNumber)).toEqual([blocks.set])
    const reversed = await node.rpc('eth_getLogs', [{ fromBlock: blocks.bob, toBlock: blocks.alice }])
    expect(reversed.error).toEqual({ code: -32602, message: 'invalid block range params' })
    const head = BigInt(await node.call('eth_blockNumber'))
    const beyond = await node.rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x' + (head + 5n).toString(16) }])
    expect(beyond.error).toEqual({ code: -32602, message: 'block range extends beyond current head block' })
    const future = await node.rpc('eth_getLogs', [{ fromBlock: '0x' + (head + 5n).toString(16) }])
    expect(future.error).toEqual({ code: -32602, message: 'invalid block range params' })
    // api-max-blocks-per-request: 50 here (coreth's check: to - from >= max).
    const wide = await node.rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x32' }])
    expect(head).toBeLessThan(50n)
    expect(wide.error?.code).toBe(-32602) // beyond head is checked first
    const addr = await node.rpc('eth_getLogs', [{ address: '0x1234' }])
    expect(addr.error).toEqual({ code: -32602, message: 'invalid argument 0: invalid address: hex has invalid length 2 after decoding; expected 20 for address' })
    const noPrefix = await node.rpc('eth_getLogs', [{ address: ['0x' + '11'.repeat(20), '11'.repeat(20)] }])
    expect(noPrefix.error).toEqual({ code: -32602, message: 'invalid argument 0: invalid address at index 1: hex string without 0x prefix' })
    const shortTopic = await node.rpc('eth_getLogs', [{ topics: ['0x1234'] }])
    expect(shortTopic.error).toEqual({ code: -32602, message: 'invalid argument 0: hex has invalid length 2 after decoding; expected 32 for topic' })
  })

  it('eth_newFilter / eth_getFilterChanges / eth_getFilterLogs / eth_uninstallFilter', async () => {
    const id = await node.call('eth_newFilter', [{ address: tokenAddr, topics: [TRANSFER] }])
    expect(id).toMatch(/^0x[0-9a-f]{1,32}$/)
    expect(await node.call('eth_getFilterChanges', [id])).toEqual([])
    const carol = Wallet.createRandom().address
    const { hash } = await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [carol, 1n]), gasLimit: 100_000n })
    const changes = await node.call('eth_getFilterChanges', [id])
    expect(changes).toHaveLength(1)
    expect(changes[0].transactionHash).toBe(hash)
    expect(await node.call('eth_getFilterChanges', [id])).toEqual([])
    // getFilterLogs runs the filter's whole query: its range is latest..latest here.
    const whole = await node.call('eth_getFilterLogs', [id])
    expect(whole.map((l: any) => l.transactionHash)).toEqual([hash])
    const ranged = await node.call('eth_newFilter', [{ fromBlock: '0x0', address: tokenAddr }])
    expect(await node.call('eth_getFilterLogs', [ranged])).toHaveLength(4)
    expect(await node.call('eth_uninstallFilter', [id])).toBe(true)
    expect(await node.call('eth_uninstallFilter', [id])).toBe(false)
    const gone = await node.rpc('eth_getFilterChanges', [id])
    expect(gone.error).toEqual({ code: -32000, message: 'filter not found' })
  })

  it('block and pending-transaction filters', async () => {
    const blocksId = await node.call('eth_newBlockFilter')
    const pendingId = await node.call('eth_newPendingTransactionFilter')
    const raw = await sign({ nonce: await nonceOf(node, ewoq.address), to: bob, value: 1n })
    const hash = await node.call('eth_sendRawTransaction', [raw])
    const receipt = await waitReceipt(node, hash)
    expect(await node.call('eth_getFilterChanges', [blocksId])).toEqual([receipt.blockHash])
    expect(await node.call('eth_getFilterChanges', [pendingId])).toEqual([hash])
    // A block filter has no logs to query.
    const notLogs = await node.rpc('eth_getFilterLogs', [blocksId])
    expect(notLogs.error).toEqual({ code: -32000, message: 'filter not found' })
  })

  it('answers the same logs from blocks read back after a restart (their transactions not decoded), legacy and typed', async () => {
    const legacy = await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [alice, 1n]), gasLimit: 100_000n, type: 0 })
    expect(legacy.receipt.type).toBe('0x0')
    // Not the head: the head block is kept whole; the others are read back lightly.
    await send(node, { to: bob, value: 1n })
    const filter = { fromBlock: '0x0', toBlock: 'latest', address: tokenAddr }
    const before = await logs(filter)
    expect(before.map((l: any) => l.transactionHash)).toContain(legacy.hash)
    const dir = node.dataDir
    await node.stop()
    node = await startTestNode({ dataDir: dir, chain: { 'api-max-blocks-per-request': 50 } })
    expect(await logs(filter)).toEqual(before)
  })
})

describe('eth_getLogs over blocks it keeps, reads back and mines again', () => {
  let node: TestNode
  let tokenAddr: string
  const alice = Wallet.createRandom().address
  const bob = Wallet.createRandom().address
  const logs = (filter: object) => node.call('eth_getLogs', [filter])
  const transfer = (to: string, amount: bigint, nonce: number) => sign({ to: tokenAddr, data: token.encodeFunctionData('transfer', [to, amount]), gasLimit: 100_000n, nonce })

  beforeAll(async () => {
    node = await startTestNode()
    tokenAddr = (await deploy(node, 'TestToken', [1000n])).address
  })
  afterAll(() => node.close())

  it("a block of several transactions: each log's transaction, index and hash agree with its receipt, kept or read back after a restart", async () => {
    await node.call('evm_setAutomine', [false])
    const hashes: string[] = []
    try {
      const nonce = await nonceOf(node, ewoq.address)
      for (let i = 0; i < 3; i++) hashes.push(await node.call('eth_sendRawTransaction', [await transfer(i === 1 ? bob : alice, BigInt(i + 1), nonce + i)]))
      await node.call('evm_mine', [])
    } finally {
      await node.call('evm_setAutomine', [true])
    }
    const receipts = await Promise.all(hashes.map((h) => node.call('eth_getTransactionReceipt', [h])))
    expect(new Set(receipts.map((r: any) => r.blockNumber)).size).toBe(1)
    const block = receipts[0].blockNumber
    const inBlock = { fromBlock: block, toBlock: block, address: tokenAddr }
    const expected = receipts.flatMap((r: any) => r.logs)
    expect(expected.map((l: any) => [l.transactionIndex, l.logIndex])).toEqual([
      ['0x0', '0x0'],
      ['0x1', '0x1'],
      ['0x2', '0x2'],
    ])
    expect(await logs(inBlock)).toEqual(expected)
    expect(await logs({ ...inBlock, topics: [TRANSFER, null, topicOf(bob)] })).toEqual([expected[1]])
    const dir = node.dataDir
    await node.stop()
    node = await startTestNode({ dataDir: dir })
    expect(await logs(inBlock)).toEqual(expected)
    expect(await logs({ ...inBlock, topics: [TRANSFER, null, topicOf(bob)] })).toEqual([expected[1]])
  })

  it('after evm_revert, the blocks mined again at the same numbers answer their own logs', async () => {
    const all = { fromBlock: '0x0', toBlock: 'latest', address: tokenAddr }
    const id = await node.call('evm_snapshot', [])
    const first = await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [alice, 7n]), gasLimit: 100_000n })
    const before = await logs(all)
    expect(before.at(-1).transactionHash).toBe(first.hash)
    expect(await node.call('evm_revert', [id])).toBe(true)
    const again = await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [bob, 8n]), gasLimit: 100_000n })
    expect(again.receipt.blockNumber).toBe(first.receipt.blockNumber)
    const after = await logs(all)
    expect(after).toHaveLength(before.length)
    expect(after.at(-1)).toEqual(again.receipt.logs[0])
    expect(after.at(-1).topics[2]).toBe(topicOf(bob))
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1))
  })
})

describe('eth_getLogs block limit', () => {
  it("answers coreth's error past api-max-blocks-per-request", async () => {
    const node = await startTestNode({ chain: { 'api-max-blocks-per-request': 2 } })
    try {
      for (let i = 0; i < 3; i++) await send(node, { to: Wallet.createRandom().address, value: 1n })
      const r = await node.rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x2' }])
      expect(r.error).toEqual({ code: -32000, message: 'requested too many blocks from 0 to 2, maximum is set to 2' })
      expect(await node.call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x2' }])).toEqual([])
    } finally {
      await node.close()
    }
  })
})

describe('log and filter limits (logs-max-*, filter-timeout, filter-max-count, filter-max-buffered)', () => {
  let node: TestNode
  let tokenAddr: string
  const all = { fromBlock: '0x0', toBlock: 'latest' }
  const clock = new SkipClock()
  beforeAll(async () => {
    node = await startTestNode({
      now: clock.now,
      chain: { 'logs-max-addresses': 2, 'logs-max-topic-alternatives': 2, 'logs-max-results': 2, 'filter-timeout': '1s', 'filter-max-count': 2, 'filter-max-buffered': 2 },
    })
    // Three Transfer logs: the mint and two transfers.
    tokenAddr = (await deploy(node, 'TestToken', [1000n])).address
    for (const to of [Wallet.createRandom().address, Wallet.createRandom().address]) {
      await send(node, { to: tokenAddr, data: token.encodeFunctionData('transfer', [to, 1n]), gasLimit: 100_000n })
    }
  })
  afterAll(() => node.close())

  it('logs-max-addresses: more addresses are -32602 "exceed max addresses"', async () => {
    const three = [tokenAddr, Wallet.createRandom().address, Wallet.createRandom().address]
    expect((await node.rpc('eth_getLogs', [{ ...all, address: three.slice(0, 2), topics: [null, topicOf(ewoq.address)] }])).result).toHaveLength(2)
    expect((await node.rpc('eth_getLogs', [{ ...all, address: three }])).error).toEqual({ code: -32602, message: 'invalid argument 0: exceed max addresses' })
    expect((await node.rpc('eth_newFilter', [{ address: three }])).error).toEqual({ code: -32602, message: 'invalid argument 0: exceed max addresses' })
  })

  it('logs-max-topic-alternatives: more alternatives in a position are -32602 "exceed max topics"', async () => {
    expect((await node.rpc('eth_getLogs', [{ ...all, topics: [[STORED, STORED]] }])).result).toEqual([])
    expect((await node.rpc('eth_getLogs', [{ ...all, topics: [[STORED, STORED, STORED]] }])).error).toEqual({ code: -32602, message: 'invalid argument 0: exceed max topics' })
  })

  it('logs-max-results: more logs are -32005, for eth_getLogs and eth_getFilterLogs', async () => {
    const over = { code: -32005, message: 'query returned more than 2 results' }
    expect((await node.rpc('eth_getLogs', [{ ...all, address: tokenAddr }])).error).toEqual(over)
    const id = await node.call('eth_newFilter', [{ ...all, address: tokenAddr }])
    expect((await node.rpc('eth_getFilterLogs', [id])).error).toEqual(over)
    await node.call('eth_uninstallFilter', [id])
  })

  it('filter-max-count: past it the longest-idle filter is removed', async () => {
    const first = await node.call('eth_newBlockFilter')
    const second = await node.call('eth_newBlockFilter')
    const third = await node.call('eth_newBlockFilter')
    expect((await node.rpc('eth_getFilterChanges', [first])).error).toEqual({ code: -32000, message: 'filter not found' })
    expect(await node.call('eth_getFilterChanges', [second])).toEqual([])
    expect(await node.call('eth_getFilterChanges', [third])).toEqual([])
  })

  it('filter-max-buffered: an unpolled filter keeps only the newest changes', async () => {
    const id = await node.call('eth_newBlockFilter')
    const hashes: string[] = []
    for (let i = 0; i < 3; i++) hashes.push((await send(node, { to: Wallet.createRandom().address, value: 1n })).receipt.blockHash)
    expect(await node.call('eth_getFilterChanges', [id])).toEqual(hashes.slice(1))
  })

  it('filter-timeout: a filter not polled for longer is gone', async () => {
    const id = await node.call('eth_newBlockFilter')
    expect(await node.call('eth_getFilterChanges', [id])).toEqual([])
    // Past the 1 s filter-timeout, skipped on the node's clock rather than slept.
    clock.advance(1200)
    expect((await node.rpc('eth_getFilterChanges', [id])).error).toEqual({ code: -32000, message: 'filter not found' })
  })
})

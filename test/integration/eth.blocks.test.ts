import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, nonceOf, sign, waitReceipt } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const ZERO_HASH = '0x' + '00'.repeat(32)
const UNKNOWN_HASH = '0x' + 'ab'.repeat(32)

describe('blocks, headers, per-block transactions and uncles', () => {
  let node: TestNode
  let probe: string
  let block: any // the block holding three transactions
  const hashes: string[] = []
  const bob = Wallet.createRandom().address

  beforeAll(async () => {
    node = await startTestNode()
    probe = (await deploy(node, 'Probe')).address
    // Two transactions with future nonces wait in the queue; the missing nonce promotes all three
    // at once, so they land in one block in nonce order.
    const n = await nonceOf(node, ewoq.address)
    const set = iface('Probe').encodeFunctionData('set', [7n])
    const raws = [
      await sign({ nonce: n, to: bob, value: 1000n }),
      await sign({ nonce: n + 1, to: probe, data: set, gasLimit: 100_000n, type: 1 }),
      await sign({ nonce: n + 2, to: bob, value: 2000n, type: 0 }),
    ]
    hashes.push(await node.call('eth_sendRawTransaction', [raws[2]]))
    hashes.unshift(await node.call('eth_sendRawTransaction', [raws[1]]))
    hashes.unshift(await node.call('eth_sendRawTransaction', [raws[0]]))
    const receipts = await Promise.all(hashes.map((h) => waitReceipt(node, h)))
    expect(new Set(receipts.map((r) => r.blockHash)).size).toBe(1)
    block = await node.call('eth_getBlockByHash', [receipts[0].blockHash, false])
  })
  afterAll(() => node.close())

  it('eth_blockNumber is the head: genesis, deployment, the three-transaction block', async () => {
    expect(await node.call('eth_blockNumber')).toBe('0x2')
    expect(block.number).toBe('0x2')
  })

  it('eth_getBlockByNumber returns transaction hashes in order, or full objects', async () => {
    const byNum = await node.call('eth_getBlockByNumber', ['0x2', false])
    expect(byNum).toEqual(block)
    expect(byNum.transactions).toEqual(hashes)
    const full = await node.call('eth_getBlockByNumber', ['0x2', true])
    expect(full.transactions.map((t: any) => t.hash)).toEqual(hashes)
    expect(full.transactions.map((t: any) => t.type)).toEqual(['0x2', '0x1', '0x0'])
    expect(full.transactions.map((t: any) => t.transactionIndex)).toEqual(['0x0', '0x1', '0x2'])
    for (const t of full.transactions) {
      expect(t.blockHash).toBe(block.hash)
      expect(t.blockNumber).toBe('0x2')
      expect(t.from).toBe(ewoq.address.toLowerCase())
    }
    const { transactions: _a, ...restFull } = full
    const { transactions: _b, ...restHashes } = byNum
    expect(restFull).toEqual(restHashes)
  })

  it('block JSON has geth fields plus the Avalanche header fields', async () => {
    for (const key of [
      'number',
      'hash',
      'parentHash',
      'nonce',
      'mixHash',
      'sha3Uncles',
      'logsBloom',
      'stateRoot',
      'miner',
      'difficulty',
      'extraData',
      'gasLimit',
      'gasUsed',
      'timestamp',
      'transactionsRoot',
      'receiptsRoot',
      'baseFeePerGas',
      'size',
      'uncles',
      'extDataHash',
      'extDataGasUsed',
      'blockGasCost',
      'blockExtraData',
      'totalDifficulty',
    ]) {
      expect(block, key).toHaveProperty(key)
    }
    expect(block.uncles).toEqual([])
    expect(block.sha3Uncles).toBe('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347')
    expect(block.miner).toBe('0x0100000000000000000000000000000000000000')
    // Helicon: the header counts the transactions' gas limits (what the block may use at worst), and
    // its bloom is that of the receipts of the blocks it settles, after its parent's settled height.
    const full = await node.call('eth_getBlockByNumber', ['0x2', true])
    expect(BigInt(block.gasUsed)).toBe(full.transactions.reduce((s: bigint, t: any) => s + BigInt(t.gas), 0n))
    const parent = await node.call('eth_getBlockByNumber', ['0x1', false])
    let bloom = 0n
    for (let n = BigInt(parent.settledHeight) + 1n; n <= BigInt(block.settledHeight); n++) {
      for (const r of await node.call('eth_getBlockReceipts', [`0x${n.toString(16)}`])) bloom |= BigInt(r.logsBloom)
    }
    expect(BigInt(block.logsBloom)).toBe(bloom)
  })

  it('blocks chain by parentHash back to genesis', async () => {
    const b1 = await node.call('eth_getBlockByNumber', ['0x1', false])
    const b0 = await node.call('eth_getBlockByNumber', ['0x0', false])
    expect(block.parentHash).toBe(b1.hash)
    expect(b1.parentHash).toBe(b0.hash)
    expect(b0.parentHash).toBe(ZERO_HASH)
    expect(BigInt(block.timestamp) >= BigInt(b1.timestamp)).toBe(true)
  })

  it('block tags: latest is the head, safe/finalized the last block it settled (Helicon), pending its next block (geth.edges.test.ts), earliest is genesis', async () => {
    expect((await node.call('eth_getBlockByNumber', ['latest', false])).hash).toBe(block.hash)
    const settled = await node.call('eth_getBlockByNumber', [block.settledHeight, false])
    for (const tag of ['safe', 'finalized']) expect((await node.call('eth_getBlockByNumber', [tag, false])).hash, tag).toBe(settled.hash)
    expect((await node.call('eth_getBlockByNumber', ['pending', false])).parentHash).toBe(block.hash)
    expect((await node.call('eth_getBlockByNumber', ['earliest', false])).number).toBe('0x0')
  })

  it('eth_getBlockByHash equals eth_getBlockByNumber; unknown hash or number is null', async () => {
    expect(await node.call('eth_getBlockByHash', [block.hash, true])).toEqual(await node.call('eth_getBlockByNumber', ['0x2', true]))
    expect(await node.call('eth_getBlockByHash', [UNKNOWN_HASH, false])).toBeNull()
    expect(await node.call('eth_getBlockByNumber', ['0x3e8', false])).toBeNull()
  })

  it('eth_getHeaderByNumber / eth_getHeaderByHash: the block without body fields', async () => {
    const header = await node.call('eth_getHeaderByNumber', ['0x2'])
    const { transactions: _t, uncles: _u, size: _s, blockExtraData: _e, ...expected } = block
    expect(header).toEqual(expected)
    expect(await node.call('eth_getHeaderByHash', [block.hash])).toEqual(header)
    expect(await node.call('eth_getHeaderByNumber', ['latest'])).toEqual(header)
    expect(await node.call('eth_getHeaderByHash', [UNKNOWN_HASH])).toBeNull()
    expect(await node.call('eth_getHeaderByNumber', ['0x3e8'])).toBeNull()
  })

  it('eth_getBlockTransactionCountByNumber / ByHash', async () => {
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x2'])).toBe('0x3')
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x0'])).toBe('0x0')
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['latest'])).toBe('0x3')
    expect(await node.call('eth_getBlockTransactionCountByHash', [block.hash])).toBe('0x3')
    expect(await node.call('eth_getBlockTransactionCountByHash', [UNKNOWN_HASH])).toBeNull()
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['0x3e8'])).toBeNull()
  })

  it('eth_getTransactionByBlockNumberAndIndex / ByBlockHashAndIndex equal eth_getTransactionByHash', async () => {
    for (let i = 0; i < 3; i++) {
      const byHash = await node.call('eth_getTransactionByHash', [hashes[i]])
      expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['0x2', `0x${i}`])).toEqual(byHash)
      expect(await node.call('eth_getTransactionByBlockHashAndIndex', [block.hash, `0x${i}`])).toEqual(byHash)
    }
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['0x2', '0x3'])).toBeNull()
    expect(await node.call('eth_getTransactionByBlockHashAndIndex', [UNKNOWN_HASH, '0x0'])).toBeNull()
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['0x3e8', '0x0'])).toBeNull()
  })

  it('eth_getBlockReceipts by number, tag, hash and EIP-1898 object; log indexes run across the block', async () => {
    const receipts = await node.call('eth_getBlockReceipts', ['0x2'])
    expect(receipts.map((r: any) => r.transactionHash)).toEqual(hashes)
    for (let i = 0; i < 3; i++) expect(receipts[i]).toEqual(await node.call('eth_getTransactionReceipt', [hashes[i]]))
    expect(receipts.map((r: any) => r.status)).toEqual(['0x1', '0x1', '0x1'])
    expect(receipts[0].gasUsed).toBe('0x5208')
    // Each receipt's gas is what it was charged: at least half its gas limit (100,000 for the call).
    expect(BigInt(receipts[1].gasUsed)).toBe(50_000n)
    expect(BigInt(receipts[2].cumulativeGasUsed)).toBe(92_000n)
    expect(receipts[1].logs).toHaveLength(1)
    expect(receipts[1].logs[0].logIndex).toBe('0x0')
    expect(receipts[1].logs[0].address).toBe(probe.toLowerCase())
    expect(await node.call('eth_getBlockReceipts', ['latest'])).toEqual(receipts)
    expect(await node.call('eth_getBlockReceipts', [block.hash])).toEqual(receipts)
    expect(await node.call('eth_getBlockReceipts', [{ blockHash: block.hash }])).toEqual(receipts)
    expect(await node.call('eth_getBlockReceipts', ['0x0'])).toEqual([])
    expect(await node.call('eth_getBlockReceipts', ['0x3e8'])).toBeNull()
  })

  it('uncles: the C-Chain has none (counts 0x0, lookups null, unknown blocks null)', async () => {
    expect(await node.call('eth_getUncleCountByBlockNumber', ['0x2'])).toBe('0x0')
    expect(await node.call('eth_getUncleCountByBlockHash', [block.hash])).toBe('0x0')
    expect(await node.call('eth_getUncleCountByBlockNumber', ['0x3e8'])).toBeNull()
    expect(await node.call('eth_getUncleCountByBlockHash', [UNKNOWN_HASH])).toBeNull()
    expect(await node.call('eth_getUncleByBlockNumberAndIndex', ['0x2', '0x0'])).toBeNull()
    expect(await node.call('eth_getUncleByBlockHashAndIndex', [block.hash, '0x0'])).toBeNull()
  })
})

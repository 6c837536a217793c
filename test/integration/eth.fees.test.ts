import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEE_CAP, send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const GWEI = 10n ** 9n
const hexq = (n: bigint) => '0x' + n.toString(16)

describe('fee methods on an idle chain (coreth: internal/ethapi/api.go, eth/gasprice/gasprice.go)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('eth_baseFee is the ACP-176 floor 0x1, eth_maxPriorityFeePerGas is tx-pool-price-limit 0x1, eth_gasPrice their sum', async () => {
    expect(await node.call('eth_baseFee')).toBe('0x1')
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe('0x1')
    expect(await node.call('eth_gasPrice')).toBe('0x2')
  })

  it('eth_blobBaseFee is the EIP-4844 minimum: the C-Chain has no blobs', async () => {
    expect(await node.call('eth_blobBaseFee')).toBe('0x1')
  })

  it("eth_feeHistory of genesis only: the initial AP3 base fee, then the next block's (geth: blockCount + 1 entries), no rewards without percentiles", async () => {
    const h = await node.call('eth_feeHistory', ['0x1', 'latest'])
    expect(h).toEqual({ oldestBlock: '0x0', baseFeePerGas: ['0x34630b8a00', await node.call('eth_baseFee')], gasUsedRatio: [0] })
  })
})

describe('fee methods after transactions with known tips', () => {
  let node: TestNode
  const tips = [3n, 1n, 5n, 2n, 4n].map((t) => t * GWEI)
  const blocks: any[] = []

  beforeAll(async () => {
    node = await startTestNode()
    const to = Wallet.createRandom().address
    for (const tip of tips) {
      const { receipt } = await send(node, { to, value: 1n, maxPriorityFeePerGas: tip, maxFeePerGas: FEE_CAP })
      blocks.push(await node.call('eth_getBlockByHash', [receipt.blockHash, false]))
    }
  })
  afterAll(() => node.close())

  it('eth_maxPriorityFeePerGas is the 40th percentile of recent effective tips; eth_gasPrice adds the next base fee', async () => {
    // Sorted tips 1..5 gwei; index (5 - 1) * 40 / 100 = 1 -> 2 gwei.
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(hexq(2n * GWEI))
    const baseFee = BigInt(await node.call('eth_baseFee'))
    expect(await node.call('eth_gasPrice')).toBe(hexq(2n * GWEI + baseFee))
  })

  it("eth_feeHistory: oldestBlock, one base fee and ratio per block and the next block's base fee, reward per percentile", async () => {
    expect(blocks.map((b) => b.number)).toEqual(['0x1', '0x2', '0x3', '0x4', '0x5'])
    const h = await node.call('eth_feeHistory', ['0x5', 'latest', [0, 50, 100]])
    expect(h.oldestBlock).toBe('0x1')
    expect(h.baseFeePerGas).toEqual([...blocks.map((b) => b.baseFeePerGas), await node.call('eth_baseFee')])
    expect(h.gasUsedRatio).toEqual(blocks.map((b) => 21000 / Number(BigInt(b.gasLimit))))
    // One transaction per block: every percentile is that transaction's effective tip.
    expect(h.reward).toEqual(
      tips.map((t, i) => {
        const room = FEE_CAP - BigInt(blocks[i].baseFeePerGas)
        const eff = room < t ? room : t
        return [hexq(eff), hexq(eff), hexq(eff)]
      }),
    )
  })

  it('eth_feeHistory: a block number as last block, decimal block counts, pending, empty blocks, count 0', async () => {
    const h = await node.call('eth_feeHistory', [2, '0x3', [25]])
    expect(h.oldestBlock).toBe('0x2')
    expect(h.reward).toEqual([[hexq(tips[1]!)], [hexq(tips[2]!)]])
    // Ending before the head: the last entry is the following block's own base fee.
    expect(h.baseFeePerGas).toEqual([blocks[1].baseFeePerGas, blocks[2].baseFeePerGas, blocks[3].baseFeePerGas])
    const withGenesis = await node.call('eth_feeHistory', ['0x3', '0x1', [50]])
    expect(withGenesis.oldestBlock).toBe('0x0')
    expect(withGenesis.reward[0]).toEqual(['0x0'])
    expect(withGenesis.baseFeePerGas).toHaveLength(3)
    // pending: geth without a pending block serves up to latest, one block fewer.
    const pending = await node.call('eth_feeHistory', ['0x2', 'pending'])
    expect(pending.oldestBlock).toBe('0x5')
    expect(pending.baseFeePerGas).toHaveLength(2)
    expect(await node.call('eth_feeHistory', ['0x1', 'pending', [50]])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null })
    expect(await node.call('eth_feeHistory', ['0x0', 'latest'])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null })
    // A count of 0 answers before the percentiles are checked (geth FeeHistory).
    expect(await node.call('eth_feeHistory', ['0x0', 'latest', [75, 25]])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null })
    // More blocks than exist: clipped at genesis.
    expect((await node.call('eth_feeHistory', ['0x64', 'latest'])).oldestBlock).toBe('0x0')
  })

  it("eth_feeHistory errors are geth's -32000 texts (Go's %f for percentiles)", async () => {
    const beyond = await node.rpc('eth_feeHistory', ['0x1', '0x64'])
    expect(beyond.error).toEqual({ code: -32000, message: 'request beyond head block: requested 100, head 5' })
    const bad = await node.rpc('eth_feeHistory', ['0x1', 'latest', [75, 25]])
    expect(bad.error).toEqual({ code: -32000, message: 'invalid reward percentile: #0:75.000000 >= #1:25.000000' })
    const equal = await node.rpc('eth_feeHistory', ['0x1', 'latest', [10, 50.5, 50.5]])
    expect(equal.error).toEqual({ code: -32000, message: 'invalid reward percentile: #1:50.500000 >= #2:50.500000' })
    const range = await node.rpc('eth_feeHistory', ['0x1', 'latest', [101]])
    expect(range.error).toEqual({ code: -32000, message: 'invalid reward percentile: 101.000000' })
    const negative = await node.rpc('eth_feeHistory', ['0x1', 'latest', [-0.5]])
    expect(negative.error).toEqual({ code: -32000, message: 'invalid reward percentile: -0.500000' })
    const many = await node.rpc('eth_feeHistory', ['0x1', 'latest', Array.from({ length: 101 }, (_, i) => i / 2)])
    expect(many.error).toEqual({ code: -32000, message: 'invalid reward percentile: over the query limit 100' })
  })
})

describe('eth_feeHistory limits (fee-history-max-blocks, fee-history-max-percentiles)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'fee-history-max-blocks': 2, 'fee-history-max-percentiles': 2 } })
    for (let i = 0; i < 3; i++) await send(node, { to: Wallet.createRandom().address, value: 1n })
  })
  afterAll(() => node.close())

  it('clamps the block count and refuses more percentiles than configured', async () => {
    const h = await node.call('eth_feeHistory', ['0x5', 'latest', [10, 90]])
    expect(h.oldestBlock).toBe('0x2')
    expect(h.gasUsedRatio).toHaveLength(2)
    const many = await node.rpc('eth_feeHistory', ['0x1', 'latest', [10, 50, 90]])
    expect(many.error).toEqual({ code: -32000, message: 'invalid reward percentile: over the query limit 2' })
  })
})

import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEE_CAP, ewoq, nonceOf, send, sign } from '../helpers/chain.js'
import { GRANITE, contracts, startTestNode, type TestNode } from '../helpers/testNode.js'

const GWEI = 10n ** 9n
const hexq = (n: bigint) => '0x' + n.toString(16)

describe('fee methods on an idle chain (coreth: internal/ethapi/api.go, eth/gasprice/gasprice.go)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: GRANITE })
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
    node = await startTestNode({ chain: GRANITE })
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
    node = await startTestNode({ chain: { ...GRANITE, 'fee-history-max-blocks': 2, 'fee-history-max-percentiles': 2 } })
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

/** geth's processBlock (eth/gasprice/feehistory.go): tips in order, weighed by each transaction's gas, against the block's gas used. */
async function gethRewards(node: TestNode, number: string, percentiles: number[]): Promise<string[]> {
  const block = await node.call('eth_getBlockByNumber', [number, true])
  if (block.transactions.length === 0) return percentiles.map(() => '0x0')
  const baseFee = BigInt(block.baseFeePerGas)
  const items = await Promise.all(
    block.transactions.map(async (tx: any) => {
      const feeCap = BigInt(tx.maxFeePerGas ?? tx.gasPrice)
      const tipCap = BigInt(tx.maxPriorityFeePerGas ?? tx.gasPrice)
      const room = feeCap - baseFee
      const receipt = await node.call('eth_getTransactionReceipt', [tx.hash])
      return { tip: room < tipCap ? room : tipCap, gas: BigInt(receipt.gasUsed) }
    }),
  )
  items.sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
  let i = 0
  let sum = items[0]!.gas
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((Number(BigInt(block.gasUsed)) * p) / 100))
    while (sum < threshold && i < items.length - 1) sum += items[++i]!.gas
    return hexq(items[i]!.tip)
  })
}

/** coreth's suggestion (eth/gasprice/gasprice.go), from the blocks over RPC: every block of the last 40 is recent here. */
async function corethTip(node: TestNode): Promise<string> {
  const head = Number(await node.call('eth_blockNumber'))
  const tips: bigint[] = []
  for (let n = head; n > Math.max(0, head - 40); n--) {
    const block = await node.call('eth_getBlockByNumber', [hexq(BigInt(n)), true])
    for (const tx of block.transactions) {
      const room = BigInt(tx.maxFeePerGas ?? tx.gasPrice) - BigInt(block.baseFeePerGas)
      const tipCap = BigInt(tx.maxPriorityFeePerGas ?? tx.gasPrice)
      tips.push(room < tipCap ? room : tipCap)
    }
  }
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const tip = tips.length === 0 ? 1n : tips[Math.floor(((tips.length - 1) * 40) / 100)]!
  return hexq(tip < 1n ? 1n : tip)
}

describe("eth_feeHistory rewards as geth computes them: zero tips, several transactions, empty blocks, evm_revert (what Hardhat's automatic fees read)", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: GRANITE })
  })
  afterAll(() => node.close())

  it('a transaction priced as Hardhat prices it at a 1 wei base fee (fee cap 81/64 of it, 1 wei) pays no tip: the reward is 0, so Hardhat asks eth_maxPriorityFeePerGas', async () => {
    await send(node, { to: Wallet.createRandom().address, value: 1n })
    const next = BigInt(await node.call('eth_baseFee'))
    expect(next).toBe(1n)
    const feeCap = (next * 81n) / 64n
    await send(node, { to: Wallet.createRandom().address, value: 1n, maxFeePerGas: feeCap, maxPriorityFeePerGas: 1n })
    const h = await node.call('eth_feeHistory', ['0x1', 'latest', [50]])
    expect(h.reward).toEqual([['0x0']])
    expect(h.reward).toEqual([await gethRewards(node, 'latest', [50])])
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
  })

  it('a block of several transactions: each percentile is the tip at which the gas, in tip order, passes it', async () => {
    await node.call('evm_setAutomine', [false])
    const token = contracts.contracts.TestToken.bytecode
    const from = await nonceOf(node, ewoq.address)
    const txs = [
      { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: 7n * GWEI },
      { data: token, gasLimit: 2_000_000n, maxPriorityFeePerGas: 2n * GWEI },
      { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: 1n },
      { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: 5n * GWEI },
    ]
    try {
      for (const [i, tx] of txs.entries()) await node.call('eth_sendRawTransaction', [await sign({ ...tx, nonce: from + i })])
      await node.call('evm_mine')
    } finally {
      await node.call('evm_setAutomine', [true])
    }
    const block = await node.call('eth_getBlockByNumber', ['latest', false])
    expect(block.transactions).toHaveLength(4)
    const percentiles = [0, 10, 25, 50, 75, 90, 100]
    const h = await node.call('eth_feeHistory', ['0x1', 'latest', percentiles])
    expect(h.reward).toEqual([await gethRewards(node, 'latest', percentiles)])
    // Tips 1 wei, 2, 5 and 7 gwei; the deployment (2 gwei) uses most of the block's gas.
    expect(h.reward[0]).toEqual([hexq(1n), hexq(1n), hexq(2n * GWEI), hexq(2n * GWEI), hexq(5n * GWEI), hexq(7n * GWEI), hexq(7n * GWEI)])
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
  })

  it('an empty latest block (evm_mine) rewards 0; the suggestion still reads the blocks before it', async () => {
    await node.call('evm_mine')
    expect((await node.call('eth_feeHistory', ['0x1', 'latest', [50]])).reward).toEqual([['0x0']])
    const two = await node.call('eth_feeHistory', ['0x2', 'latest', [0, 100]])
    expect(two.reward).toEqual([await gethRewards(node, hexq(BigInt(two.oldestBlock)), [0, 100]), ['0x0', '0x0']])
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
  })

  it('after evm_revert: the blocks kept answer as before, the reverted ones are gone, new ones count', async () => {
    const before = await node.call('eth_feeHistory', ['0x4', 'latest', [25, 75]])
    const tipBefore = await node.call('eth_maxPriorityFeePerGas')
    const id = await node.call('evm_snapshot')
    for (const tip of [9n, 9n, 9n]) await send(node, { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: tip * GWEI })
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
    expect(await node.call('evm_revert', [id])).toBe(true)
    expect(await node.call('eth_feeHistory', ['0x4', 'latest', [25, 75]])).toEqual({ ...before, baseFeePerGas: [...before.baseFeePerGas.slice(0, -1), await node.call('eth_baseFee')] })
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(tipBefore)
    await send(node, { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: 3n * GWEI })
    expect((await node.call('eth_feeHistory', ['0x1', 'latest', [50]])).reward).toEqual([[hexq(3n * GWEI)]])
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
  })

  it('more than 40 blocks: only the last 40 count', async () => {
    for (let i = 0; i < 42; i++) await send(node, { to: Wallet.createRandom().address, value: 1n, maxPriorityFeePerGas: BigInt(100 + i) })
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(await corethTip(node))
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe(hexq(BigInt(100 + 2 + 15)))
  })
})

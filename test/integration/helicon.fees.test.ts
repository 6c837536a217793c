import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, nonceOf, send, sign, waitReceipt } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * eth_maxPriorityFeePerGas and eth_feeHistory under Helicon, as avalanchego v1.15's estimator answers
 * them (vms/saevm/gasprice/estimator.go, block_cache.go, DefaultConfig): every expected value is
 * worked out here from that rule.
 */

const DEAD = '0x000000000000000000000000000000000000dEaD'

describe("Helicon's gas price estimator", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('suggests the 40th percentile (by count) of the recent tips, 1 wei with none, clamped to [1, 150] wei', async () => {
    expect(await node.call('eth_maxPriorityFeePerGas')).toBe('0x1')
    const tips = [7n, 3n, 500n, 20n, 90n]
    for (const tip of tips) await send(node, { to: DEAD, value: 1n, maxPriorityFeePerGas: tip })
    // Sorted 3, 7, 20, 90, 500: index floor((5 − 1) · 40 / 100) = 1.
    expect(BigInt(await node.call('eth_maxPriorityFeePerGas'))).toBe(7n)
    for (let i = 0; i < 6; i++) await send(node, { to: DEAD, value: 1n, maxPriorityFeePerGas: 1_000n })
    // Eleven tips, index floor(10 · 40 / 100) = 4: 1,000 wei, over saevm's 150-wei ceiling.
    expect(BigInt(await node.call('eth_maxPriorityFeePerGas'))).toBe(150n)
    // eth_suggestPriceOptions (sae/rpc/custom.go): 95 % and 105 % of it around it, fee caps twice eth_baseFee on top.
    const double = 2n * BigInt(await node.call('eth_baseFee'))
    const price = (tip: bigint) => ({ maxPriorityFeePerGas: `0x${tip.toString(16)}`, maxFeePerGas: `0x${(double + tip).toString(16)}` })
    expect(await node.call('eth_suggestPriceOptions')).toEqual({ slow: price(142n), normal: price(150n), fast: price(157n) })
  })

  it("weighs a block's tips by its transactions' gas limits (its builder does not execute them)", async () => {
    await node.call('evm_setAutomine', [false])
    let hashes: string[]
    try {
      const n = await nonceOf(node, ewoq.address)
      // Tips 10, 20, 30 wei; gas limits 21,000, 300,000 (charged 150,000: half of it), 21,000.
      const raws = [
        await sign({ nonce: n, to: DEAD, maxPriorityFeePerGas: 10n }),
        await sign({ nonce: n + 1, to: DEAD, maxPriorityFeePerGas: 20n, gasLimit: 300_000n }),
        await sign({ nonce: n + 2, to: DEAD, maxPriorityFeePerGas: 30n }),
      ]
      hashes = []
      for (const raw of raws) hashes.push(await node.call('eth_sendRawTransaction', [raw]))
      await node.call('evm_mine')
    } finally {
      await node.call('evm_setAutomine', [true])
    }
    const receipt = await waitReceipt(node, hashes[1]!)
    expect(BigInt(receipt.gasUsed)).toBe(150_000n)
    const block = await node.call('eth_getBlockByNumber', [receipt.blockNumber, false])
    expect(BigInt(block.gasUsed)).toBe(342_000n)
    const history = await node.call('eth_feeHistory', ['0x1', receipt.blockNumber, [10, 60, 95]])
    // Thresholds 34,200, 205,200 and 324,900 of the header's 342,000; summed gas limits 21,000, 321,000,
    // 342,000 (weighing by the gas charged, 21,000, 171,000, 192,000, would put 60 at 30 wei).
    expect(history.reward).toEqual([['0x14', '0x14', '0x1e']])
    expect(history.baseFeePerGas[0]).toBe(block.baseFeePerGas)
    // After the head: the bound eth_baseFee answers (saevm: the worst case at the head's end).
    expect(history.baseFeePerGas[1]).toBe(await node.call('eth_baseFee'))
    expect(history.gasUsedRatio).toEqual([342_000 / Number(block.gasLimit)])
  })

  it("refuses misordered or out-of-range percentiles in saevm's words", async () => {
    expect((await node.rpc('eth_feeHistory', ['0x1', 'latest', [50, 10]])).error).toEqual({
      code: -32000,
      message: 'percentile out of range or misordered: index 1 (10.000000) must be greater than index 0 (50.000000)',
    })
    expect((await node.rpc('eth_feeHistory', ['0x1', 'latest', [101]])).error).toEqual({ code: -32000, message: 'percentile out of range or misordered: value 101.000000 at index 0' })
    // A count of 0 is checked after them, as saevm does.
    expect((await node.rpc('eth_feeHistory', ['0x0', 'latest', [-1]])).error?.message).toBe('percentile out of range or misordered: value -1.000000 at index 0')
  })
})

// Cases of subnet-evm plugin/evm/customheader/block_gas_cost_test.go (TestBlockGasCost,
// TestBlockGasCostWithStep, TestVerifyBlockFee) and plugin/evm/blockgascost/cost_test.go.
import { describe, expect, it } from 'vitest'
import { blockGasCost, blockGasCostWithStep, calcBlockGasCost, verifyBlockFee } from '../../../../src/subnetevm/fees/blockGasCost.js'
import { FEE_CONFIGS, FORTUNA, GRANITE, PRE_SUBNET_EVM, TEST_FEE_CONFIG } from './testFeeConfigs.js'

const MAX_UINT64 = (1n << 64n) - 1n

describe.each(FEE_CONFIGS)('block gas cost (%s fee config)', (_name, fc) => {
  const { maxBlockGasCost: max, minBlockGasCost: min, blockGasCostStep: step, targetBlockRate: rate } = fc

  it('follows the upgrades (TestBlockGasCost)', () => {
    expect(blockGasCost(PRE_SUBNET_EVM, fc, { timestamp: 10n, blockGasCost: max }, 10n + rate + 1n)).toBeUndefined()
    expect(blockGasCost(FORTUNA, fc, { timestamp: 10n, blockGasCost: max }, 10n + rate + 1n)).toBe(max - step)
    expect(blockGasCost(FORTUNA, fc, { timestamp: 10n, blockGasCost: min }, 9n)).toBe(min + step * rate)
    expect(blockGasCost(GRANITE, fc, { timestamp: 10n, blockGasCost: max }, 10n + rate + 1n)).toBe(0n)
  })

  it('steps from the parent cost (TestBlockGasCostWithStep)', () => {
    const cases: [bigint | undefined, bigint, bigint][] = [
      [undefined, 0n, min],
      [0n, 0n, rate * step],
      [0n, 1n, (rate - 1n) * step],
      [50_000n, 0n, 50_000n + rate * step],
      [max, 0n, max],
      [max, 1n, max],
      [900_000n, rate, 900_000n],
      [max, rate + 1n, max - step],
      [max, rate + 10n, max - 10n * step],
      [max, rate + 15n, max - 15n * step],
      [max, rate + 100n, min],
    ]
    for (const [parentCost, elapsed, expected] of cases) expect(blockGasCostWithStep(fc, parentCost, step, elapsed)).toBe(expected)
  })

  it('clamps and saturates (blockgascost/cost_test.go)', () => {
    expect(calcBlockGasCost(fc, 500n, 100n, 0n)).toBe(500n + 100n * rate)
    expect(calcBlockGasCost(fc, 3n, 100n, rate)).toBe(3n)
    expect(calcBlockGasCost(fc, 500n, 100n, 2n * rate)).toBe(500n - 100n * rate)
    expect(calcBlockGasCost(fc, 500n, MAX_UINT64, 0n)).toBe(max)
    expect(calcBlockGasCost(fc, MAX_UINT64, 1n, 0n)).toBe(max)
    expect(calcBlockGasCost(fc, max, 100n, rate - 1n)).toBe(max)
  })
})

describe('verifyBlockFee (TestVerifyBlockFee)', () => {
  const legacy = (gasPrice: bigint, gasUsed: bigint) => ({ gasTipCap: gasPrice, gasFeeCap: gasPrice, gasUsed })
  const cost = (parentCost: bigint, elapsed: bigint) => blockGasCostWithStep(TEST_FEE_CONFIG, parentCost, TEST_FEE_CONFIG.blockGasCostStep, elapsed)
  const insufficient = expect.objectContaining({ code: 'ErrInsufficientBlockGas' })

  it('asks the tips to buy the block gas cost at the base fee', () => {
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [legacy(100n, 1000n)])).toThrow(insufficient)
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [legacy(200n, 100_000n)])).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [legacy(200n, 100_000n), legacy(100n, 100_000n)])).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [legacy(150n, 100_000n), legacy(150n, 100_000n)])).not.toThrow()
  })

  it('counts an extra contribution', () => {
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [legacy(150n, 100_000n)], 5_000_000n)).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [], 9_999_999n)).toThrow(insufficient)
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [], -1n)).toThrow(expect.objectContaining({ code: 'errInvalidExtraStateChangeContribution' }))
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [], 10_000_000n)).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(0n, 0n), [], 10_000_001n)).not.toThrow()
  })

  it('asks nothing once the cost has decayed to 0', () => {
    expect(() => verifyBlockFee(100n, cost(500_000n, TEST_FEE_CONFIG.targetBlockRate + 10n), [legacy(100n, 1000n)])).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(100_000n, MAX_UINT64), [legacy(100n, 1000n)])).not.toThrow()
    expect(() => verifyBlockFee(100n, cost(0n, TEST_FEE_CONFIG.targetBlockRate + 1n), [])).not.toThrow()
  })

  it('rejects a missing base fee or cost and a fee cap under the base fee', () => {
    expect(() => verifyBlockFee(undefined, 0n, [])).toThrow(expect.objectContaining({ code: 'errInvalidBaseFee' }))
    expect(() => verifyBlockFee(100n, undefined, [])).toThrow(expect.objectContaining({ code: 'errInvalidRequiredBlockGasCost' }))
    expect(() => verifyBlockFee(100n, 1n, [legacy(99n, 1n)])).toThrow(expect.objectContaining({ code: 'ErrGasFeeCapTooLow' }))
  })
})

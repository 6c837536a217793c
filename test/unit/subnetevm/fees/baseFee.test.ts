// Cases of subnet-evm plugin/evm/customheader/base_fee_test.go (TestBaseFee, TestEstimateNextBaseFee),
// each run with testFeeConfig and testFeeConfigDouble.
import { describe, expect, it } from 'vitest'
import { baseFee, childFeeWindow, estimateNextBaseFee } from '../../../../src/subnetevm/fees/baseFee.js'
import { emptyWindow, WINDOW_LEN, windowBytes } from '../../../../src/subnetevm/fees/feeWindow.js'
import type { ParentHeader } from '../../../../src/subnetevm/fees/parentHeader.js'
import { FEE_CONFIGS, GRANITE, PRE_SUBNET_EVM, SUBNET_EVM } from './testFeeConfigs.js'

const MAX_BASE_FEE = 225_000_000_000n
const EMPTY = windowBytes(emptyWindow())
const parent = (p: Partial<ParentHeader>): ParentHeader => ({ number: 1n, timestamp: 0n, gasLimit: 0n, gasUsed: 0n, extraData: new Uint8Array(), ...p })
const windowMs = BigInt(WINDOW_LEN) * 1000n

describe.each(FEE_CONFIGS)('baseFee (%s fee config)', (_name, fc) => {
  const target = fc.targetGas
  const denominator = fc.baseFeeChangeDenominator
  const decrease = (parentFee: bigint, windows = 1n) => parentFee - (windows * ((target * parentFee) / target)) / denominator

  it('is undefined before SubnetEVM', () => {
    expect(baseFee(PRE_SUBNET_EVM, fc, parent({}), 0n)).toBeUndefined()
  })

  it('is minBaseFee on the first SubnetEVM block and after genesis', () => {
    expect(baseFee({ subnetEVMTimestamp: 1n }, fc, parent({ number: 1n }), 1000n)).toBe(fc.minBaseFee)
    expect(baseFee(SUBNET_EVM, fc, parent({ number: 0n }), 0n)).toBe(fc.minBaseFee)
  })

  it('fails on a parent window too short and on a time before the parent', () => {
    expect(() => baseFee(SUBNET_EVM, fc, parent({}), 0n)).toThrow(expect.objectContaining({ code: 'ErrWindowInsufficientLength' }))
    expect(() => baseFee(SUBNET_EVM, fc, parent({ timestamp: 1n, extraData: EMPTY }), 0n)).toThrow(
      expect.objectContaining({ code: 'errInvalidTimestamp', message: 'invalid timestamp: timestamp 0 prior to parent timestamp 1' }),
    )
  })

  it('keeps the base fee when the window used exactly the target', () => {
    expect(baseFee(SUBNET_EVM, fc, parent({ gasUsed: target, timestamp: 1n, extraData: EMPTY, baseFee: fc.minBaseFee + 1n }), 1000n)).toBe(fc.minBaseFee + 1n)
  })

  it('decreases under the target, once per 10 s elapsed beyond 20 s', () => {
    expect(baseFee(SUBNET_EVM, fc, parent({ extraData: EMPTY, baseFee: MAX_BASE_FEE }), 1000n)).toBe(decrease(MAX_BASE_FEE))
    expect(baseFee(SUBNET_EVM, fc, parent({ extraData: EMPTY, baseFee: MAX_BASE_FEE }), 2n * windowMs)).toBe(decrease(MAX_BASE_FEE, 2n))
  })

  it('increases over the target', () => {
    const p = parent({ gasUsed: 2n * target, extraData: EMPTY, baseFee: fc.minBaseFee })
    expect(baseFee(SUBNET_EVM, fc, p, 1000n)).toBe(fc.minBaseFee + (target * fc.minBaseFee) / target / denominator)
  })

  it('moves at least 1 wei and never below minBaseFee (subnet_evm_big_1_not_modified)', () => {
    expect(baseFee(SUBNET_EVM, fc, parent({ gasUsed: 1n, extraData: EMPTY, baseFee: 1n }), 2n * windowMs)).toBe(fc.minBaseFee)
  })

  it('rounds Granite times down to seconds', () => {
    expect(baseFee(GRANITE, fc, parent({ extraData: EMPTY, baseFee: MAX_BASE_FEE }), 2n * windowMs + 999n)).toBe(decrease(MAX_BASE_FEE, 2n))
  })

  it('estimates the next base fee (TestEstimateNextBaseFee)', () => {
    const p = parent({ extraData: EMPTY, baseFee: MAX_BASE_FEE })
    expect(estimateNextBaseFee(SUBNET_EVM, fc, p, 1000n)).toBe(decrease(MAX_BASE_FEE))
    expect(estimateNextBaseFee(GRANITE, fc, p, 1999n)).toBe(decrease(MAX_BASE_FEE))
  })

  it('estimates at the parent time when asked for an earlier one', () => {
    const p = parent({ timestamp: 5n, timeMilliseconds: 5500n, extraData: EMPTY, baseFee: MAX_BASE_FEE, gasUsed: target })
    expect(estimateNextBaseFee(GRANITE, fc, p, 0n)).toBe(MAX_BASE_FEE)
  })
})

describe('childFeeWindow', () => {
  it('adds the parent gas then shifts by the seconds elapsed (extra_test.go subnet_evm_normal)', () => {
    const p = parent({ gasUsed: 10_000_000n, extraData: windowBytes([1n, 2n, 3n, 4n, 0n, 0n, 0n, 0n, 0n, 0n]) })
    expect(childFeeWindow(SUBNET_EVM, p, 1n)).toEqual([2n, 3n, 4n, 0n, 0n, 0n, 0n, 0n, 10_000_000n, 0n])
  })
})

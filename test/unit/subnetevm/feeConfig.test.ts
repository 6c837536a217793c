import { describe, expect, it } from 'vitest'
import { chainFeeConfig, DEFAULT_FEE_CONFIG, type FeeConfig, FeeConfigJson, feeConfigsEqual, isEmptyFeeConfig, verifyFeeConfig } from '../../../src/subnetevm/feeConfig.js'
import { VALID_TEST_FEE_CONFIG } from './testFeeConfigs.js'

/* subnet-evm commontype/fee_config_test.go and params/extras/config.go DefaultFeeConfig. */

/** commontype.ValidTestFeeConfig. */
const VALID: FeeConfig = VALID_TEST_FEE_CONFIG

describe('the fee config', () => {
  it('defaults as subnet-evm’s DefaultFeeConfig', () => {
    expect(DEFAULT_FEE_CONFIG).toEqual(VALID)
    expect(verifyFeeConfig(DEFAULT_FEE_CONFIG)).toBeUndefined()
  })

  it.each([
    [{ gasLimit: undefined }, 'gasLimit cannot be nil'],
    [{ minBaseFee: undefined }, 'minBaseFee cannot be nil'],
    [{ blockGasCostStep: undefined }, 'blockGasCostStep cannot be nil'],
    [{ gasLimit: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
    [{ targetBlockRate: 0n }, 'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0'],
    [{ minBaseFee: -1n }, 'minBaseFee cannot be less than 0: minBaseFee = -1'],
    [{ targetGas: 0n }, 'targetGas cannot be less than or equal to 0: targetGas = 0'],
    [{ baseFeeChangeDenominator: 0n }, 'baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = 0'],
    [{ minBlockGasCost: -1n }, 'minBlockGasCost cannot be less than 0: minBlockGasCost = -1'],
    [{ minBlockGasCost: 2n, maxBlockGasCost: 1n }, 'minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 2, maxBlockGasCost = 1'],
    [{ blockGasCostStep: -1n }, 'blockGasCostStep cannot be less than 0: blockGasCostStep = -1'],
    [{ maxBlockGasCost: 1n << 64n }, 'maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616'],
    [{ gasLimit: 1n << 256n }, 'gasLimit exceeds hash length: 32 bytes'],
    [{ minBaseFee: 1n << 256n }, 'minBaseFee exceeds hash length: 32 bytes'],
    [{ blockGasCostStep: 1n << 256n }, 'blockGasCostStep exceeds hash length: 32 bytes'],
  ])('refuses %s: %s', (change, expected) => {
    expect(verifyFeeConfig({ ...VALID, ...change } as FeeConfig)).toBe(expected)
  })

  it('parses the JSON with absent and null fields as nil, and takes the default when every field is absent', () => {
    const partial = FeeConfigJson.parse({ gasLimit: 15_000_000, targetBlockRate: 2, minBaseFee: null, targetGas: 10n ** 20n })
    expect(partial).toEqual({ gasLimit: 15_000_000n, targetBlockRate: 2n, targetGas: 10n ** 20n })
    expect(verifyFeeConfig(partial)).toBe('minBaseFee cannot be nil')
    expect(isEmptyFeeConfig(FeeConfigJson.parse({}))).toBe(true)
    expect(isEmptyFeeConfig(FeeConfigJson.parse({ targetBlockRate: 1 }))).toBe(false)
    expect(chainFeeConfig(FeeConfigJson.parse({}))).toEqual(DEFAULT_FEE_CONFIG)
    expect(chainFeeConfig(undefined)).toEqual(DEFAULT_FEE_CONFIG)
    expect(chainFeeConfig(partial)).toBe(partial)
    expect(() => FeeConfigJson.parse({ targetBlockRate: -1 })).toThrow('expected a uint64')
    expect(() => FeeConfigJson.parse({ gasLimit: 1.5 })).toThrow()
  })

  it('compares field by field', () => {
    expect(feeConfigsEqual(VALID, { ...VALID })).toBe(true)
    expect(feeConfigsEqual(VALID, { ...VALID, gasLimit: 1n })).toBe(false)
    expect(feeConfigsEqual({ targetBlockRate: 0n }, { targetBlockRate: 0n })).toBe(true)
  })
})

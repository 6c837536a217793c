// Cases of subnet-evm plugin/evm/customheader/gas_limit_test.go (TestGasLimit, TestVerifyGasLimit, TestGasCapacity).
import { describe, expect, it } from 'vitest'
import { gasCapacity, gasLimit, verifyGasLimit, verifyGasUsed } from '../../../../src/subnetevm/fees/gasLimit.js'
import { FEE_CONFIGS, PRE_SUBNET_EVM, SUBNET_EVM } from './testFeeConfigs.js'

const MIN_GAS_LIMIT = 5000n
const MAX_GAS_LIMIT = 0x7fffffffffffffffn
const invalid = expect.objectContaining({ code: 'errInvalidGasLimit' })

describe.each(FEE_CONFIGS)('gas limit (%s fee config)', (_name, fc) => {
  it('is the fee config gasLimit from SubnetEVM, else the parent one', () => {
    expect(gasLimit(SUBNET_EVM, fc, { gasLimit: 0n }, 0n)).toBe(fc.gasLimit)
    expect(gasLimit(PRE_SUBNET_EVM, fc, { gasLimit: 1n }, 0n)).toBe(1n)
    expect(gasCapacity(SUBNET_EVM, fc, { gasLimit: 0n }, 0n)).toBe(fc.gasLimit)
  })

  it('verifies the header gasLimit', () => {
    expect(() => verifyGasLimit(SUBNET_EVM, fc, { gasLimit: 0n }, { gasLimit: fc.gasLimit, timestamp: 0n })).not.toThrow()
    expect(() => verifyGasLimit(SUBNET_EVM, fc, { gasLimit: 0n }, { gasLimit: fc.gasLimit + 1n, timestamp: 0n })).toThrow(
      expect.objectContaining({ code: 'errInvalidGasLimit', message: `invalid gas limit: expected to be ${fc.gasLimit} in Subnet-EVM, but found ${fc.gasLimit + 1n}` }),
    )
    expect(() => verifyGasLimit(PRE_SUBNET_EVM, fc, { gasLimit: 50_000n }, { gasLimit: 50_001n, timestamp: 0n })).not.toThrow()
    expect(() => verifyGasLimit(PRE_SUBNET_EVM, fc, { gasLimit: MIN_GAS_LIMIT }, { gasLimit: MIN_GAS_LIMIT - 1n, timestamp: 0n })).toThrow(invalid)
    expect(() => verifyGasLimit(PRE_SUBNET_EVM, fc, { gasLimit: MAX_GAS_LIMIT }, { gasLimit: MAX_GAS_LIMIT + 1n, timestamp: 0n })).toThrow(invalid)
    expect(() => verifyGasLimit(PRE_SUBNET_EVM, fc, { gasLimit: MIN_GAS_LIMIT }, { gasLimit: MAX_GAS_LIMIT, timestamp: 0n })).toThrow(invalid)
  })

  it('verifies the gas used against the capacity', () => {
    expect(() => verifyGasUsed(SUBNET_EVM, fc, { gasLimit: 0n }, { gasUsed: fc.gasLimit, timeMs: 0n })).not.toThrow()
    expect(() => verifyGasUsed(SUBNET_EVM, fc, { gasLimit: 0n }, { gasUsed: fc.gasLimit + 1n, timeMs: 0n })).toThrow(
      expect.objectContaining({ code: 'errInvalidGasUsed', message: `invalid gas used: have ${fc.gasLimit + 1n}, capacity ${fc.gasLimit}` }),
    )
  })
})

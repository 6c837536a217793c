import type { FeeConfig } from '../../../src/subnetevm/feeConfig.js'

/** The fee config subnet-evm's own tests write in a genesis (params tests' TestChainConfig, as JSON numbers). */
export const TESTS_FEE_CONFIG_JSON = {
  gasLimit: 200000000,
  minBaseFee: 1000000000,
  targetGas: 400000000,
  baseFeeChangeDenominator: 48,
  minBlockGasCost: 0,
  maxBlockGasCost: 10000000,
  targetBlockRate: 2,
  blockGasCostStep: 500000,
}

/** subnet-evm commontype.ValidTestFeeConfig. */
export const VALID_TEST_FEE_CONFIG: FeeConfig = {
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
}

/** VALID_TEST_FEE_CONFIG as a genesis or precompile config writes it (JSON numbers). */
export const VALID_TEST_FEE_CONFIG_JSON = Object.fromEntries(Object.entries(VALID_TEST_FEE_CONFIG).map(([k, v]) => [k, Number(v)]))

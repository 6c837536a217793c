// subnet-evm plugin/evm/customheader/block_gas_cost_test.go testFeeConfig and testFeeConfigDouble, and
// the params/extras/config.go Test*ChainConfig upgrade sets the customheader tests run under.
import type { FeeConfig } from '../../../../src/subnetevm/feeConfig.js'
import type { NetworkUpgrades } from '../../../../src/subnetevm/networkUpgrades.js'

const GWEI = 1_000_000_000n

export const TEST_FEE_CONFIG: FeeConfig = {
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  targetBlockRate: 2n,
  blockGasCostStep: 50_000n,
  targetGas: 10_000_000n,
  baseFeeChangeDenominator: 12n,
  minBaseFee: 25n * GWEI,
  gasLimit: 12_000_000n,
}

export const TEST_FEE_CONFIG_DOUBLE: FeeConfig = {
  minBlockGasCost: 2n,
  maxBlockGasCost: 2_000_000n,
  targetBlockRate: 4n,
  blockGasCostStep: 100_000n,
  targetGas: 20_000_000n,
  baseFeeChangeDenominator: 24n,
  minBaseFee: 50n * GWEI,
  gasLimit: 24_000_000n,
}

export const FEE_CONFIGS = [
  ['normal', TEST_FEE_CONFIG],
  ['double', TEST_FEE_CONFIG_DOUBLE],
] as const

export const PRE_SUBNET_EVM: NetworkUpgrades = {}
export const SUBNET_EVM: NetworkUpgrades = { subnetEVMTimestamp: 0n }
export const DURANGO: NetworkUpgrades = { ...SUBNET_EVM, durangoTimestamp: 0n }
export const FORTUNA: NetworkUpgrades = { ...DURANGO, etnaTimestamp: 0n, fortunaTimestamp: 0n }
export const GRANITE: NetworkUpgrades = { ...FORTUNA, graniteTimestamp: 0n }

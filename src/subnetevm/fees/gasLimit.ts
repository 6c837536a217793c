/**
 * The gas limit rule (subnet-evm plugin/evm/customheader/gas_limit.go): from SubnetEVM every
 * block's gasLimit is the fee config's gasLimit (read from the parent's state when the fee manager
 * is on), and it is also the block's gas capacity. Before SubnetEVM geth's rule held: within
 * [5000, 2^63 − 1] and less than parent/1024 away from the parent's.
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { isForked } from '../upgradesAt.js'
import type { FeeConfig } from '../feeConfig.js'

/** geth params.MinGasLimit, MaxGasLimit, GasLimitBoundDivisor. */
const MIN_GAS_LIMIT = 5000n
const MAX_GAS_LIMIT = 0x7fffffffffffffffn
const GAS_LIMIT_BOUND_DIVISOR = 1024n

type Upgrades = Pick<NetworkUpgrades, 'subnetEVMTimestamp'>
type GasLimitFeeConfig = Pick<FeeConfig, 'gasLimit'>

/** The gasLimit of a child at `timeMs`: the fee config's from SubnetEVM, else the parent's (gas_limit.go GasLimit). */
export function gasLimit(upgrades: Upgrades, feeConfig: GasLimitFeeConfig, parent: { gasLimit: bigint }, timeMs: bigint): bigint {
  return isForked(upgrades.subnetEVMTimestamp, timeMs / 1000n) ? BigInt.asUintN(64, feeConfig.gasLimit) : parent.gasLimit
}

/** The gas a child at `timeMs` may use: its gas limit (gas_limit.go GasCapacity). */
export const gasCapacity = gasLimit

/** Throws unless `header.gasLimit` is the one the rule gives (gas_limit.go VerifyGasLimit; `timestamp` in seconds). */
export function verifyGasLimit(upgrades: Upgrades, feeConfig: GasLimitFeeConfig, parent: { gasLimit: bigint }, header: { gasLimit: bigint; timestamp: bigint }): void {
  const fail = (text: string) => new SubnetEvmRuleError('errInvalidGasLimit', `invalid gas limit: ${text}`)
  if (isForked(upgrades.subnetEVMTimestamp, header.timestamp)) {
    const expected = BigInt.asUintN(64, feeConfig.gasLimit)
    if (header.gasLimit !== expected) throw fail(`expected to be ${expected} in Subnet-EVM, but found ${header.gasLimit}`)
    return
  }
  if (header.gasLimit < MIN_GAS_LIMIT || header.gasLimit > MAX_GAS_LIMIT) throw fail(`${header.gasLimit} not in range [${MIN_GAS_LIMIT}, ${MAX_GAS_LIMIT}]`)
  const diff = parent.gasLimit > header.gasLimit ? parent.gasLimit - header.gasLimit : header.gasLimit - parent.gasLimit
  const limit = parent.gasLimit / GAS_LIMIT_BOUND_DIVISOR
  if (diff >= limit) throw fail(`have ${header.gasLimit}, want ${parent.gasLimit} += ${limit}`)
}

/** Throws unless the header's gasUsed fits the capacity (gas_limit.go VerifyGasUsed; `timeMs` the header's ms time). */
export function verifyGasUsed(upgrades: Upgrades, feeConfig: GasLimitFeeConfig, parent: { gasLimit: bigint }, header: { gasUsed: bigint; timeMs: bigint }): void {
  const capacity = gasCapacity(upgrades, feeConfig, parent, header.timeMs)
  if (header.gasUsed > capacity) throw new SubnetEvmRuleError('errInvalidGasUsed', `invalid gas used: have ${header.gasUsed}, capacity ${capacity}`)
}

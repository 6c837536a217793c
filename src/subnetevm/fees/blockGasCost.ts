/**
 * The block gas cost (subnet-evm plugin/evm/customheader/block_gas_cost.go,
 * plugin/evm/blockgascost/cost.go): before Granite a block's transactions must tip, above the
 * base fee, at least blockGasCost · baseFee in all; the cost rises by blockGasCostStep for each
 * second a block comes sooner than targetBlockRate after its parent and falls as much for each
 * second later, within [minBlockGasCost, maxBlockGasCost]. From Granite it is 0.
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { isForked } from '../upgradesAt.js'
import type { FeeConfig } from '../feeConfig.js'
import type { ParentHeader } from './parentHeader.js'

const MAX_UINT64 = (1n << 64n) - 1n

export type BlockGasCostFeeConfig = Pick<FeeConfig, 'targetBlockRate' | 'minBlockGasCost' | 'maxBlockGasCost' | 'blockGasCostStep'>
type Upgrades = Pick<NetworkUpgrades, 'subnetEVMTimestamp' | 'graniteTimestamp'>

/** Go's big.Int.Uint64(): the low 64 bits. */
const u64 = (v: bigint) => BigInt.asUintN(64, v)

/**
 * parentCost + step · (targetBlockRate − timeElapsed), clamped to [min, max]; an overflowing
 * change or sum gives max, an underflow min (blockgascost/cost.go BlockGasCost).
 */
export function calcBlockGasCost(feeConfig: BlockGasCostFeeConfig, parentCost: bigint, step: bigint, timeElapsed: bigint): bigint {
  const target = feeConfig.targetBlockRate
  const deviation = target > timeElapsed ? target - timeElapsed : timeElapsed - target
  let change = step * deviation
  if (change > MAX_UINT64) change = MAX_UINT64
  const min = u64(feeConfig.minBlockGasCost)
  const max = u64(feeConfig.maxBlockGasCost)
  let cost: bigint
  if (timeElapsed > target) cost = parentCost >= change ? parentCost - change : min
  else cost = parentCost + change <= MAX_UINT64 ? parentCost + change : max
  if (cost < min) return min
  return cost > max ? max : cost
}

/** The cost after a parent of `parentCost` (undefined: minBlockGasCost) `timeElapsed` seconds later (block_gas_cost.go BlockGasCostWithStep). */
export function blockGasCostWithStep(feeConfig: BlockGasCostFeeConfig, parentCost: bigint | undefined, step: bigint, timeElapsed: bigint): bigint {
  if (parentCost === undefined) return u64(feeConfig.minBlockGasCost)
  return calcBlockGasCost(feeConfig, u64(parentCost), step, timeElapsed)
}

/**
 * The block gas cost of a child of `parent` at `timestamp` (seconds): undefined before SubnetEVM,
 * 0 from Granite; a timestamp before the parent's counts as 0 s elapsed (block_gas_cost.go BlockGasCost).
 */
export function blockGasCost(upgrades: Upgrades, feeConfig: BlockGasCostFeeConfig, parent: Pick<ParentHeader, 'timestamp' | 'blockGasCost'>, timestamp: bigint): bigint | undefined {
  if (!isForked(upgrades.subnetEVMTimestamp, timestamp)) return undefined
  if (isForked(upgrades.graniteTimestamp, timestamp)) return 0n
  const timeElapsed = parent.timestamp <= timestamp ? timestamp - parent.timestamp : 0n
  return blockGasCostWithStep(feeConfig, parent.blockGasCost, u64(feeConfig.blockGasCostStep), timeElapsed)
}

/** A transaction of the block as the block fee check reads it: its fee caps and its receipt's gas. */
export interface BlockFeeTx {
  /** maxPriorityFeePerGas (a legacy transaction's gasPrice). */
  gasTipCap: bigint
  /** maxFeePerGas (a legacy transaction's gasPrice). */
  gasFeeCap: bigint
  /** The receipt's gasUsed. */
  gasUsed: bigint
}

/**
 * Throws unless the block's tips, Σ effectiveTip · gasUsed (+ `extraContribution`), buy at least
 * `requiredBlockGasCost` gas at the block's base fee (block_gas_cost.go VerifyBlockFee). A cost of
 * 0 (every Granite block) asks for nothing.
 */
export function verifyBlockFee(baseFee: bigint | undefined, requiredBlockGasCost: bigint | undefined, txs: readonly BlockFeeTx[], extraContribution?: bigint): void {
  if (baseFee === undefined || baseFee <= 0n) throw new SubnetEvmRuleError('errInvalidBaseFee', `invalid base fee: ${baseFee ?? '<nil>'}`)
  if (requiredBlockGasCost === undefined || requiredBlockGasCost < 0n || requiredBlockGasCost > MAX_UINT64) {
    throw new SubnetEvmRuleError('errInvalidRequiredBlockGasCost', `invalid block gas cost: ${requiredBlockGasCost ?? '<nil>'}`)
  }
  if (requiredBlockGasCost === 0n) return
  let total = 0n
  if (extraContribution !== undefined) {
    if (extraContribution < 0n) {
      throw new SubnetEvmRuleError('errInvalidExtraStateChangeContribution', `invalid extra state change contribution: ${extraContribution}`)
    }
    total += extraContribution
  }
  for (const tx of txs) {
    if (tx.gasFeeCap < baseFee) throw new SubnetEvmRuleError('ErrGasFeeCapTooLow', 'fee cap less than base fee')
    const above = tx.gasFeeCap - baseFee
    total += (tx.gasTipCap < above ? tx.gasTipCap : above) * tx.gasUsed
  }
  const blockGas = total / baseFee
  if (blockGas < requiredBlockGasCost) {
    throw new SubnetEvmRuleError('ErrInsufficientBlockGas', `insufficient gas to cover the block cost: expected ${requiredBlockGasCost} but got ${blockGas}`)
  }
}

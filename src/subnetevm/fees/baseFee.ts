/**
 * The base fee of a subnet-evm block from its parent's fee window (subnet-evm
 * plugin/evm/customheader/{base_fee.go,dynamic_fee_windower.go}). The window of the last 10
 * seconds is rolled to the child's time (whole seconds, even after Granite) and compared with the
 * fee config's targetGas: over it the base fee rises by parentBaseFee · over/targetGas /
 * baseFeeChangeDenominator (at least 1 wei), under it falls by as much, once per 10 s elapsed when
 * more than 20 s went by; it never drops below minBaseFee.
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { isForked } from '../upgradesAt.js'
import type { FeeConfig } from '../feeConfig.js'
import { addToWindow, emptyWindow, type FeeWindow, parseWindow, shiftWindow, WINDOW_LEN, windowSum } from './feeWindow.js'
import { headerTimeMilliseconds, type ParentHeader } from './parentHeader.js'

const MAX_UINT256 = (1n << 256n) - 1n

export type WindowFeeConfig = Pick<FeeConfig, 'minBaseFee' | 'targetGas' | 'baseFeeChangeDenominator'>
type Upgrades = Pick<NetworkUpgrades, 'subnetEVMTimestamp'>

/** Whether the child starts from an empty window and minBaseFee: the parent is the genesis or a pre-SubnetEVM block. */
function startsFresh(upgrades: Upgrades, parent: Pick<ParentHeader, 'number' | 'timestamp'>): boolean {
  return !isForked(upgrades.subnetEVMTimestamp, parent.timestamp) || parent.number === 0n
}

/**
 * The child's window at `timestamp` (seconds): the parent's window plus the parent's gasUsed,
 * shifted by the seconds elapsed (dynamic_fee_windower.go feeWindow). Only for SubnetEVM children.
 */
export function childFeeWindow(upgrades: Upgrades, parent: Pick<ParentHeader, 'number' | 'timestamp' | 'gasUsed' | 'extraData'>, timestamp: bigint): FeeWindow {
  if (startsFresh(upgrades, parent)) return emptyWindow()
  const window = parseWindow(parent.extraData)
  if (timestamp < parent.timestamp) {
    throw new SubnetEvmRuleError('errInvalidTimestamp', `invalid timestamp: timestamp ${timestamp} prior to parent timestamp ${parent.timestamp}`)
  }
  return shiftWindow(addToWindow(window, parent.gasUsed), timestamp - parent.timestamp)
}

/** Only for SubnetEVM children (dynamic_fee_windower.go baseFeeFromWindow). */
function baseFeeFromWindow(upgrades: Upgrades, feeConfig: WindowFeeConfig, parent: ParentHeader, timestamp: bigint): bigint {
  // Go reads the floor with big.Int.Int64() here: the low 64 bits, signed.
  if (startsFresh(upgrades, parent)) return BigInt.asIntN(64, feeConfig.minBaseFee)
  const totalGas = windowSum(childFeeWindow(upgrades, parent, timestamp))
  if (parent.baseFee === undefined) throw new SubnetEvmRuleError('errNilBaseFee', 'parent of a SubnetEVM block has no base fee')
  const target = BigInt.asUintN(64, feeConfig.targetGas)
  // At exactly the target the base fee is kept, even outside the bounds (kept so for legacy reasons).
  if (totalGas === target) return parent.baseFee
  const denominator = feeConfig.baseFeeChangeDenominator
  if (totalGas > target) {
    const delta = ((totalGas - target) * parent.baseFee) / target / denominator
    return clamp(feeConfig.minBaseFee, parent.baseFee + (delta > 1n ? delta : 1n))
  }
  let delta = ((target - totalGas) * parent.baseFee) / target / denominator
  if (delta < 1n) delta = 1n
  // Every WINDOW_LEN seconds without blocks applies the decrease once more.
  const windowsElapsed = (timestamp - parent.timestamp) / BigInt(WINDOW_LEN)
  if (windowsElapsed > 1n) delta *= windowsElapsed
  return clamp(feeConfig.minBaseFee, parent.baseFee - delta)
}

function clamp(lower: bigint, value: bigint): bigint {
  if (value < lower) return lower
  return value > MAX_UINT256 ? MAX_UINT256 : value
}

/**
 * The base fee of a child of `parent` at `timeMs`; undefined before SubnetEVM (base_fee.go
 * BaseFee). The window logic works in whole seconds: timeMs / 1000.
 */
export function baseFee(upgrades: Upgrades, feeConfig: WindowFeeConfig, parent: ParentHeader, timeMs: bigint): bigint | undefined {
  const timestamp = timeMs / 1000n
  if (!isForked(upgrades.subnetEVMTimestamp, timestamp)) return undefined
  return baseFeeFromWindow(upgrades, feeConfig, parent, timestamp)
}

/**
 * The base fee of a block built at `timeMs` on `parent`, the time raised to the parent's when
 * earlier (base_fee.go EstimateNextBaseFee; eth_baseFee, eth_gasPrice). For estimates only.
 */
export function estimateNextBaseFee(upgrades: Upgrades, feeConfig: WindowFeeConfig, parent: ParentHeader, timeMs: bigint): bigint | undefined {
  const parentMs = headerTimeMilliseconds(parent)
  return baseFee(upgrades, feeConfig, parent, timeMs > parentMs ? timeMs : parentMs)
}

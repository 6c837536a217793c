/**
 * The fee, extra-data and time fields a subnet-evm builder gives a child of `parent` at `timeMs`
 * (subnet-evm miner/worker.go commitNewWork, consensus/dummy/consensus.go FinalizeAndAssemble).
 * The fee config is the one at the parent (the fee manager's stored config when it is on).
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { upgradesAt } from '../upgradesAt.js'
import { baseFee, childFeeWindow } from './baseFee.js'
import { blockGasCost } from './blockGasCost.js'
import { builtExtra } from './extra.js'
import type { FeeConfig } from '../feeConfig.js'
import type { FeeWindow } from './feeWindow.js'
import { gasLimit } from './gasLimit.js'
import { minDelayExcess } from './minDelayExcess.js'
import type { ParentHeader } from './parentHeader.js'

/** The child's fields; an absent one is not in the header at that time (Go's nil). */
export interface NextBlockFees {
  /** Seconds: timeMs / 1000. */
  timestamp: bigint
  /** Granite. */
  timeMilliseconds?: bigint
  gasLimit: bigint
  /** SubnetEVM. */
  baseFee?: bigint
  /** SubnetEVM; 0 from Granite. */
  blockGasCost?: bigint
  /** The child's own fee window (SubnetEVM), which its extraData starts with. */
  extraWindow?: FeeWindow
  /** The window, then from Durango the predicate results. */
  extraData: Uint8Array
  /** Granite. */
  minDelayExcess?: bigint
  /** Etna (Cancun): blobGasUsed, excessBlobGas and parentBeaconRoot, always 0, 0 and the zero hash. */
  blobGasUsed?: bigint
  excessBlobGas?: bigint
  parentBeaconRoot?: Uint8Array
}

export interface NextBlockOptions {
  /** The builder's target ACP-226 excess (config `min-delay-target` through DesiredDelayExcess). */
  desiredDelayExcess?: bigint
  /** The block's predicate results bytes (Durango+); the empty results when left out. */
  predicateResults?: Uint8Array
}

/**
 * The header fields of a child at `timeMs` (a time GetNextTimestamp chose; see headerTime.ts).
 * Throws what the rules throw: a parent window too short, a time before the parent's, a Granite
 * parent without an excess.
 */
export function nextBlockFees(upgrades: Readonly<NetworkUpgrades>, feeConfig: Readonly<FeeConfig>, parent: ParentHeader, timeMs: bigint, options: NextBlockOptions = {}): NextBlockFees {
  const timestamp = timeMs / 1000n
  const rules = upgradesAt(upgrades, timestamp)
  const out: NextBlockFees = {
    timestamp,
    gasLimit: gasLimit(upgrades, feeConfig, parent, timeMs),
    baseFee: baseFee(upgrades, feeConfig, parent, timeMs),
    blockGasCost: blockGasCost(upgrades, feeConfig, parent, timestamp),
    extraData: builtExtra(upgrades, parent, timestamp, options.predicateResults),
    minDelayExcess: minDelayExcess(upgrades, parent, timestamp, options.desiredDelayExcess),
  }
  if (rules.isSubnetEVM) out.extraWindow = childFeeWindow(upgrades, parent, timestamp)
  if (rules.isGranite) out.timeMilliseconds = timeMs
  if (rules.isEtna) {
    out.blobGasUsed = 0n
    out.excessBlobGas = 0n
    out.parentBeaconRoot = new Uint8Array(32)
  }
  return out
}

/**
 * The fee config a block is built and verified with: the one at its parent (subnet-evm
 * core/blockchain_reader.go GetFeeConfigAt), since a block cannot change its own. Also eth_feeConfig's answer.
 */
import { DEFAULT_FEE_CONFIG, type FeeConfig } from './feeConfig.js'
import type { NetworkUpgrades } from './networkUpgrades.js'
import { isForked } from './upgradesAt.js'

export interface FeeConfigAt {
  feeConfig: FeeConfig
  /** The block number the fee manager last changed it at: 0 without a fee manager, undefined (Go nil) before SubnetEVM. */
  lastChangedAt?: bigint
}

/**
 * The fee config at a parent of time `parentTime` (seconds): the default before SubnetEVM, the
 * genesis config while the fee manager precompile is off at the parent, else what the fee manager
 * stored in the parent's state (`stored`; subnet-evm verifies it and fails on an invalid one).
 */
export function feeConfigAt(
  config: { upgrades: Pick<NetworkUpgrades, 'subnetEVMTimestamp'>; feeConfig: FeeConfig },
  parentTime: bigint,
  stored?: { feeConfig: FeeConfig; lastChangedAt: bigint },
): FeeConfigAt {
  if (!isForked(config.upgrades.subnetEVMTimestamp, parentTime)) return { feeConfig: { ...DEFAULT_FEE_CONFIG } }
  if (stored === undefined) return { feeConfig: config.feeConfig, lastChangedAt: 0n }
  return { feeConfig: stored.feeConfig, lastChangedAt: stored.lastChangedAt }
}

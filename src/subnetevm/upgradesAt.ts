/**
 * Which of subnet-evm's upgrades are active at a block time (subnet-evm
 * params/extras/network_upgrades.go GetAvalancheRules): an upgrade is on when its timestamp ≤ t.
 */
import type { NetworkUpgrades } from './networkUpgrades.js'

/** subnet-evm's AvalancheRules; the JSON of eth_getActiveRulesAt's `avalancheRules` uses these names capitalised. */
export interface AvalancheRules {
  isSubnetEVM: boolean
  isDurango: boolean
  isEtna: boolean
  isFortuna: boolean
  isGranite: boolean
  isHelicon: boolean
}

/** Whether a fork scheduled at `fork` is active at `time` (extras/config.go isTimestampForked). */
export function isForked(fork: bigint | undefined, time: bigint | number): boolean {
  return fork !== undefined && fork <= BigInt(time)
}

/** The upgrades active at `time` (seconds). */
export function upgradesAt(upgrades: Readonly<NetworkUpgrades>, time: bigint | number): AvalancheRules {
  return {
    isSubnetEVM: isForked(upgrades.subnetEVMTimestamp, time),
    isDurango: isForked(upgrades.durangoTimestamp, time),
    isEtna: isForked(upgrades.etnaTimestamp, time),
    isFortuna: isForked(upgrades.fortunaTimestamp, time),
    isGranite: isForked(upgrades.graniteTimestamp, time),
    isHelicon: isForked(upgrades.heliconTimestamp, time),
  }
}

/**
 * Whether `fork` activates between a parent at `parent` and a block at `current`; a parent of
 * undefined is the genesis transition (extras/config.go IsForkTransition). Precompile
 * activations and state upgrades apply on such a transition.
 */
export function isForkTransition(fork: bigint | undefined, parent: bigint | undefined, current: bigint): boolean {
  const parentForked = parent !== undefined && isForked(fork, parent)
  return !parentForked && isForked(fork, current)
}

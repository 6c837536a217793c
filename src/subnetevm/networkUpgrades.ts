/**
 * subnet-evm's network upgrades: their timestamps, the defaults a network gives them, and their
 * verification (subnet-evm params/extras/network_upgrades.go; avalanchego upgrade/upgrade.go,
 * releases/v1.15.0-fuji). A timestamp is in seconds; undefined = never (Go's nil). An upgrade is
 * active at time t when its timestamp ≤ t.
 */
import { SubnetEvmRuleError } from './ruleError.js'

/** The upgrades' timestamps as the chain config's JSON names them (nil = not scheduled). */
export interface NetworkUpgrades {
  subnetEVMTimestamp?: bigint
  durangoTimestamp?: bigint
  etnaTimestamp?: bigint
  /** Optional: Fortuna changes nothing in subnet-evm, and its default is nil. */
  fortunaTimestamp?: bigint
  graniteTimestamp?: bigint
  heliconTimestamp?: bigint
}

/** The chain config keys of the upgrades, in activation order (network_upgrades.go forkOrder). */
export const NETWORK_UPGRADE_KEYS = ['subnetEVMTimestamp', 'durangoTimestamp', 'etnaTimestamp', 'fortunaTimestamp', 'graniteTimestamp', 'heliconTimestamp'] as const
export type NetworkUpgradeKey = (typeof NETWORK_UPGRADE_KEYS)[number]

/** 2020-12-05T05:00:00Z: when every upgrade is active on a local network (upgrade.go InitiallyActiveTime). */
export const INITIALLY_ACTIVE_TIME = 1_607_144_400n
/** 9999-12-01T00:00:00Z: an upgrade not scheduled (upgrade.go UnscheduledActivationTime). */
export const UNSCHEDULED_ACTIVATION_TIME = 253_399_622_400n

/** avalanchego's upgrade times a subnet-evm chain reads (upgrade.Config), in seconds. */
export interface AvalancheUpgradeTimes {
  durango: bigint
  etna: bigint
  fortuna: bigint
  granite: bigint
  helicon: bigint
}

/**
 * upgrade.Default, what every network but Mainnet and Fuji runs (a local network): all upgrades at
 * InitiallyActiveTime except Helicon, unscheduled in releases/v1.15.0-fuji. (Its `helicon-fuji`
 * branch moves the local Helicon to InitiallyActiveTime; pass `helicon` to follow it.)
 */
export const LOCAL_UPGRADE_TIMES: Readonly<AvalancheUpgradeTimes> = Object.freeze({
  durango: INITIALLY_ACTIVE_TIME,
  etna: INITIALLY_ACTIVE_TIME,
  fortuna: INITIALLY_ACTIVE_TIME,
  granite: INITIALLY_ACTIVE_TIME,
  helicon: UNSCHEDULED_ACTIVATION_TIME,
})

/** upgrade.Mainnet: Durango 2024-03-06T16Z, Etna 2024-12-16T17Z, Fortuna 2025-04-08T15Z, Granite 2025-11-19T16Z; Helicon unscheduled. */
export const MAINNET_UPGRADE_TIMES: Readonly<AvalancheUpgradeTimes> = Object.freeze({
  durango: 1_709_740_800n,
  etna: 1_734_368_400n,
  fortuna: 1_744_124_400n,
  granite: 1_763_568_000n,
  helicon: UNSCHEDULED_ACTIVATION_TIME,
})

/** upgrade.Fuji: Durango 2024-02-13T16Z, Etna 2024-11-25T16Z, Fortuna 2025-03-13T15Z, Granite 2025-10-29T15Z, Helicon 2026-07-28T15Z. */
export const FUJI_UPGRADE_TIMES: Readonly<AvalancheUpgradeTimes> = Object.freeze({
  durango: 1_707_840_000n,
  etna: 1_732_550_400n,
  fortuna: 1_741_878_000n,
  granite: 1_761_750_000n,
  helicon: 1_785_250_800n,
})

/** avalanchego's upgrade times for a network ID (upgrade.go GetConfig: 1 = Mainnet, 5 = Fuji, any other = Default). */
export function avalancheUpgradeTimes(networkId: number): Readonly<AvalancheUpgradeTimes> {
  if (networkId === 1) return MAINNET_UPGRADE_TIMES
  if (networkId === 5) return FUJI_UPGRADE_TIMES
  return LOCAL_UPGRADE_TIMES
}

/**
 * The upgrades a network gives a subnet-evm chain (network_upgrades.go GetNetworkUpgrades):
 * SubnetEVM at 0, Fortuna nil (optional, no effect), the others at avalanchego's times.
 */
export function defaultNetworkUpgrades(times: Readonly<AvalancheUpgradeTimes>): NetworkUpgrades {
  return {
    subnetEVMTimestamp: 0n,
    durangoTimestamp: times.durango,
    etnaTimestamp: times.etna,
    fortunaTimestamp: undefined,
    graniteTimestamp: times.granite,
    heliconTimestamp: times.helicon,
  }
}

/**
 * The config's upgrades with the network's defaults filled in (network_upgrades.go SetDefaults):
 * a missing timestamp, and also a 0 (what most tools write), takes the default.
 */
export function withNetworkUpgradeDefaults(upgrades: Readonly<NetworkUpgrades>, times: Readonly<AvalancheUpgradeTimes>): NetworkUpgrades {
  const defaults = defaultNetworkUpgrades(times)
  const out: NetworkUpgrades = {}
  for (const key of NETWORK_UPGRADE_KEYS) {
    const value = upgrades[key]
    out[key] = value === undefined || value === 0n ? defaults[key] : value
  }
  return out
}

/** Each timestamp set in `overrides` replaces the config's (network_upgrades.go Override; upgrade bytes' networkUpgradeOverrides). */
export function overrideNetworkUpgrades(upgrades: Readonly<NetworkUpgrades>, overrides: Readonly<NetworkUpgrades>): NetworkUpgrades {
  const out: NetworkUpgrades = { ...upgrades }
  for (const key of NETWORK_UPGRADE_KEYS) if (overrides[key] !== undefined) out[key] = overrides[key]
  return out
}

const VERIFY_NAMES: Record<NetworkUpgradeKey, string> = {
  subnetEVMTimestamp: 'subnetEVM',
  durangoTimestamp: 'durango',
  etnaTimestamp: 'etna',
  fortunaTimestamp: 'fortuna',
  graniteTimestamp: 'granite',
  heliconTimestamp: 'helicon',
}

/** Why `value` may not stand against the network's default, or undefined (network_upgrades.go verifyWithDefault). */
function defaultViolation(value: bigint | undefined, fallback: bigint | undefined): SubnetEvmRuleError | undefined {
  if (fallback === undefined) return undefined
  if (value === undefined) {
    return fallback >= UNSCHEDULED_ACTIVATION_TIME ? undefined : new SubnetEvmRuleError('errCannotBeNil', 'timestamp cannot be nil')
  }
  if (value === 0n && fallback <= INITIALLY_ACTIVE_TIME) return undefined
  if (value < fallback) {
    return new SubnetEvmRuleError('errTimestampTooEarly', `provided timestamp must be greater than or equal to the default timestamp: provided timestamp ${value}, default timestamp ${fallback}`)
  }
  return undefined
}

/**
 * Throws unless every upgrade is at or after the network's default (network_upgrades.go
 * verifyNetworkUpgrades); e.g. "durango fork block timestamp is invalid: timestamp cannot be nil".
 */
export function verifyNetworkUpgrades(upgrades: Readonly<NetworkUpgrades>, times: Readonly<AvalancheUpgradeTimes>): void {
  const defaults = defaultNetworkUpgrades(times)
  for (const key of NETWORK_UPGRADE_KEYS) {
    const violation = defaultViolation(upgrades[key], defaults[key])
    if (violation) throw new SubnetEvmRuleError(violation.code, `${VERIFY_NAMES[key]} fork block timestamp is invalid: ${violation.message}`)
  }
}

/** A fork of the ordering check: a block number (geth's) or a timestamp, and whether it may be left out. */
export interface OrderedFork {
  name: string
  block?: bigint
  timestamp?: bigint
  optional?: boolean
}

/**
 * Throws "unsupported fork ordering: …" unless the forks are enabled in order, none left out
 * before a later one but the optional ones (extras/config.go checkForks, libevm params/config.go
 * CheckConfigForkOrder; Go prints subnet-evm's timestamps as pointers, here as their values).
 */
export function checkForkOrder(forks: readonly OrderedFork[]): void {
  const fail = (text: string) => new SubnetEvmRuleError('errUnsupportedForkOrdering', `unsupported fork ordering: ${text}`)
  let last: OrderedFork | undefined
  for (const cur of forks) {
    const curSet = cur.block !== undefined || cur.timestamp !== undefined
    if (last) {
      const lastSet = last.block !== undefined || last.timestamp !== undefined
      if (!lastSet && curSet) {
        throw fail(
          cur.block !== undefined ? `${last.name} not enabled, but ${cur.name} enabled at block ${cur.block}` : `${last.name} not enabled, but ${cur.name} enabled at timestamp ${cur.timestamp}`,
        )
      }
      if ((last.block !== undefined && cur.block !== undefined) || (last.timestamp !== undefined && cur.timestamp !== undefined)) {
        if (last.block !== undefined && last.block > cur.block!) throw fail(`${last.name} enabled at block ${last.block}, but ${cur.name} enabled at block ${cur.block}`)
        if (last.timestamp !== undefined && last.timestamp > cur.timestamp!) {
          throw fail(`${last.name} enabled at timestamp ${last.timestamp}, but ${cur.name} enabled at timestamp ${cur.timestamp}`)
        }
        if (last.timestamp !== undefined && cur.block !== undefined) throw fail(`${last.name} used timestamp ordering, but ${cur.name} reverted to block ordering`)
      }
    }
    if (!cur.optional || curSet) last = cur
  }
}

/** The Avalanche upgrades' ordering check (network_upgrades.go forkOrder: Fortuna alone is optional). */
export function checkNetworkUpgradeOrder(upgrades: Readonly<NetworkUpgrades>): void {
  checkForkOrder(NETWORK_UPGRADE_KEYS.map((name) => ({ name, timestamp: upgrades[name], optional: name === 'fortunaTimestamp' })))
}

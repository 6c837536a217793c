import { bytesToHex } from '@ethereumjs/util'
import { verifyFeeConfig } from '../feeConfig.js'
import { formatAddress } from './abi.js'
import type { AllowListConfig, PrecompileConfig, UpgradeFields } from './config.js'

/*
 * Config verification with subnet-evm's error texts: each module's Verify (subnet-evm precompile/
 * allowlist/config.go, contracts/<name>/config.go) and the schedule's rules
 * (subnet-evm params/extras/precompile_upgrade.go verifyPrecompileUpgrades).
 */

/** Whether Durango is active at a time (the chain config's IsDurango). */
export type IsDurango = (time: bigint) => boolean

/** AllowListConfig.Verify. */
function verifyAllowList(c: AllowListConfig, upgrade: UpgradeFields, isDurango: IsDurango): string | undefined {
  const seen = new Map<string, 'enabled' | 'admin' | 'manager'>()
  for (const a of c.enabledAddresses) {
    if (seen.has(bytesToHex(a))) return `duplicate address in enabled list: ${formatAddress(a)}`
    seen.set(bytesToHex(a), 'enabled')
  }
  for (const a of c.adminAddresses) {
    const role = seen.get(bytesToHex(a))
    if (role !== undefined) return role === 'admin' ? `duplicate address in admin list: ${formatAddress(a)}` : `cannot set address as both admin and enabled: ${formatAddress(a)}`
    seen.set(bytesToHex(a), 'admin')
  }
  if (c.managerAddresses.length !== 0 && upgrade.blockTimestamp !== undefined && !isDurango(upgrade.blockTimestamp)) return 'cannot add managers before Durango'
  for (const a of c.managerAddresses) {
    const role = seen.get(bytesToHex(a))
    if (role === 'manager') return `duplicate address in manager list: ${formatAddress(a)}`
    if (role === 'admin') return `cannot set address as both admin and manager: ${formatAddress(a)}`
    if (role === 'enabled') return `cannot set address as both enabled and manager: ${formatAddress(a)}`
    seen.set(bytesToHex(a), 'manager')
  }
  return undefined
}

const WARP_QUORUM_DENOMINATOR = 100n
const WARP_QUORUM_NUMERATOR_MINIMUM = 33n

/** The module's Config.Verify: undefined when valid, else the Go error's text. */
export function verifyPrecompileConfig(config: PrecompileConfig, isDurango: IsDurango): string | undefined {
  switch (config.key) {
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      return verifyAllowList(config, config, isDurango)
    case 'contractNativeMinterConfig':
      for (const { address, amount } of config.initialMint) {
        if (amount === undefined) return `initial mint cannot contain nil amount for address ${formatAddress(address)}`
        if (amount < 1n) return `initial mint cannot contain invalid amount: amount ${amount} for address ${formatAddress(address)}`
      }
      return verifyAllowList(config, config, isDurango)
    case 'feeManagerConfig':
      return verifyAllowList(config, config, isDurango) ?? (config.initialFeeConfig === undefined ? undefined : verifyFeeConfig(config.initialFeeConfig))
    case 'rewardManagerConfig': {
      const initial = config.initialRewardConfig
      if (initial?.allowFeeRecipients === true && initial.rewardAddress.some((b) => b !== 0)) return 'cannot enable both fee recipients and reward address at the same time'
      return verifyAllowList(config, config, isDurango)
    }
    case 'warpConfig':
      if (config.blockTimestamp !== undefined && !isDurango(config.blockTimestamp)) return 'warp cannot be activated before Durango'
      if (config.quorumNumerator > WARP_QUORUM_DENOMINATOR) return `invalid warp quorum ratio: cannot specify numerator (${config.quorumNumerator}) > denominator (${WARP_QUORUM_DENOMINATOR})`
      if (config.quorumNumerator !== 0n && config.quorumNumerator < WARP_QUORUM_NUMERATOR_MINIMUM)
        return `invalid warp quorum ratio: cannot specify numerator (${config.quorumNumerator}) < min numerator (${WARP_QUORUM_NUMERATOR_MINIMUM})`
      return undefined
  }
}

/** The genesis configs and upgrade.json's, as config.ts parses them. */
export interface PrecompileSchedule {
  /** At most one per key, in module order. */
  genesis: readonly PrecompileConfig[]
  upgrades: readonly PrecompileConfig[]
}

/**
 * verifyPrecompileUpgrades: each genesis config verifies; the upgrades' timestamps are set and never
 * decrease; each key alternates enabled and disabled, strictly later each time. Undefined when
 * well formed, else the Go error's text (ChainConfig.Verify prefixes "invalid precompile upgrades: ").
 * Go visits the genesis configs in map order; they are visited in module order here.
 */
export function verifyPrecompileUpgrades(schedule: PrecompileSchedule, isDurango: IsDurango): string | undefined {
  const last = new Map<string, { timestamp: bigint; disabled: boolean }>()
  for (const config of schedule.genesis) {
    const invalid = verifyPrecompileConfig(config, isDurango)
    if (invalid !== undefined) return invalid
    // A genesis config counts as enabling, even one marked disable.
    if (config.blockTimestamp !== undefined) last.set(config.key, { timestamp: config.blockTimestamp, disabled: false })
  }
  let previous: bigint | undefined
  for (const [i, upgrade] of schedule.upgrades.entries()) {
    const key = upgrade.key
    const before = last.get(key)
    const disabled = before?.disabled ?? true
    const timestamp = upgrade.blockTimestamp
    if (timestamp === undefined) return `precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (${key}) at [${i}]`
    if (previous !== undefined && timestamp < previous)
      return `precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${timestamp}, previous timestamp ${previous}`
    if (disabled === upgrade.disable) return `precompile upgrade disable value is invalid: PrecompileUpgrade (${key}) at [${i}], disable should be ${!disabled}`
    if (before !== undefined && timestamp <= before.timestamp)
      return `precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${timestamp}, previous timestamp of same key ${before.timestamp}`
    const invalid = verifyPrecompileConfig(upgrade, isDurango)
    if (invalid !== undefined) return invalid
    last.set(key, { timestamp, disabled: upgrade.disable })
    previous = timestamp
  }
  return undefined
}

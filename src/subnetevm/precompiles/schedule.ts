import type { PrecompileConfig } from './config.js'
import { PRECOMPILE_MODULES, type PrecompileKey } from './modules.js'
import type { PrecompileSchedule } from './verifyConfig.js'

/*
 * When each precompile config takes effect (subnet-evm params/extras/precompile_upgrade.go
 * GetActivatingPrecompileConfigs, GetActivePrecompileConfig, EnabledStatefulPrecompiles and
 * config.go IsForkTransition): a config at time t activates in the first block whose timestamp is
 * at least t, i.e. between a parent below t and a block at or above it.
 */

/** IsForkTransition: the fork (absent: never) is reached at `current` and was not at `parent` (absent: genesis). */
export function isForkTransition(fork: bigint | undefined, parent: bigint | undefined, current: bigint): boolean {
  if (fork === undefined) return false
  const parentForked = parent !== undefined && fork <= parent
  return !parentForked && fork <= current
}

/** The configs of `key` that take effect from `parent` (absent: genesis) to `current`: the genesis one first, then upgrades in order. */
export function activatingConfigs(schedule: PrecompileSchedule, key: PrecompileKey, parent: bigint | undefined, current: bigint): PrecompileConfig[] {
  return [...schedule.genesis.filter((c) => c.key === key), ...schedule.upgrades.filter((c) => c.key === key)].filter((c) => isForkTransition(c.blockTimestamp, parent, current))
}

/** GetActivePrecompileConfig: the latest config of `key` in effect at `time` (possibly a disable), if any. */
export function activeConfig(schedule: PrecompileSchedule, key: PrecompileKey, time: bigint): PrecompileConfig | undefined {
  return activatingConfigs(schedule, key, undefined, time).at(-1)
}

/** EnabledStatefulPrecompiles: each key whose latest config at `time` enables it, with that config, in module order. */
export function enabledPrecompiles(schedule: PrecompileSchedule, time: bigint): Map<PrecompileKey, PrecompileConfig> {
  const enabled = new Map<PrecompileKey, PrecompileConfig>()
  for (const { key } of PRECOMPILE_MODULES) {
    const config = activeConfig(schedule, key, time)
    if (config !== undefined && !config.disable) enabled.set(key, config)
  }
  return enabled
}

/** Whether `key` is enabled at `time` (IsPrecompileEnabled; the rules of a block at that time). */
export function isPrecompileEnabled(schedule: PrecompileSchedule, key: PrecompileKey, time: bigint): boolean {
  const config = activeConfig(schedule, key, time)
  return config !== undefined && !config.disable
}

/** Every config that takes effect from `parent` (absent: genesis) to `current`, in the order ApplyPrecompileActivations applies them. */
export function precompileTransitions(schedule: PrecompileSchedule, parent: bigint | undefined, current: bigint): PrecompileConfig[] {
  return PRECOMPILE_MODULES.flatMap(({ key }) => activatingConfigs(schedule, key, parent, current))
}

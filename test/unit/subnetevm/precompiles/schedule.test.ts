import { describe, expect, it } from 'vitest'
import { parseGenesisPrecompiles, parsePrecompileUpgrades } from '../../../../src/subnetevm/precompiles/config.js'
import { activatingConfigs, activeConfig, enabledPrecompiles, isForkTransition, isPrecompileEnabled, precompileTransitions } from '../../../../src/subnetevm/precompiles/schedule.js'

/* subnet-evm params/extras/config.go IsForkTransition and precompile_upgrade.go's activation queries. */

const schedule = {
  genesis: parseGenesisPrecompiles({ txAllowListConfig: { blockTimestamp: 0 }, rewardManagerConfig: { blockTimestamp: 5 }, feeManagerConfig: {} }),
  upgrades: parsePrecompileUpgrades([
    { txAllowListConfig: { blockTimestamp: 10, disable: true } },
    { contractNativeMinterConfig: { blockTimestamp: 10 } },
    { txAllowListConfig: { blockTimestamp: 12 } },
  ]),
}

describe('the precompile schedule', () => {
  it('isForkTransition: reached at the block and not at its parent; a nil fork never', () => {
    expect(isForkTransition(5n, 4n, 5n)).toBe(true)
    expect(isForkTransition(5n, 5n, 6n)).toBe(false)
    expect(isForkTransition(5n, 1n, 100n)).toBe(true)
    expect(isForkTransition(5n, 1n, 4n)).toBe(false)
    expect(isForkTransition(0n, undefined, 0n)).toBe(true)
    expect(isForkTransition(undefined, undefined, 100n)).toBe(false)
  })

  it('lists the configs activating between a parent and a block, in module order then schedule order', () => {
    expect(precompileTransitions(schedule, undefined, 0n).map((c) => c.key)).toEqual(['txAllowListConfig'])
    expect(precompileTransitions(schedule, 0n, 4n)).toEqual([])
    expect(precompileTransitions(schedule, 4n, 5n).map((c) => c.key)).toEqual(['rewardManagerConfig'])
    expect(precompileTransitions(schedule, 9n, 13n).map((c) => [c.key, c.blockTimestamp, c.disable])).toEqual([
      ['contractNativeMinterConfig', 10n, false],
      ['txAllowListConfig', 10n, true],
      ['txAllowListConfig', 12n, false],
    ])
    expect(activatingConfigs(schedule, 'txAllowListConfig', undefined, 20n).map((c) => c.blockTimestamp)).toEqual([0n, 10n, 12n])
  })

  it('answers which config is active and which precompiles are enabled at a time', () => {
    expect(activeConfig(schedule, 'txAllowListConfig', 11n)).toMatchObject({ disable: true })
    expect(activeConfig(schedule, 'feeManagerConfig', 1_000n)).toBeUndefined()
    expect([...enabledPrecompiles(schedule, 4n).keys()]).toEqual(['txAllowListConfig'])
    expect([...enabledPrecompiles(schedule, 11n).keys()]).toEqual(['contractNativeMinterConfig', 'rewardManagerConfig'])
    expect([...enabledPrecompiles(schedule, 12n).keys()]).toEqual(['contractNativeMinterConfig', 'txAllowListConfig', 'rewardManagerConfig'])
    expect(isPrecompileEnabled(schedule, 'txAllowListConfig', 11n)).toBe(false)
    expect(isPrecompileEnabled(schedule, 'txAllowListConfig', 12n)).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { parsePrecompileConfig, parsePrecompileUpgrades } from '../../../../src/subnetevm/precompiles/config.js'
import type { PrecompileKey } from '../../../../src/subnetevm/precompiles/modules.js'
import { verifyPrecompileConfig, verifyPrecompileUpgrades } from '../../../../src/subnetevm/precompiles/verifyConfig.js'
import { VALID_TEST_FEE_CONFIG_JSON } from '../testFeeConfigs.js'

/*
 * subnet-evm's config verification: allowlisttest/test_allowlist_config.go for every allow list,
 * each module's config_test.go, and params/extras/precompile_upgrade_test.go for the schedule.
 */

const ADMIN = '0x0000000000000000000000000000000000000011'
const ENABLED = '0x0000000000000000000000000000000000000022'
const MANAGER = '0x0000000000000000000000000000000000000044'
const DURANGO = 10n
const isDurango = (t: bigint) => t >= DURANGO
const verify = (key: PrecompileKey, json: unknown) => verifyPrecompileConfig(parsePrecompileConfig(key, json), isDurango)

describe.each(['contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'txAllowListConfig', 'feeManagerConfig', 'rewardManagerConfig'] as const)('the allow list config of %s', (key) => {
  it.each([
    [{ adminAddresses: [ADMIN, ADMIN] }, `duplicate address in admin list: ${ADMIN}`],
    [{ enabledAddresses: [ENABLED, ENABLED] }, `duplicate address in enabled list: ${ENABLED}`],
    [{ managerAddresses: [MANAGER, MANAGER] }, `duplicate address in manager list: ${MANAGER}`],
    [{ adminAddresses: [ADMIN], enabledAddresses: [ADMIN] }, `cannot set address as both admin and enabled: ${ADMIN}`],
    [{ adminAddresses: [ADMIN], managerAddresses: [ADMIN] }, `cannot set address as both admin and manager: ${ADMIN}`],
    [{ managerAddresses: [MANAGER], enabledAddresses: [MANAGER] }, `cannot set address as both enabled and manager: ${MANAGER}`],
    [{ blockTimestamp: 1, managerAddresses: [MANAGER] }, 'cannot add managers before Durango'],
    [{ blockTimestamp: Number(DURANGO), adminAddresses: [ADMIN], managerAddresses: [MANAGER], enabledAddresses: [ENABLED] }, undefined],
    [{ managerAddresses: [MANAGER] }, undefined],
    [{ adminAddresses: [], managerAddresses: [], enabledAddresses: [] }, undefined],
    [{}, undefined],
  ])('%j: %s', (json, expected) => {
    expect(verify(key, json)).toBe(expected)
  })

  it('names an address EIP-55 checksummed', () => {
    const a = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'
    expect(verify(key, { adminAddresses: [a, a] })).toBe('duplicate address in admin list: 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC')
  })
})

describe('the modules’ own fields', () => {
  it('native minter: no nil and no amount below 1', () => {
    expect(verify('contractNativeMinterConfig', { initialMint: { '0x0000000000000000000000000000000000000001': 123, '0x0000000000000000000000000000000000000002': null } })).toBe(
      'initial mint cannot contain nil amount for address 0x0000000000000000000000000000000000000002',
    )
    expect(verify('contractNativeMinterConfig', { initialMint: { '0x0000000000000000000000000000000000000002': '-1' } })).toBe(
      'initial mint cannot contain invalid amount: amount -1 for address 0x0000000000000000000000000000000000000002',
    )
    expect(verify('contractNativeMinterConfig', { adminAddresses: [ADMIN], enabledAddresses: [ADMIN], initialMint: { [ADMIN]: '0x0' } })).toBe(
      `initial mint cannot contain invalid amount: amount 0 for address ${ADMIN}`,
    )
  })

  it('fee manager: the allow list first, then the initial fee config', () => {
    const valid = { ...VALID_TEST_FEE_CONFIG_JSON }
    expect(verify('feeManagerConfig', { initialFeeConfig: valid })).toBeUndefined()
    expect(verify('feeManagerConfig', { initialFeeConfig: { ...valid, gasLimit: 0 } })).toBe('gasLimit cannot be less than or equal to 0: gasLimit = 0')
    expect(verify('feeManagerConfig', { initialFeeConfig: {} })).toBe('gasLimit cannot be nil')
    expect(verify('feeManagerConfig', { adminAddresses: [ADMIN, ADMIN], initialFeeConfig: {} })).toBe(`duplicate address in admin list: ${ADMIN}`)
  })

  it('reward manager: not both fee recipients and a reward address, checked before the allow list', () => {
    expect(verify('rewardManagerConfig', { adminAddresses: [ADMIN, ADMIN], initialRewardConfig: { allowFeeRecipients: true, rewardAddress: '0x0000000000000000000000000000000000000001' } })).toBe(
      'cannot enable both fee recipients and reward address at the same time',
    )
    expect(verify('rewardManagerConfig', { initialRewardConfig: { allowFeeRecipients: true } })).toBeUndefined()
  })

  it('warp: Durango, and a quorum numerator of 0 or 33 to 100', () => {
    expect(verify('warpConfig', { blockTimestamp: 1 })).toBe('warp cannot be activated before Durango')
    expect(verify('warpConfig', { blockTimestamp: DURANGO, quorumNumerator: 101 })).toBe('invalid warp quorum ratio: cannot specify numerator (101) > denominator (100)')
    expect(verify('warpConfig', { quorumNumerator: 32 })).toBe('invalid warp quorum ratio: cannot specify numerator (32) < min numerator (33)')
    expect(verify('warpConfig', { quorumNumerator: 33 })).toBeUndefined()
  })
})

describe('verifyPrecompileUpgrades', () => {
  const genesis = [parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 1, adminAddresses: ['0x0100000000000000000000000000000000000000'] })]
  const check = (upgrades: unknown[]) => verifyPrecompileUpgrades({ genesis, upgrades: parsePrecompileUpgrades(upgrades) }, isDurango)

  it('refuses what precompile_upgrade_test.go refuses', () => {
    expect(check([{ txAllowListConfig: { blockTimestamp: 2 } }])).toBe('precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be true')
    expect(check([{ txAllowListConfig: { blockTimestamp: 0, disable: true } }])).toBe(
      'precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (txAllowListConfig) at [0] has timestamp 0, previous timestamp of same key 1',
    )
    expect(check([{ txAllowListConfig: { blockTimestamp: 1, disable: true } }])).toMatch(/^precompile upgrade config block timestamp for same key must be strictly greater/)
  })

  it('accepts disable then re-enable, and refuses a missing or decreasing timestamp and a disable of what is off', () => {
    expect(check([{ txAllowListConfig: { blockTimestamp: 6, disable: true } }, { txAllowListConfig: { blockTimestamp: 7 } }])).toBeUndefined()
    expect(check([{ feeManagerConfig: {} }])).toBe('precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (feeManagerConfig) at [0]')
    expect(check([{ feeManagerConfig: { blockTimestamp: 5 } }, { contractNativeMinterConfig: { blockTimestamp: 4 } }])).toBe(
      'precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (contractNativeMinterConfig) at [1] has timestamp 4, previous timestamp 5',
    )
    expect(check([{ feeManagerConfig: { blockTimestamp: 5 } }, { contractNativeMinterConfig: { blockTimestamp: 5 } }])).toBeUndefined()
    expect(check([{ feeManagerConfig: { blockTimestamp: 5, disable: true } }])).toBe(
      'precompile upgrade disable value is invalid: PrecompileUpgrade (feeManagerConfig) at [0], disable should be false',
    )
  })

  it('verifies each config, genesis ones included', () => {
    expect(check([{ feeManagerConfig: { blockTimestamp: 5, managerAddresses: [MANAGER] } }])).toBe('cannot add managers before Durango')
    const badGenesis = [parsePrecompileConfig('contractDeployerAllowListConfig', { blockTimestamp: 0, adminAddresses: [ADMIN, ADMIN] })]
    expect(verifyPrecompileUpgrades({ genesis: badGenesis, upgrades: [] }, isDurango)).toBe(`duplicate address in admin list: ${ADMIN}`)
    // A genesis config without a timestamp is verified but schedules nothing: the first upgrade may enable the key.
    const unscheduled = [parsePrecompileConfig('txAllowListConfig', {})]
    expect(verifyPrecompileUpgrades({ genesis: unscheduled, upgrades: parsePrecompileUpgrades([{ txAllowListConfig: { blockTimestamp: 3 } }]) }, isDurango)).toBeUndefined()
  })
})

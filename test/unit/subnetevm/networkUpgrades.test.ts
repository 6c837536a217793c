// Cases of subnet-evm params/extras/network_upgrades_test.go (TestVerifyNetworkUpgrades, TestForkOrder,
// TestSetDefaultsTreatsZeroAsUnset) with avalanchego upgrade/upgrade.go's times (releases/v1.15.0-fuji).
import { describe, expect, it } from 'vitest'
import {
  avalancheUpgradeTimes,
  checkNetworkUpgradeOrder,
  defaultNetworkUpgrades,
  FUJI_UPGRADE_TIMES,
  INITIALLY_ACTIVE_TIME,
  LOCAL_UPGRADE_TIMES,
  MAINNET_UPGRADE_TIMES,
  overrideNetworkUpgrades,
  UNSCHEDULED_ACTIVATION_TIME,
  verifyNetworkUpgrades,
  withNetworkUpgradeDefaults,
} from '../../../src/subnetevm/networkUpgrades.js'

const code = (c: string) => expect.objectContaining({ code: c })

describe('upgrade times', () => {
  it('are avalanchego upgrade.go Default (local), Mainnet and Fuji', () => {
    expect(avalancheUpgradeTimes(12345)).toBe(LOCAL_UPGRADE_TIMES)
    expect(avalancheUpgradeTimes(1)).toBe(MAINNET_UPGRADE_TIMES)
    expect(avalancheUpgradeTimes(5)).toBe(FUJI_UPGRADE_TIMES)
    expect(INITIALLY_ACTIVE_TIME).toBe(BigInt(Date.UTC(2020, 11, 5, 5) / 1000))
    expect(UNSCHEDULED_ACTIVATION_TIME).toBe(BigInt(Date.UTC(9999, 11, 1) / 1000))
    expect(MAINNET_UPGRADE_TIMES.granite).toBe(BigInt(Date.UTC(2025, 10, 19, 16) / 1000))
    expect(FUJI_UPGRADE_TIMES.helicon).toBe(BigInt(Date.UTC(2026, 6, 28, 15) / 1000))
  })

  it('give a local chain SubnetEVM at 0, no Fortuna, the rest at 2020-12-05T05:00Z and Helicon unscheduled (GetNetworkUpgrades)', () => {
    expect(defaultNetworkUpgrades(LOCAL_UPGRADE_TIMES)).toEqual({
      subnetEVMTimestamp: 0n,
      durangoTimestamp: 1_607_144_400n,
      etnaTimestamp: 1_607_144_400n,
      fortunaTimestamp: undefined,
      graniteTimestamp: 1_607_144_400n,
      heliconTimestamp: 253_399_622_400n,
    })
  })
})

describe('withNetworkUpgradeDefaults (TestSetDefaultsTreatsZeroAsUnset)', () => {
  it('fills a missing or 0 timestamp with the default and keeps the others', () => {
    const defaults = defaultNetworkUpgrades(LOCAL_UPGRADE_TIMES)
    expect(withNetworkUpgradeDefaults({ subnetEVMTimestamp: 0n, durangoTimestamp: 0n, fortunaTimestamp: 0n, graniteTimestamp: 0n, heliconTimestamp: 0n }, LOCAL_UPGRADE_TIMES)).toEqual(defaults)
    expect(withNetworkUpgradeDefaults({ subnetEVMTimestamp: 5n, graniteTimestamp: 2_000_000_000n }, LOCAL_UPGRADE_TIMES)).toEqual({
      ...defaults,
      subnetEVMTimestamp: 5n,
      graniteTimestamp: 2_000_000_000n,
    })
  })

  it('lets overrides replace what they set', () => {
    expect(overrideNetworkUpgrades({ durangoTimestamp: 1n, etnaTimestamp: 2n }, { etnaTimestamp: 3n })).toEqual({ durangoTimestamp: 1n, etnaTimestamp: 3n })
  })
})

describe('verifyNetworkUpgrades (TestVerifyNetworkUpgrades)', () => {
  it('rejects a nil upgrade the network schedules', () => {
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 1n }, MAINNET_UPGRADE_TIMES)).toThrow(
      expect.objectContaining({ code: 'errCannotBeNil', message: 'durango fork block timestamp is invalid: timestamp cannot be nil' }),
    )
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: MAINNET_UPGRADE_TIMES.durango }, MAINNET_UPGRADE_TIMES)).toThrow(code('errCannotBeNil'))
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: MAINNET_UPGRADE_TIMES.durango }, FUJI_UPGRADE_TIMES)).toThrow(code('errCannotBeNil'))
  })

  it('rejects an upgrade before the network default', () => {
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 1n, durangoTimestamp: 2n }, MAINNET_UPGRADE_TIMES)).toThrow(
      expect.objectContaining({
        code: 'errTimestampTooEarly',
        message: 'durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 2, default timestamp 1709740800',
      }),
    )
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: 1n }, MAINNET_UPGRADE_TIMES)).toThrow(code('errTimestampTooEarly'))
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: FUJI_UPGRADE_TIMES.durango }, MAINNET_UPGRADE_TIMES)).toThrow(code('errTimestampTooEarly'))
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: MAINNET_UPGRADE_TIMES.durango, etnaTimestamp: MAINNET_UPGRADE_TIMES.durango - 1n }, MAINNET_UPGRADE_TIMES)).toThrow(
      code('errTimestampTooEarly'),
    )
  })

  it('accepts Granite after a nil Fortuna, and 0 for an initially active default', () => {
    const granite = { ...LOCAL_UPGRADE_TIMES, helicon: UNSCHEDULED_ACTIVATION_TIME }
    const fuji = FUJI_UPGRADE_TIMES
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: fuji.durango, etnaTimestamp: fuji.etna, graniteTimestamp: fuji.granite }, granite)).not.toThrow()
    expect(() => verifyNetworkUpgrades({ subnetEVMTimestamp: 0n, durangoTimestamp: 0n, etnaTimestamp: 0n, graniteTimestamp: 0n }, LOCAL_UPGRADE_TIMES)).not.toThrow()
  })

  it('rejects a local Helicon before its unscheduled default', () => {
    const local = { ...defaultNetworkUpgrades(LOCAL_UPGRADE_TIMES), heliconTimestamp: 1_700_000_000n }
    expect(() => verifyNetworkUpgrades(local, LOCAL_UPGRADE_TIMES)).toThrow(
      expect.objectContaining({
        message: 'helicon fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 1700000000, default timestamp 253399622400',
      }),
    )
  })
})

describe('checkNetworkUpgradeOrder (TestForkOrder)', () => {
  it('asks for the upgrades in order, Fortuna optional', () => {
    expect(() => checkNetworkUpgradeOrder({ subnetEVMTimestamp: 0n, durangoTimestamp: 2n })).not.toThrow()
    expect(() => checkNetworkUpgradeOrder({ subnetEVMTimestamp: 1n, durangoTimestamp: 0n })).toThrow(
      expect.objectContaining({
        code: 'errUnsupportedForkOrdering',
        message: 'unsupported fork ordering: subnetEVMTimestamp enabled at timestamp 1, but durangoTimestamp enabled at timestamp 0',
      }),
    )
    expect(() => checkNetworkUpgradeOrder({ subnetEVMTimestamp: 0n, durangoTimestamp: 0n, etnaTimestamp: 0n, graniteTimestamp: 0n })).not.toThrow()
    expect(() => checkNetworkUpgradeOrder({ subnetEVMTimestamp: 0n, etnaTimestamp: 0n })).toThrow(
      expect.objectContaining({ message: 'unsupported fork ordering: durangoTimestamp not enabled, but etnaTimestamp enabled at timestamp 0' }),
    )
  })
})

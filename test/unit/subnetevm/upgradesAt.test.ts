// Cases of subnet-evm params/extras/config_extra_test.go (TestIsTimestampForked, TestIsForkTransition).
import { describe, expect, it } from 'vitest'
import { isForked, isForkTransition, upgradesAt } from '../../../src/subnetevm/upgradesAt.js'

describe('upgradesAt', () => {
  it('turns an upgrade on at its timestamp', () => {
    expect(isForked(undefined, 0n)).toBe(false)
    expect(isForked(undefined, 100n)).toBe(false)
    expect(isForked(0n, 0n)).toBe(true)
    expect(isForked(100n, 50n)).toBe(false)
    expect(isForked(100n, 100n)).toBe(true)
    expect(isForked(100n, 150)).toBe(true)
    const local = { subnetEVMTimestamp: 0n, durangoTimestamp: 1_607_144_400n, etnaTimestamp: 1_607_144_400n, graniteTimestamp: 1_607_144_400n, heliconTimestamp: 253_399_622_400n }
    expect(upgradesAt(local, 1_607_144_399n)).toEqual({ isSubnetEVM: true, isDurango: false, isEtna: false, isFortuna: false, isGranite: false, isHelicon: false })
    expect(upgradesAt(local, 1_607_144_400)).toEqual({ isSubnetEVM: true, isDurango: true, isEtna: true, isFortuna: false, isGranite: true, isHelicon: false })
  })

  it('sees a fork transition once (TestIsForkTransition)', () => {
    expect(isForkTransition(undefined, undefined, 0n)).toBe(false)
    expect(isForkTransition(0n, undefined, 0n)).toBe(true)
    expect(isForkTransition(undefined, 100n, 101n)).toBe(false)
    expect(isForkTransition(undefined, 100n, 100n)).toBe(false)
    expect(isForkTransition(100n, 99n, 100n)).toBe(true)
    expect(isForkTransition(100n, 101n, 101n)).toBe(false)
    expect(isForkTransition(100n, 100n, 100n)).toBe(false)
    expect(isForkTransition(100n, 99n, 101n)).toBe(true)
    expect(isForkTransition(100n, 101n, 102n)).toBe(false)
  })
})

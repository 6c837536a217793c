// Cases of subnet-evm plugin/evm/customheader/min_delay_excess_test.go (TestMinDelayExcess, TestVerifyMinDelayExcess).
import { describe, expect, it } from 'vitest'
import { INITIAL_DELAY_EXCESS as ENGINE_INITIAL, minDelayMs } from '../../../../src/engine/rules/feeState.js'
import { INITIAL_DELAY_EXCESS, INITIAL_DELAY_MS, MAX_DELAY_EXCESS_DIFF, minDelayExcess, updateDelayExcess, verifyMinDelayExcess } from '../../../../src/subnetevm/fees/minDelayExcess.js'
import { FORTUNA, GRANITE } from './testFeeConfigs.js'

const ACTIVATING = { ...GRANITE, graniteTimestamp: 1000n }

describe('minDelayExcess (TestMinDelayExcess)', () => {
  it('is undefined before Granite', () => {
    expect(minDelayExcess(FORTUNA, { timestamp: 1000n }, 1001n)).toBeUndefined()
    expect(minDelayExcess(FORTUNA, { timestamp: 1000n }, 1001n, 1000n)).toBeUndefined()
  })

  it('starts the first Granite block at the initial excess', () => {
    expect(minDelayExcess(ACTIVATING, { timestamp: 999n }, 1001n)).toBe(INITIAL_DELAY_EXCESS)
  })

  it('needs the excess of a Granite parent', () => {
    expect(() => minDelayExcess(GRANITE, { timestamp: 1000n }, 1001n)).toThrow(
      expect.objectContaining({ code: 'errParentMinDelayExcessNil', message: 'calculating min delay excess: parent min delay excess should not be nil' }),
    )
  })

  it('keeps the parent excess, or moves it at most 200 toward the desired one', () => {
    const parent = { timestamp: 1000n, minDelayExcess: 500n }
    expect(minDelayExcess(GRANITE, parent, 1001n)).toBe(500n)
    expect(minDelayExcess(GRANITE, parent, 1001n, 1000n)).toBe(500n + MAX_DELAY_EXCESS_DIFF)
    expect(minDelayExcess(GRANITE, parent, 1001n, 0n)).toBe(500n - MAX_DELAY_EXCESS_DIFF)
    expect(updateDelayExcess(500n, 550n)).toBe(550n)
  })

  it('agrees with ACP-226: the initial excess is a 2000 ms delay', () => {
    expect(INITIAL_DELAY_EXCESS).toBe(ENGINE_INITIAL)
    expect(minDelayMs(INITIAL_DELAY_EXCESS)).toBe(INITIAL_DELAY_MS)
  })
})

describe('verifyMinDelayExcess (TestVerifyMinDelayExcess)', () => {
  const parent = { timestamp: 1000n, minDelayExcess: 500n }
  const header = (excess?: bigint) => ({ timestamp: 1001n, minDelayExcess: excess })
  it('accepts an excess within 200 of the parent one', () => {
    expect(() => verifyMinDelayExcess(FORTUNA, { timestamp: 1000n }, header())).not.toThrow()
    expect(() => verifyMinDelayExcess(GRANITE, { timestamp: 1000n }, header())).toThrow(expect.objectContaining({ code: 'errRemoteMinDelayExcessNil' }))
    expect(() => verifyMinDelayExcess(GRANITE, parent, header(1000n))).toThrow(
      expect.objectContaining({ code: 'errIncorrectMinDelayExcess', message: 'incorrect min delay excess: expected 700, found 1000' }),
    )
    expect(() => verifyMinDelayExcess(GRANITE, parent, header(0n))).toThrow(expect.objectContaining({ code: 'errIncorrectMinDelayExcess' }))
    for (const ok of [500n, 700n, 300n]) expect(() => verifyMinDelayExcess(GRANITE, parent, header(ok))).not.toThrow()
  })
})

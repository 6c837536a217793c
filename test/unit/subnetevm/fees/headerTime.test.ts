// Cases of subnet-evm plugin/evm/customheader/time_test.go (TestVerifyTime, TestGetNextTimestamp).
import { describe, expect, it } from 'vitest'
import { minDelayMs } from '../../../../src/engine/rules/feeState.js'
import { MAX_FUTURE_BLOCK_TIME_MS, nextTimestampMs, verifyTime } from '../../../../src/subnetevm/fees/headerTime.js'
import { INITIAL_DELAY_EXCESS } from '../../../../src/subnetevm/fees/minDelayExcess.js'
import { FORTUNA, GRANITE } from './testFeeConfigs.js'

// time.Unix(1714339200, 123_456_789)
const NOW_MS = 1_714_339_200_123n
const SEC = 1_714_339_200n
type H = { timestamp: bigint; timeMilliseconds?: bigint; minDelayExcess?: bigint }
const h = (timestamp: bigint, timeMilliseconds?: bigint, minDelayExcess?: bigint): H => ({ timestamp, timeMilliseconds, minDelayExcess })
const check =
  (upgrades: typeof GRANITE, header: H, parent: H = { ...header }) =>
  () =>
    verifyTime(upgrades, parent, header, NOW_MS, minDelayMs)
const code = (c: string) => expect.objectContaining({ code: c })

describe('verifyTime (TestVerifyTime)', () => {
  it('matches timeMilliseconds to the upgrade', () => {
    expect(check(FORTUNA, h(SEC, NOW_MS))).toThrow(code('ErrTimeMillisecondsBeforeGranite'))
    expect(check(FORTUNA, h(SEC))).not.toThrow()
    expect(check(GRANITE, h(SEC))).toThrow(code('ErrTimeMillisecondsRequired'))
    expect(check(GRANITE, h(SEC, SEC * 1000n))).not.toThrow()
    expect(check(GRANITE, h(SEC, NOW_MS))).not.toThrow()
    expect(check(GRANITE, h(SEC, (SEC - 1n) * 1000n))).toThrow(code('ErrTimeMillisecondsMismatched'))
    expect(check(GRANITE, h(SEC, (SEC + 1n) * 1000n))).toThrow(code('ErrTimeMillisecondsMismatched'))
  })

  it('rejects a time before the parent', () => {
    expect(check(FORTUNA, h(SEC), h(SEC + 1n))).toThrow(code('errBlockTooOld'))
    expect(check(GRANITE, h(SEC, SEC * 1000n), h(SEC + 1n, (SEC + 1n) * 1000n))).toThrow(code('errBlockTooOld'))
    expect(check(GRANITE, h(SEC, SEC * 1000n), h(SEC, SEC * 1000n + 1n))).toThrow(code('errBlockTooOld'))
  })

  it('rejects a time over 10 s ahead', () => {
    const later = NOW_MS + MAX_FUTURE_BLOCK_TIME_MS + 1000n
    expect(check(FORTUNA, h(later / 1000n))).toThrow(code('ErrBlockTooFarInFuture'))
    expect(check(GRANITE, h(later / 1000n, later))).toThrow(code('ErrBlockTooFarInFuture'))
    const ms = NOW_MS + MAX_FUTURE_BLOCK_TIME_MS + 1n
    expect(check(GRANITE, h((NOW_MS + MAX_FUTURE_BLOCK_TIME_MS) / 1000n, ms))).toThrow(expect.objectContaining({ message: `block timestamp is too far in the future: ${ms} > allowed ${ms - 1n}` }))
  })

  it('enforces the parent ACP-226 delay', () => {
    expect(check(GRANITE, h(SEC, NOW_MS), h(SEC))).not.toThrow()
    expect(check(FORTUNA, h(SEC), h(SEC))).not.toThrow()
    expect(check(GRANITE, h(SEC, NOW_MS, INITIAL_DELAY_EXCESS), h(SEC - 1n))).not.toThrow()
    expect(check(GRANITE, h(SEC, NOW_MS, INITIAL_DELAY_EXCESS), h(SEC - 1n, NOW_MS - 2000n, INITIAL_DELAY_EXCESS))).not.toThrow()
    expect(check(GRANITE, h(SEC, NOW_MS, INITIAL_DELAY_EXCESS), h(SEC - 1n, NOW_MS - 1999n, INITIAL_DELAY_EXCESS))).toThrow(
      expect.objectContaining({ code: 'ErrMinDelayNotMet', message: 'minimum block delay not met: actual delay 1999ms < required 2000ms' }),
    )
    expect(check(GRANITE, h(SEC + 5n, NOW_MS + 5000n, INITIAL_DELAY_EXCESS), h(SEC - 1n, NOW_MS - 2000n, INITIAL_DELAY_EXCESS))).not.toThrow()
    expect(check(GRANITE, h(SEC + 15n, NOW_MS + 15000n, INITIAL_DELAY_EXCESS), h(SEC - 1n, NOW_MS - 2000n, INITIAL_DELAY_EXCESS))).toThrow(code('ErrBlockTooFarInFuture'))
    expect(check(GRANITE, h(SEC, NOW_MS, 0n), h(SEC, NOW_MS - 1n, 0n))).not.toThrow()
    expect(check(GRANITE, h(SEC, NOW_MS, 0n), h(SEC, NOW_MS, 0n))).toThrow(code('ErrMinDelayNotMet'))
  })
})

describe('nextTimestampMs (TestGetNextTimestamp)', () => {
  it('is now, or the parent second for a pre-Granite parent not before now', () => {
    expect(nextTimestampMs(h(SEC - 10n), NOW_MS)).toBe(NOW_MS)
    expect(nextTimestampMs(h(SEC - 10n, NOW_MS - 500n), NOW_MS)).toBe(NOW_MS)
    expect(nextTimestampMs(h(SEC), NOW_MS)).toBe(SEC * 1000n)
    expect(nextTimestampMs(h(SEC + 10n), NOW_MS)).toBe((SEC + 10n) * 1000n)
    expect(nextTimestampMs(h(SEC + 10n, NOW_MS), NOW_MS)).toBe(NOW_MS)
    expect(nextTimestampMs(h(SEC, NOW_MS + 10n), NOW_MS)).toBe(NOW_MS)
    expect(nextTimestampMs(h(SEC, NOW_MS), NOW_MS)).toBe(NOW_MS)
    expect(nextTimestampMs(h(SEC, NOW_MS - 10n), NOW_MS)).toBe(NOW_MS)
  })
})

/**
 * A subnet-evm header's time (subnet-evm plugin/evm/customheader/time.go): the builder's choice and
 * the verifier's checks. From Granite a header carries timeMilliseconds (timestamp = ms / 1000)
 * and must come at least the parent's ACP-226 delay after it; no header may be more than 10 s
 * ahead of the verifier's clock.
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { isForked } from '../upgradesAt.js'
import { headerTimeMilliseconds } from './parentHeader.js'

/** How far ahead of the clock a header's time may be (time.go MaxFutureBlockTime). */
export const MAX_FUTURE_BLOCK_TIME_MS = 10_000n

interface TimedHeader {
  /** Seconds. */
  timestamp: bigint
  timeMilliseconds?: bigint
  minDelayExcess?: bigint
}

/**
 * The time (ms) a builder gives a child at `nowMs` (time.go GetNextTimestamp): now, unless the
 * parent has no timeMilliseconds and its second is not before now's, when the child reuses the
 * parent's second (pre-Granite blocks may share it).
 */
export function nextTimestampMs(parent: Pick<TimedHeader, 'timestamp' | 'timeMilliseconds'>, nowMs: bigint): bigint {
  const nowSeconds = nowMs >= 0n ? nowMs / 1000n : (nowMs - 999n) / 1000n
  if (parent.timestamp < nowSeconds || parent.timeMilliseconds !== undefined) return nowMs
  return parent.timestamp * 1000n
}

/**
 * Throws unless the header's time follows the rules at `nowMs` (time.go VerifyTime): not before
 * the parent's (ms), not over 10 s ahead of now; timeMilliseconds absent before Granite, present
 * and matching the seconds from Granite; and at least `delayMs(parent.minDelayExcess)` ms after
 * the parent when the parent has an excess. `delayMs` is ACP-226's Delay (acp226.go).
 */
export function verifyTime(upgrades: Pick<NetworkUpgrades, 'graniteTimestamp'>, parent: TimedHeader, header: TimedHeader, nowMs: bigint, delayMs: (excess: bigint) => bigint): void {
  const headerMs = headerTimeMilliseconds(header)
  const parentMs = headerTimeMilliseconds(parent)
  if (headerMs < parentMs) throw new SubnetEvmRuleError('errBlockTooOld', `block timestamp is too old: ${headerMs} < parent ${parentMs}`)
  const maxMs = nowMs + MAX_FUTURE_BLOCK_TIME_MS
  if (headerMs > maxMs) throw new SubnetEvmRuleError('ErrBlockTooFarInFuture', `block timestamp is too far in the future: ${headerMs} > allowed ${maxMs}`)
  if (!isForked(upgrades.graniteTimestamp, header.timestamp)) {
    if (header.timeMilliseconds !== undefined) throw new SubnetEvmRuleError('ErrTimeMillisecondsBeforeGranite', 'TimeMilliseconds should be nil before Granite activation')
    return
  }
  if (header.timeMilliseconds === undefined) throw new SubnetEvmRuleError('ErrTimeMillisecondsRequired', 'TimeMilliseconds is required after Granite activation')
  const expected = header.timeMilliseconds / 1000n
  if (header.timestamp !== expected) {
    throw new SubnetEvmRuleError('ErrTimeMillisecondsMismatched', `TimeMilliseconds does not match header.Time: header.Time (${header.timestamp}) != TimeMilliseconds/1000 = (${expected})`)
  }
  // The first Granite block's parent has no excess: nothing to check against.
  if (parent.minDelayExcess === undefined) return
  const actual = headerMs - parentMs
  const required = delayMs(parent.minDelayExcess)
  if (actual < required) throw new SubnetEvmRuleError('ErrMinDelayNotMet', `minimum block delay not met: actual delay ${actual}ms < required ${required}ms`)
}

import { describe, expect, it } from 'vitest'
import { BlockClock } from '../../../../src/engine/rules/blockClock.js'

/** A clock on a wall time the test sets (ms). */
function clockAt(ms: number) {
  const wall = { ms }
  return { wall, clock: new BlockClock(() => wall.ms) }
}

const parent = { timestamp: 1_000n, timeMilliseconds: 1_000_500n }

describe('BlockClock', () => {
  it('runs with the wall clock, moved by whole seconds', () => {
    const { wall, clock } = clockAt(2_000_250)
    expect(clock.propose(parent)).toEqual({ ms: 2_000_250n, running: true })
    expect(clock.increase(60n)).toBe(60n)
    expect(clock.increase(40n)).toBe(100n)
    wall.ms += 5
    expect(clock.nowMs()).toBe(2_100_255n)
    expect(clock.nowSeconds()).toBe(2_100n)
  })

  it("with distinct seconds (a development chain) the running clock proposes at least a second after the parent's timestamp", () => {
    const wall = { ms: 1_000_700 }
    const clock = new BlockClock(() => wall.ms, true)
    expect(clock.propose(parent)).toEqual({ ms: 1_001_000n, running: true })
    wall.ms = 1_003_250
    expect(clock.propose(parent)).toEqual({ ms: 1_003_250n, running: true })
    // A set timestamp is taken as given, even the parent's own (anvil takes it).
    clock.setNextTimestamp(1_000n)
    expect(clock.propose(parent)).toEqual({ ms: 1_000_000n, running: false })
    // A block the rule put ahead of the clock: the clock runs on from it.
    clock.committed(1_000n, clock.pendingExact)
    wall.ms = 1_003_250
    const ahead = { timestamp: 1_010n, timeMilliseconds: 1_010_000n }
    expect(clock.propose(ahead)).toEqual({ ms: 1_011_000n, running: true })
    clock.committed(1_011n, undefined)
    wall.ms += 2_000
    expect(clock.propose(ahead).ms).toBe(1_013_250n)
    // Without it, blocks within the parent's second share its timestamp.
    expect(clockAt(1_000_700).clock.propose(parent)).toEqual({ ms: 1_000_700n, running: true })
  })

  it('an exact timestamp is used once, then the clock runs on from it', () => {
    const { wall, clock } = clockAt(2_000_250)
    clock.setNextTimestamp(5_000n)
    const exact = clock.pendingExact
    expect(clock.propose(parent)).toEqual({ ms: 5_000_000n, running: false })
    clock.committed(5_000n, exact)
    expect(clock.pendingExact).toBeUndefined()
    expect(clock.offsetSeconds).toBe(3_000n)
    wall.ms += 1_000
    expect(clock.propose(parent).ms).toBe(5_001_250n)
  })

  it('a build keeps an exact timestamp set while it ran', () => {
    const { clock } = clockAt(2_000_000)
    clock.setNextTimestamp(5_000n)
    const used = clock.pendingExact
    clock.setNextTimestamp(6_000n)
    clock.committed(5_000n, used)
    expect(clock.pendingExact?.seconds).toBe(6_000n)
    clock.committed(2_000n, undefined)
    expect(clock.pendingExact?.seconds).toBe(6_000n)
  })

  it('an interval puts each block that many seconds after its parent', () => {
    const { clock } = clockAt(9_000_000)
    clock.setInterval(10n)
    expect(clock.propose(parent)).toEqual({ ms: 1_010_000n, running: false })
    expect(clock.removeInterval()).toBe(true)
    expect(clock.removeInterval()).toBe(false)
  })

  it('setTime, saved and restored state, reset', () => {
    const { clock } = clockAt(2_000_900)
    clock.setNextTimestamp(7_000n)
    clock.setTime(1_500n)
    expect(clock.offsetSeconds).toBe(-500n)
    expect(clock.pendingExact).toBeUndefined()
    clock.setInterval(3n)
    const saved = clock.saved()
    clock.increase(10n)
    clock.removeInterval()
    clock.setNextTimestamp(9_000n)
    clock.restore(saved)
    expect([clock.offsetSeconds, clock.intervalSeconds, clock.pendingExact]).toEqual([-500n, 3n, undefined])
    clock.reset()
    expect([clock.offsetSeconds, clock.intervalSeconds]).toEqual([0n, undefined])
  })
})

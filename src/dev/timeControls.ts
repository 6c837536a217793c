import type { Engine } from '../engine/engine.js'
import type { DevControls } from './devControls.js'
import { checkTimestamp } from './miningControls.js'

/** evm_setTime takes seconds or, above this, milliseconds (anvil: crates/anvil/src/eth/api.rs EvmSetTime, for Ganache). */
const MILLISECONDS_ABOVE = 1_000_000_000_000n
const U64_MAX = (1n << 64n) - 1n

/**
 * Time travel on the chain's clock (engine/rules/blockClock.ts) with anvil's answers (anvil:
 * crates/anvil/src/eth/api.rs evm_increase_time, evm_set_time, evm_set_block_timestamp_interval).
 * A snapshot keeps the clock's offset and interval; anvil_reset goes back to the wall clock.
 */
export class TimeControls {
  constructor(
    private readonly engine: Engine,
    controls: DevControls,
  ) {
    const { clock } = engine.dev
    controls.addPart('clock', {
      save: () => {
        const { offset, interval } = clock.saved()
        return { offset: offset.toString(), interval: interval?.toString() ?? null }
      },
      restore: (saved) => {
        if (saved === undefined) return clock.reset()
        const s = saved as { offset: string; interval: string | null }
        clock.restore({ offset: BigInt(s.offset), interval: s.interval === null ? undefined : BigInt(s.interval) })
      },
    })
  }

  /** evm_increaseTime: the total offset from the wall clock in seconds (anvil: u64 seconds, saturating). */
  increaseTime(seconds: bigint): bigint {
    return this.engine.dev.clock.increase(seconds > U64_MAX ? U64_MAX : seconds)
  }

  /** evm_setTime: the clock reads `time` now; returns the seconds it moved forward (0 for a move back). */
  setTime(time: bigint): bigint {
    checkTimestamp(time)
    const seconds = time > MILLISECONDS_ABOVE ? time / 1000n : time
    const { clock } = this.engine.dev
    const now = clock.propose(this.engine.head.header).ms / 1000n
    clock.setTime(seconds)
    return seconds > now ? seconds - now : 0n
  }

  /** anvil_setBlockTimestampInterval. */
  setBlockTimestampInterval(seconds: bigint): void {
    this.engine.dev.clock.setInterval(seconds)
  }

  /** anvil_removeBlockTimestampInterval: whether one was set. */
  removeBlockTimestampInterval(): boolean {
    return this.engine.dev.clock.removeInterval()
  }
}

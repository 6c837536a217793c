/** The time a block's header carries: seconds and Avalanche's milliseconds (Granite's timeMilliseconds). */
export interface BlockTime {
  timestamp: bigint
  timeMilliseconds: bigint
}

/** What the clock proposes for the next block: its time in ms, and whether that is the running clock (not a set timestamp). */
export interface ProposedTime {
  ms: bigint
  running: boolean
}

/**
 * The chain's clock, which the block builder and the fee oracle both read: the wall clock moved by
 * the development controls, with anvil's rules (anvil: crates/anvil/src/eth/backend/time.rs): an
 * offset in whole seconds (evm_increaseTime, evm_setTime), an exact timestamp for the next block
 * only (evm_setNextBlockTimestamp; once mined, the clock runs on from it), and an optional interval
 * between block timestamps (anvil_setBlockTimestampInterval). Milliseconds come from the wall clock,
 * so Granite's millisecond timestamps and the ACP-176 fee state move with it as with real time.
 */
export class BlockClock {
  /** Seconds added to the wall clock. */
  private offset = 0n
  /** The next block's timestamp, as an object so a build only clears the one it used. */
  private exact: { seconds: bigint } | undefined
  private interval: bigint | undefined

  /**
   * `distinctSeconds` (a development chain): the running clock gives each block a timestamp at
   * least a second after its parent's, as hardhat's blocks are, so contracts that count time in
   * block timestamps (ERC-6372 clocks, per-timestamp checkpoints) see one timepoint per block.
   * Otherwise blocks within one second share it, as coreth's do (Granite's milliseconds order them).
   */
  constructor(
    private readonly wall: () => number = Date.now,
    private readonly distinctSeconds = false,
  ) {}

  /** The clock's time in ms since the epoch. */
  nowMs(): bigint {
    return BigInt(this.wall()) + this.offset * 1000n
  }

  /** The clock's time in seconds. */
  nowSeconds(): bigint {
    return this.nowMs() / 1000n
  }

  /** Total offset from the wall clock, in seconds. */
  get offsetSeconds(): bigint {
    return this.offset
  }

  /** evm_increaseTime: moves the clock forward; returns the total offset in seconds. */
  increase(seconds: bigint): bigint {
    this.offset += seconds
    return this.offset
  }

  /** evm_setNextBlockTimestamp: the exact timestamp of the next block (the caller checks it against the head). */
  setNextTimestamp(seconds: bigint): void {
    this.exact = { seconds }
  }

  /** evm_setTime: the clock reads `seconds` now; a pending exact timestamp is dropped. */
  setTime(seconds: bigint): void {
    this.offset = seconds - this.wallSeconds()
    this.exact = undefined
  }

  /** anvil_setBlockTimestampInterval: each block's timestamp is its parent's plus `seconds`. */
  setInterval(seconds: bigint): void {
    this.interval = seconds
  }

  /** anvil_removeBlockTimestampInterval: whether there was one. */
  removeInterval(): boolean {
    const had = this.interval !== undefined
    this.interval = undefined
    return had
  }

  /** The interval between block timestamps, if set. */
  get intervalSeconds(): bigint | undefined {
    return this.interval
  }

  /** The time of the next block on `parent`, before the ACP-226 minimum delay is applied; consumes nothing. */
  propose(parent: BlockTime): ProposedTime {
    if (this.exact !== undefined) return { ms: this.exact.seconds * 1000n, running: false }
    if (this.interval !== undefined) return { ms: (parent.timestamp + this.interval) * 1000n, running: false }
    const ms = this.nowMs()
    const floor = (parent.timestamp + 1n) * 1000n
    return { ms: this.distinctSeconds && ms < floor ? floor : ms, running: true }
  }

  /**
   * A block at `timestamp` seconds was committed: a used exact timestamp is spent and the clock runs
   * on from it; so does a block the distinct-seconds rule put ahead of the clock (hardhat's clock
   * runs on from such a block too, so intervals added later count from it).
   */
  committed(timestamp: bigint, proposedExact: { seconds: bigint } | undefined): void {
    if (proposedExact !== undefined && proposedExact === this.exact) {
      this.exact = undefined
      this.offset = timestamp - this.wallSeconds()
    } else if (this.distinctSeconds && proposedExact === undefined && this.interval === undefined && timestamp > this.nowSeconds()) {
      this.offset = timestamp - this.wallSeconds()
    }
  }

  /** The exact timestamp a build starts from, to hand back to committed(). */
  get pendingExact(): { seconds: bigint } | undefined {
    return this.exact
  }

  /** What a snapshot keeps: the offset and the interval (a pending exact timestamp is not kept, as anvil drops it on revert). */
  saved(): { offset: bigint; interval: bigint | undefined } {
    return { offset: this.offset, interval: this.interval }
  }

  /** Back to a saved state (evm_revert). */
  restore(saved: { offset: bigint; interval: bigint | undefined }): void {
    this.offset = saved.offset
    this.interval = saved.interval
    this.exact = undefined
  }

  /** Back to the wall clock with nothing set (anvil_reset). */
  reset(): void {
    this.offset = 0n
    this.exact = undefined
    this.interval = undefined
  }

  private wallSeconds(): bigint {
    return BigInt(Math.floor(this.wall() / 1000))
  }
}

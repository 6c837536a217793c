/**
 * A clock for the node's timeouts (createNode's `now`) that a test moves on instead of sleeping:
 * real time plus whatever the test has skipped. Timed unlocks, the filter timeout and the keystore
 * back-off read it, so `advance(ms)` has them see `ms` pass at once.
 */
export class SkipClock {
  private skipped = 0
  /** ms since the epoch, as Date.now, plus the time skipped. */
  readonly now = (): number => Date.now() + this.skipped

  advance(ms: number): void {
    this.skipped += ms
  }
}

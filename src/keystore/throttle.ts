/**
 * Online-guessing back-off (docs/SECURITY.md, K5): after `freeFailures` wrong passwords for one user from one
 * client address, that client's further attempts on that user are refused for 2 s, doubling with each further
 * failure up to 60 s. Counts are per (user, client) pair, so wrong passwords for one user never block another
 * user's right password, nor another client's. A success clears the pair's count; a count is forgotten after
 * `forgetAfterMs` without a failure. Calls without a client (in-process) count per user.
 */
import { TooManyAttemptsError } from './errors.js'

export interface ThrottleOptions {
  /** Failures allowed before the first lock (5). */
  readonly freeFailures: number
  /** First lock (2000 ms); each further failure doubles it. */
  readonly baseDelayMs: number
  /** Longest lock (60000 ms). */
  readonly maxDelayMs: number
  /** Counts without a failure for this long are dropped (15 min). */
  readonly forgetAfterMs: number
  /** Tracked (user, client) pairs at most; the least recently failed go first (10000). */
  readonly maxEntries: number
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseDelayMs: 2000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000, maxEntries: 10_000 }

/** The count's key: one string per (user, client), no two pairs alike whatever characters they hold. */
function pairKey(username: string, client: string | undefined): string {
  return JSON.stringify(client === undefined ? [username] : [username, client])
}

interface Entry {
  failures: number
  lockedUntil: number
  lastFailure: number
}

/** Failure counts by (user, client address), in memory (a restart forgets them). */
export class FailureThrottle {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws TooManyAttemptsError while this client is locked out of this user. */
  check(username: string, client: string | undefined): void {
    const t = this.now()
    const e = this.live(pairKey(username, client), t)
    if (e !== undefined && e.lockedUntil > t) throw new TooManyAttemptsError(e.lockedUntil - t)
  }

  /** Records a wrong password (or unknown user) from this client. */
  failure(username: string, client: string | undefined): void {
    const t = this.now()
    const key = pairKey(username, client)
    const e = this.live(key, t) ?? { failures: 0, lockedUntil: 0, lastFailure: t }
    e.failures++
    e.lastFailure = t
    if (e.failures >= this.opts.freeFailures) {
      const delay = Math.min(this.opts.baseDelayMs * 2 ** Math.min(e.failures - this.opts.freeFailures, 30), this.opts.maxDelayMs)
      e.lockedUntil = t + delay
    }
    this.entries.delete(key)
    this.entries.set(key, e)
    while (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  /** Records a right password: this client's count for the user starts over. */
  success(username: string, client: string | undefined): void {
    this.entries.delete(pairKey(username, client))
  }

  private live(key: string, t: number): Entry | undefined {
    const e = this.entries.get(key)
    if (e !== undefined && t - e.lastFailure > this.opts.forgetAfterMs && e.lockedUntil <= t) {
      this.entries.delete(key)
      return undefined
    }
    return e
  }
}

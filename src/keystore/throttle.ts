/**
 * Online-guessing back-off (docs/SECURITY.md, K5): after `freeFailures` wrong passwords for one user, or from
 * one client address, further attempts are refused for 2 s, doubling with each further failure up to
 * 60 s. A success clears the user's count; a client's count is forgotten after `forgetAfterMs` without
 * a failure (so logging in to one's own account does not reset a spray over others).
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
  /** Tracked users and clients at most; the least recently failed go first (10000). */
  readonly maxEntries: number
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseDelayMs: 2000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000, maxEntries: 10_000 }

interface Entry {
  failures: number
  lockedUntil: number
  lastFailure: number
}

/** Failure counts by user and by client address, in memory (a restart forgets them). */
export class FailureThrottle {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws TooManyAttemptsError while the user or the client is locked out. */
  check(username: string, client: string | undefined): void {
    const t = this.now()
    let wait = 0
    for (const key of this.keys(username, client)) {
      const e = this.live(key, t)
      if (e !== undefined && e.lockedUntil > t) wait = Math.max(wait, e.lockedUntil - t)
    }
    if (wait > 0) throw new TooManyAttemptsError(wait)
  }

  /** Records a wrong password (or unknown user). */
  failure(username: string, client: string | undefined): void {
    const t = this.now()
    for (const key of this.keys(username, client)) {
      const e = this.live(key, t) ?? { failures: 0, lockedUntil: 0, lastFailure: t }
      e.failures++
      e.lastFailure = t
      if (e.failures >= this.opts.freeFailures) {
        const delay = Math.min(this.opts.baseDelayMs * 2 ** Math.min(e.failures - this.opts.freeFailures, 30), this.opts.maxDelayMs)
        e.lockedUntil = t + delay
      }
      this.entries.delete(key)
      this.entries.set(key, e)
    }
    while (this.entries.size > this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  /** Records a right password: the user's count starts over. */
  success(username: string): void {
    this.entries.delete('u\0' + username)
  }

  private keys(username: string, client: string | undefined): string[] {
    return client === undefined ? ['u\0' + username] : ['u\0' + username, 'c\0' + client]
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

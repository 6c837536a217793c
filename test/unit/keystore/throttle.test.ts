import { describe, expect, it } from 'vitest'
import { TooManyAttemptsError } from '../../../src/keystore/errors.js'
import { DEFAULT_THROTTLE, FailureThrottle } from '../../../src/keystore/throttle.js'

function refusal(fn: () => void): TooManyAttemptsError | undefined {
  try {
    fn()
  } catch (err) {
    if (err instanceof TooManyAttemptsError) return err
    throw err
  }
  return undefined
}

describe('FailureThrottle (docs/SECURITY.md, K5)', () => {
  it('locks a user after 5 failures for 2 s, doubling to 60 s', () => {
    let now = 1_000_000
    const t = new FailureThrottle(DEFAULT_THROTTLE, () => now)
    for (let i = 0; i < 4; i++) {
      t.check('alice', undefined)
      t.failure('alice', undefined)
    }
    expect(refusal(() => t.check('alice', undefined))).toBeUndefined()
    t.failure('alice', undefined)
    const r = refusal(() => t.check('alice', undefined))
    expect(r?.message).toBe('too many failed attempts, try again in 2 s')
    expect(refusal(() => t.check('bob', undefined))).toBeUndefined()
    const delays: number[] = []
    for (let i = 0; i < 8; i++) {
      const wait = refusal(() => t.check('alice', undefined))!.retryAfterMs
      delays.push(wait)
      now += wait
      expect(refusal(() => t.check('alice', undefined))).toBeUndefined()
      t.failure('alice', undefined)
    }
    expect(delays).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000])
  })

  it('counts per (user, client): wrong passwords for one user never lock another user, nor another client', () => {
    let now = 0
    const t = new FailureThrottle(DEFAULT_THROTTLE, () => now)
    for (let i = 0; i < 5; i++) t.failure('alice', '10.0.0.1')
    expect(refusal(() => t.check('alice', '10.0.0.1'))?.message).toBe('too many failed attempts, try again in 2 s')
    expect(refusal(() => t.check('bob', '10.0.0.1'))).toBeUndefined()
    expect(refusal(() => t.check('alice', '10.0.0.2'))).toBeUndefined()
    // A spray over many users from one client locks none of them.
    for (let i = 0; i < 50; i++) t.failure(`user${i}`, '10.0.0.3')
    expect(refusal(() => t.check('user0', '10.0.0.3'))).toBeUndefined()
    // A NUL in a username cannot make two pairs one.
    for (let i = 0; i < 5; i++) t.failure('x', '10.0.0.4\0y')
    expect(refusal(() => t.check('y\0x', '10.0.0.4'))).toBeUndefined()
    now += 2000
    expect(refusal(() => t.check('alice', '10.0.0.1'))).toBeUndefined()
    // A success clears the pair's count: the next failure does not lock.
    t.success('alice', '10.0.0.1')
    t.failure('alice', '10.0.0.1')
    expect(refusal(() => t.check('alice', '10.0.0.1'))).toBeUndefined()
    // Forgotten after 15 minutes without a failure.
    for (let i = 0; i < 4; i++) t.failure('carol', '10.0.0.1')
    now += 15 * 60_000 + 1
    t.failure('carol', '10.0.0.1')
    expect(refusal(() => t.check('carol', '10.0.0.1'))).toBeUndefined()
  })

  it('keeps at most maxEntries counts', () => {
    const t = new FailureThrottle({ ...DEFAULT_THROTTLE, maxEntries: 3 }, () => 0)
    for (let i = 0; i < 5; i++) t.failure('a', undefined)
    for (let i = 0; i < 5; i++) t.failure(`other${i}`, undefined)
    expect(refusal(() => t.check('a', undefined))).toBeUndefined()
  })
})

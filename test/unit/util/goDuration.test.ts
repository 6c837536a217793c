import { describe, expect, it } from 'vitest'
import { configDurationMs, formatGoDuration, parseGoDuration } from '../../../src/util/goDuration.js'

describe('Go durations', () => {
  it.each([
    [5000, '5s'],
    [1000, '1s'],
    [1500, '1.5s'],
    [300, '300ms'],
    [0.5, '500µs'],
    [0.000001, '1ns'],
    [0, '0s'],
    [90_000, '1m30s'],
    [3_600_000, '1h0m0s'],
    [3_661_500, '1h1m1.5s'],
    [60_000, '1m0s'],
  ])('formats %d ms as %s (time.Duration.String)', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text)
    expect(parseGoDuration(text)).toBeCloseTo(ms, 9)
  })

  it('parses with Go error texts', () => {
    expect(parseGoDuration('1m30s')).toBe(90_000)
    expect(() => parseGoDuration('5')).toThrow('time: missing unit in duration "5"')
    expect(() => parseGoDuration('5x')).toThrow('time: unknown unit "x" in duration "5x"')
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""')
  })

  it('reads coreth config durations: strings, or nanoseconds as numbers', () => {
    expect(configDurationMs('5s')).toBe(5000)
    expect(configDurationMs(5_000_000_000)).toBe(5000)
    expect(configDurationMs('2000000')).toBe(2)
    expect(configDurationMs(0)).toBe(0)
  })
})

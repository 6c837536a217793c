const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * Go's time.ParseDuration, in milliseconds, with its error texts (`time: invalid duration "x"`,
 * `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`).
 */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text)
  let s = text
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) { sign = s[0] === '-' ? -1 : 1; s = s.slice(1) }
  if (s === '0') return 0
  if (s === '') throw new Error(`time: invalid duration ${quoted}`)
  let ms = 0
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)![0]
    if (num === '' || num === '.') throw new Error(`time: invalid duration ${quoted}`)
    s = s.slice(num.length)
    const unit = /^[^\d.]*/.exec(s)![0]
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`)
    const factor = UNITS[unit]
    if (factor === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`)
    s = s.slice(unit.length)
    ms += Number(num) * factor
  }
  return sign * ms
}

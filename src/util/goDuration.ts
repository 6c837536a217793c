/**
 * Go's time.ParseDuration, in milliseconds, with its error texts (`time: invalid duration "x"`,
 * `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`).
 */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text)
  let s = text
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1
    s = s.slice(1)
  }
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

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** A duration in ms as Go's time.Duration.String() prints it: "5s", "1.5s", "300ms", "1m30s", "1h0m0s". */
export function formatGoDuration(ms: number): string {
  let ns = Math.round(ms * 1e6)
  const sign = ns < 0 ? '-' : ''
  if (ns < 0) ns = -ns
  if (ns === 0) return '0s'
  if (ns < 1e9) {
    if (ns < 1e3) return sign + fraction(ns, 1) + 'ns'
    if (ns < 1e6) return sign + fraction(ns, 1e3) + 'µs'
    return sign + fraction(ns, 1e6) + 'ms'
  }
  const seconds = fraction(ns % 60e9, 1e9) + 's'
  const minutes = Math.floor(ns / 60e9)
  if (minutes === 0) return sign + seconds
  const hours = Math.floor(minutes / 60)
  return sign + (hours > 0 ? `${hours}h` : '') + `${minutes % 60}m` + seconds
}

/** v / unit with the fraction's trailing zeros dropped (Go's fmtFrac). */
function fraction(v: number, unit: number): string {
  const whole = Math.floor(v / unit)
  const rest = v % unit
  if (rest === 0) return String(whole)
  const digits = String(unit).length - 1
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`
}

/**
 * A coreth config Duration (plugin/evm/config Duration, spf13/cast ToDurationE) in ms: a Go
 * duration string ("5s", "1m30s"), or a number or a bare digit string of nanoseconds.
 */
export function configDurationMs(value: string | number): number {
  if (typeof value === 'number') return value / 1e6
  if (/^-?\d+$/.test(value)) return Number(value) / 1e6
  return parseGoDuration(value)
}

/** Numbers, amounts, times and hashes as the pages show them. */

export const big = (hex: string | undefined | null): bigint => (hex === undefined || hex === null || hex === '0x' ? 0n : BigInt(hex))
export const num = (hex: string | undefined | null): number => Number(big(hex))

export const grouped = (n: number | bigint): string => n.toLocaleString('en-US')

/** `value` / 10^decimals as a decimal text, trailing zeros dropped, digits grouped. */
export function units(value: bigint, decimals: number): string {
  const neg = value < 0n
  const v = neg ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = (v / base).toLocaleString('en-US')
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return (neg ? '-' : '') + whole + (frac === '' ? '' : '.' + frac)
}

/** Wei as AVAX (18 decimals on the EVM chains). */
export const avaxFromWei = (wei: bigint): string => `${units(wei, 18)} AVAX`
/** nAVAX as AVAX (9 decimals on X, P and in atomic txs). */
export const avaxFromNano = (nano: bigint): string => `${units(nano, 9)} AVAX`
/** Wei per gas in gwei (nAVAX); below a millionth of a gwei, in wei. */
export const gwei = (wei: bigint): string => (wei < 1_000_000n ? `${grouped(wei)} wei` : `${units(wei, 9)} gwei`)

/** `12 s ago`, `3 min ago`, ... from a UNIX time in seconds. */
export function age(seconds: number, now = Date.now() / 1000): string {
  const d = Math.max(0, Math.round(now - seconds))
  if (d < 60) return `${d} s ago`
  if (d < 3600) return `${Math.floor(d / 60)} min ago`
  if (d < 86400) return `${Math.floor(d / 3600)} h ago`
  return `${Math.floor(d / 86400)} d ago`
}

export const isoTime = (seconds: number): string => new Date(seconds * 1000).toISOString()

/** `part` as a percentage of `whole`, one decimal. */
export const percent = (part: bigint, whole: bigint): string => (whole === 0n ? '0%' : `${((Number(part) * 100) / Number(whole)).toFixed(1)}%`)

/**
 * A float64 as Go's `%f` prints it (fmt, strconv.FormatFloat(x, 'f', 6, 64)): the exact binary
 * value rounded to 6 decimals, ties to even, every integer digit written out (no exponent, as
 * JavaScript's toFixed uses past 1e21) and the sign of -0 kept. Finite values only (JSON has no others).
 */
export function goFixed6(x: number): string {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const hi = view.getUint32(0)
  const negative = hi >>> 31 === 1
  const biased = (hi >>> 20) & 0x7ff
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4))
  let exp = biased - 1075
  if (biased === 0) exp = -1074
  else mantissa |= 1n << 52n
  // |x| * 10^6 = mantissa * 10^6 * 2^exp, rounded to an integer half to even.
  let scaled = mantissa * 1_000_000n
  if (exp >= 0) {
    scaled <<= BigInt(exp)
  } else {
    const shift = BigInt(-exp)
    const q = scaled >> shift
    const rem = scaled - (q << shift)
    const half = 1n << (shift - 1n)
    scaled = rem > half || (rem === half && (q & 1n) === 1n) ? q + 1n : q
  }
  const digits = scaled.toString().padStart(7, '0')
  return (negative ? '-' : '') + digits.slice(0, -6) + '.' + digits.slice(-6)
}

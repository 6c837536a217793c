import { z } from 'zod'

/**
 * A uint256 as anvil's development methods take it (alloy U256): a 0x hex string (leading zeros
 * allowed, as hardhat's network helpers send), a decimal string, or a JSON number.
 */
export const LenientU256 = z.unknown().transform((v, ctx): bigint => {
  const text = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v
  const ok = typeof text === 'string' && (/^0[xX][0-9a-fA-F]{1,64}$/.test(text) || /^[0-9]{1,78}$/.test(text))
  const n = ok ? BigInt(text) : -1n
  if (n < 0n || n >= 1n << 256n) {
    ctx.addIssue({ code: 'custom', message: `invalid number: ${JSON.stringify(v)}`, input: v })
    return z.NEVER as never
  }
  return n
})

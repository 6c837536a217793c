import { z } from 'zod'
import { cb58DecodeID } from '../avalanche/cb58.js'
import type { Encoding } from '../avalanche/encoding.js'
import { parsePrivateKey } from '../avalanche/privateKey.js'

/*
 * Argument types of avalanchego's JSON APIs as Go's encoding/json reads them, shared by the
 * gorilla method tables (native/avax, avm, ...).
 */

/** `parse()`, or the zod issue `message` when it throws: a value Go's UnmarshalJSON refuses (gorilla answers errInvalidArg). */
export function parseOrIssue<T>(tctx: z.RefinementCtx, message: string, parse: () => T): T {
  try {
    return parse()
  } catch {
    tctx.addIssue({ code: 'custom', message })
    return z.NEVER
  }
}

/** ids.Empty: 32 zero bytes. */
export const EMPTY_ID = new Uint8Array(32)

/** formatting.Encoding's UnmarshalJSON: null/absent = hex, else one of the four names, any case. */
export const EncodingArg = z
  .string()
  .nullish()
  .transform((v, tctx): Encoding => {
    if (v === undefined || v === null) return 'hex'
    const lower = v.toLowerCase()
    if (lower === 'hex' || lower === 'hexnc' || lower === 'hexc' || lower === 'json') return lower
    tctx.addIssue({ code: 'custom', message: 'invalid encoding' })
    return z.NEVER
  })

/** json.Uint32: a number or a quoted decimal (strconv.ParseUint(s, 10, 32)); null = 0. */
export const Uint32Arg = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v, tctx): number => {
    if (v === undefined || v === null) return 0
    const n = typeof v === 'number' ? v : /^[0-9]+$/.test(v) ? Number(v) : NaN
    if (!Number.isSafeInteger(n) || n < 0 || n > 0xffffffff) {
      tctx.addIssue({ code: 'custom', message: 'invalid uint32' })
      return z.NEVER
    }
    return n
  })

/** ids.ID's UnmarshalJSON: null/absent = the empty ID; a string must be CB58 of 32 bytes. */
export const IDArg = z
  .string()
  .nullish()
  .transform((v, tctx): Uint8Array => {
    if (v === undefined || v === null) return EMPTY_ID
    return parseOrIssue(tctx, 'invalid ID', () => cb58DecodeID(v))
  })

const UINT64_MAX = (1n << 64n) - 1n

/** json.Uint64: a number or a quoted decimal (strconv.ParseUint(s, 10, 64)); null/absent = 0. */
export const Uint64Arg = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v, tctx): bigint => {
    if (v === undefined || v === null) return 0n
    const text = typeof v === 'number' ? (Number.isSafeInteger(v) && v >= 0 ? String(v) : '') : v
    if (!/^[0-9]+$/.test(text) || BigInt(text) > UINT64_MAX) {
      tctx.addIssue({ code: 'custom', message: 'invalid uint64' })
      return z.NEVER
    }
    return BigInt(text)
  })

/** secp256k1.PrivateKey's UnmarshalJSON: `PrivateKey-<cb58>`; null/absent = not given. */
export const PrivateKeyArg = z
  .string()
  .nullish()
  .transform((v, tctx): Uint8Array | undefined => {
    if (v === undefined || v === null) return undefined
    return parseOrIssue(tctx, 'invalid private key', () => parsePrivateKey(v))
  })

import type { z } from 'zod'
import type { CallRequest as CallRequestValue } from '../engine/base/types.js'

/*
 * Quick parses of the common params schemas for their plain, valid forms only (an address as
 * 0x + 40 hex digits, a block tag, a call object of hex fields): the value zod would produce, made
 * without zod's pipeline (docs/PERFORMANCE.md: zod's parse was a tenth of an eth_getBalance). Any other
 * input, valid or not, is SLOW and goes to the zod schema, which stays the one place that accepts,
 * normalises and words errors.
 */

/** A quick parse's answer for a value not in the plain form it takes. */
export const SLOW: unique symbol = Symbol('slow')
type Quick = (v: unknown) => unknown

const HEX_BODY = /^[0-9a-fA-F]*$/
const has0x = (s: string): boolean => s.length >= 2 && s.charCodeAt(0) === 0x30 && (s.charCodeAt(1) === 0x78 || s.charCodeAt(1) === 0x58)

/** hexutil.Bytes, or a fixed-size hash/address: 0x, an even number of hex digits (exactly 2 * length). */
function bytes(length?: number): Quick {
  return (v) => {
    if (typeof v !== 'string' || !has0x(v) || v.length % 2 === 1 || (length !== undefined && v.length !== 2 + 2 * length)) return SLOW
    const body = v.slice(2)
    return HEX_BODY.test(body) ? Buffer.from(body, 'hex') : SLOW
  }
}

/** hexutil.Big / Uint64: 0x and 1 to bits/4 hex digits, no leading zero (so never over `bits`). */
function quantity(bits: number): Quick {
  return (v) => {
    if (typeof v !== 'string' || !has0x(v) || v.length < 3 || v.length > 2 + bits / 4 || (v.length > 3 && v.charCodeAt(2) === 0x30)) return SLOW
    const body = v.slice(2)
    return HEX_BODY.test(body) ? BigInt('0x' + body) : SLOW
  }
}

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized'])
/** A block tag as BlockRef parses it (`accepted` and numbers are zod's). */
const blockTag: Quick = (v) => (typeof v === 'string' && TAGS.has(v) ? v : SLOW)

const address = bytes(20)
const u64 = quantity(64)
const u256 = quantity(256)
const input = bytes()
/** TransactionArgs fields taken quickly, in the order CallRequest's transform writes them. */
const CALL_FIELDS: [keyof CallRequestValue, Quick][] = [
  ['from', address],
  ['to', address],
  ['gas', u64],
  ['gasPrice', u256],
  ['maxFeePerGas', u256],
  ['maxPriorityFeePerGas', u256],
  ['value', u256],
  ['nonce', u64],
  ['input', input],
  ['chainId', u256],
  ['type', u64],
]
const CALL_QUICK = new Map<string, Quick>([...CALL_FIELDS, ['data', input]])

/** A call object of known hex fields (no access list); `data` and `input` equal when both are set. */
const callRequest: Quick = (v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return SLOW
  const o = v as Record<string, unknown>
  const got: Record<string, unknown> = {}
  for (const key of Object.keys(o)) {
    const quick = CALL_QUICK.get(key)
    if (quick === undefined) return SLOW
    const value = o[key]
    if (value === null || value === undefined) continue
    const parsed = quick(value)
    if (parsed === SLOW) return SLOW
    got[key] = parsed
  }
  const data = got.data as Buffer | undefined
  if (data !== undefined) {
    if (got.input !== undefined && !data.equals(got.input as Buffer)) return SLOW
    got.input ??= data
  }
  if (got.gasPrice !== undefined && (got.maxFeePerGas !== undefined || got.maxPriorityFeePerGas !== undefined)) return SLOW
  const out: Record<string, unknown> = {}
  for (const [key] of CALL_FIELDS) if (got[key] !== undefined) out[key] = got[key]
  return out
}

/** The shared params schemas' quick parses, by schema: src/rpc/schemas.ts hands them over when it loads (registerQuickParses). */
const QUICK = new Map<z.ZodType, Quick>()

/**
 * Gives the shared schemas their quick parses. The schemas hand themselves over, rather than this
 * file importing them, so the dispatcher loads without them: building them is most of what zod
 * costs at start, and the CLI's early listener (src/startup/) needs none (docs/PERFORMANCE.md, "Start-up").
 */
export function registerQuickParses(s: Record<'Address' | 'Hash32' | 'Data' | 'Quantity' | 'Uint64' | 'BlockRef' | 'CallRequest', z.ZodType>): void {
  QUICK.set(s.Address, address)
  QUICK.set(s.Hash32, bytes(32))
  QUICK.set(s.Data, input)
  QUICK.set(s.Quantity, u256)
  QUICK.set(s.Uint64, u64)
  QUICK.set(s.BlockRef, blockTag)
  QUICK.set(s.CallRequest, callRequest)
}

/**
 * The quick parse of a z.tuple params schema without a rest element, when each item's schema
 * (or, for an optional item, its inner schema) has one: it returns the tuple zod would return
 * (absent optional items stay undefined, the length is the input's), or SLOW. Undefined when the
 * schema has none. The caller has checked the arity and turned null optional items into undefined.
 */
export function quickTuple(schema: z.ZodType): ((list: unknown[]) => unknown[] | typeof SLOW) | undefined {
  const def = schema._zod.def as unknown as { type: string; items?: z.ZodType[]; rest?: z.ZodType | null }
  if (def.type !== 'tuple' || def.rest != null || def.items === undefined || def.items.length === 0) return undefined
  const items = def.items.map((item) => {
    const d = item._zod.def as unknown as { type: string; innerType?: z.ZodType }
    const optional = d.type === 'optional'
    return { optional, quick: QUICK.get(optional ? d.innerType! : item) }
  })
  if (items[0]!.quick === undefined) return undefined
  return (list) => {
    const out: unknown[] = []
    for (let i = 0; i < list.length; i++) {
      const v = list[i]
      const item = items[i]!
      if (v === undefined && item.optional) {
        out.push(undefined)
        continue
      }
      if (item.quick === undefined) return SLOW
      const parsed = item.quick(v)
      if (parsed === SLOW) return SLOW
      out.push(parsed)
    }
    return out
  }
}

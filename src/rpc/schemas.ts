import { z } from 'zod'
import type { BlockRef as BlockRefValue, CallRequest as CallRequestValue, StateOverride as StateOverrideValue } from '../engine/types.js'

/*
 * Shared params schemas. Each parses wire hex into bigint/Uint8Array once, with geth's hexutil
 * error texts ("hex string without 0x prefix", ...) so the dispatcher can answer
 * `invalid argument N: <text>` exactly as geth does (LIMITS.md E8).
 */

type Ctx = z.core.$RefinementCtx

function fail(ctx: Ctx, input: unknown, message: string): never {
  ctx.addIssue({ code: 'custom', message, input })
  return z.NEVER as never
}

function goType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v === 'object' ? 'object' : typeof v
}

function hexBody(v: unknown, ctx: Ctx, goTypeName: string): string {
  if (typeof v !== 'string') return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type ${goTypeName}`)
  if (v.length < 2 || v[0] !== '0' || (v[1] !== 'x' && v[1] !== 'X')) return fail(ctx, v, v === '' ? 'empty hex string' : 'hex string without 0x prefix')
  return v.slice(2)
}

const HEX_CHARS = /^[0-9a-fA-F]*$/

function quantity(bits: number, goTypeName: string) {
  const max = (1n << BigInt(bits)) - 1n
  return z.unknown().transform((v, ctx): bigint => {
    const body = hexBody(v, ctx, goTypeName)
    if (body.length === 0) return fail(ctx, v, 'hex string "0x"')
    if (!HEX_CHARS.test(body)) return fail(ctx, v, 'invalid hex string')
    if (body.length > 1 && body[0] === '0') return fail(ctx, v, 'hex number with leading zero digits')
    if (body.length > bits / 4) return fail(ctx, v, `hex number > ${bits} bits`)
    const n = BigInt('0x' + body)
    return n > max ? fail(ctx, v, `hex number > ${bits} bits`) : n
  })
}

function data(length: number | undefined, goTypeName: string) {
  return z.unknown().transform((v, ctx): Uint8Array => {
    const body = hexBody(v, ctx, goTypeName)
    if (body.length % 2 === 1) return fail(ctx, v, length === undefined ? 'hex string of odd length' : `json: cannot unmarshal hex string of odd length into Go value of type ${goTypeName}`)
    if (!HEX_CHARS.test(body)) return fail(ctx, v, 'invalid hex string')
    if (length !== undefined && body.length !== length * 2) {
      return fail(ctx, v, `hex string has length ${body.length}, want ${length * 2} for ${goTypeName}`)
    }
    return Buffer.from(body, 'hex')
  })
}

/** QUANTITY, uint256. */
export const Quantity = quantity(256, '*hexutil.Big')
/** QUANTITY, uint64. */
export const Uint64 = quantity(64, 'hexutil.Uint64')
/** DATA, any length. */
export const Data = data(undefined, 'hexutil.Bytes')
/** DATA, 20 bytes. */
export const Address = data(20, 'common.Address')
/** DATA, 32 bytes. */
export const Hash32 = data(32, 'common.Hash')

/** A storage slot: geth accepts any hex up to 32 bytes, padded left. */
export const StorageSlot = z.unknown().transform((v, ctx): Uint8Array => {
  const body = hexBody(v, ctx, 'common.Hash')
  if (!HEX_CHARS.test(body)) return fail(ctx, v, 'invalid hex string')
  if (body.length > 64) return fail(ctx, v, 'hex string too long, want at most 32 bytes')
  return Buffer.from(body.padStart(64, '0'), 'hex')
})

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized', 'accepted'])

function blockNumberFrom(v: unknown, ctx: Ctx): BlockRefValue {
  if (typeof v === 'string' && TAGS.has(v)) return (v === 'accepted' ? 'latest' : v) as BlockRefValue
  const body = hexBody(v, ctx, 'rpc.BlockNumber')
  if (body.length === 0) return fail(ctx, v, 'hex string "0x"')
  if (!HEX_CHARS.test(body)) return fail(ctx, v, 'invalid hex string')
  if (body.length > 1 && body[0] === '0') return fail(ctx, v, 'hex number with leading zero digits')
  const n = BigInt('0x' + body)
  if (body.length > 16 || n > 0x7fffffffffffffffn) return fail(ctx, v, 'block number larger than int64')
  return n
}

/** Block number or tag (geth rpc.BlockNumber). */
export const BlockTag = z.unknown().transform((v, ctx): Exclude<BlockRefValue, { blockHash: Uint8Array }> => {
  const r = blockNumberFrom(v, ctx)
  return r as Exclude<BlockRefValue, { blockHash: Uint8Array }>
})

/** Block number, tag, hash, or EIP-1898 object (geth rpc.BlockNumberOrHash). */
export const BlockRef = z.unknown().transform((v, ctx): BlockRefValue => {
  if (typeof v === 'string' && v.length === 66 && (v.startsWith('0x') || v.startsWith('0X'))) {
    if (!HEX_CHARS.test(v.slice(2))) return fail(ctx, v, 'invalid hex string')
    return { blockHash: Buffer.from(v.slice(2), 'hex') }
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    if (o.blockHash !== undefined && o.blockNumber !== undefined) return fail(ctx, v, 'cannot specify both BlockHash and BlockNumber, choose one or the other')
    if (o.blockHash !== undefined) {
      const parsed = Hash32.safeParse(o.blockHash)
      if (!parsed.success) return fail(ctx, v, parsed.error.issues[0]!.message)
      if (o.requireCanonical !== undefined && typeof o.requireCanonical !== 'boolean') return fail(ctx, v, 'json: cannot unmarshal non-bool into Go struct field .requireCanonical of type bool')
      return { blockHash: parsed.data, requireCanonical: o.requireCanonical === true }
    }
    if (o.blockNumber !== undefined) return blockNumberFrom(o.blockNumber, ctx)
    return fail(ctx, v, 'invalid block number or hash')
  }
  return blockNumberFrom(v, ctx)
})

const AccessList = z.array(z.object({ address: Address, storageKeys: z.array(Hash32).nullish() }))
  .transform((l) => l.map((i) => ({ address: i.address, storageKeys: i.storageKeys ?? [] })))

/** geth TransactionArgs for eth_call / eth_estimateGas / eth_createAccessList / eth_fillTransaction. */
export const CallRequest = z.object({
  from: Address.nullish(),
  to: Address.nullish(),
  gas: Uint64.nullish(),
  gasPrice: Quantity.nullish(),
  maxFeePerGas: Quantity.nullish(),
  maxPriorityFeePerGas: Quantity.nullish(),
  value: Quantity.nullish(),
  nonce: Uint64.nullish(),
  data: Data.nullish(),
  input: Data.nullish(),
  chainId: Quantity.nullish(),
  accessList: AccessList.nullish(),
  type: Quantity.nullish(),
}).transform((r, ctx): CallRequestValue => {
  if (r.input != null && r.data != null && Buffer.compare(r.input, r.data) !== 0) {
    return fail(ctx, r, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
  }
  if (r.gasPrice != null && (r.maxFeePerGas != null || r.maxPriorityFeePerGas != null)) {
    return fail(ctx, r, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  const out: CallRequestValue = {}
  if (r.from != null) out.from = r.from
  if (r.to != null) out.to = r.to
  if (r.gas != null) out.gas = r.gas
  if (r.gasPrice != null) out.gasPrice = r.gasPrice
  if (r.maxFeePerGas != null) out.maxFeePerGas = r.maxFeePerGas
  if (r.maxPriorityFeePerGas != null) out.maxPriorityFeePerGas = r.maxPriorityFeePerGas
  if (r.value != null) out.value = r.value
  if (r.nonce != null) out.nonce = r.nonce
  const input = r.input ?? r.data
  if (input != null) out.input = input
  if (r.chainId != null) out.chainId = r.chainId
  if (r.accessList != null) out.accessList = r.accessList
  if (r.type != null) out.type = r.type
  return out
})

const StorageMap = z.record(z.string(), Hash32).superRefine((m, ctx) => {
  for (const k of Object.keys(m)) if (!/^0x[0-9a-fA-F]{64}$/.test(k)) ctx.addIssue({ code: 'custom', message: `invalid storage key ${k}`, input: k })
})

/** geth StateOverride: address -> { balance, nonce, code, state | stateDiff }. */
export const StateOverride = z.record(z.string(), z.object({
  balance: Quantity.nullish(),
  nonce: Uint64.nullish(),
  code: Data.nullish(),
  state: StorageMap.nullish(),
  stateDiff: StorageMap.nullish(),
})).transform((m, ctx): StateOverrideValue => {
  const out: StateOverrideValue = {}
  for (const [addr, o] of Object.entries(m)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(addr)) return fail(ctx, m, `hex string has length ${Math.max(0, addr.length - 2)}, want 40 for common.Address`)
    if (o.state != null && o.stateDiff != null) return fail(ctx, m, `account ${addr} has both 'state' and 'stateDiff'`)
    const entry: StateOverrideValue[string] = {}
    if (o.balance != null) entry.balance = o.balance
    if (o.nonce != null) entry.nonce = o.nonce
    if (o.code != null) entry.code = o.code
    if (o.state != null) entry.state = o.state
    if (o.stateDiff != null) entry.stateDiff = o.stateDiff
    out[addr.toLowerCase()] = entry
  }
  return out
})

/** A boolean flag (geth's json bool). */
export const Bool = z.boolean({ error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type bool` })

/** Reward percentiles of eth_feeHistory (floats). */
export const Percentiles = z.array(z.number({ error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type float64` }))

/** A parsed eth_getLogs / eth_newFilter request (geth filters.FilterCriteria). */
export interface LogFilterRequest {
  blockHash?: Uint8Array
  fromBlock?: Exclude<BlockRefValue, { blockHash: Uint8Array }>
  toBlock?: Exclude<BlockRefValue, { blockHash: Uint8Array }>
  addresses: Uint8Array[]
  topics: (Uint8Array[] | null)[]
}

/** geth filters: at most this many addresses, and topic positions. */
const MAX_FILTER_ADDRESSES = 1000
const MAX_FILTER_TOPICS = 4

function topicFrom(v: unknown): Uint8Array | string {
  if (typeof v !== 'string') return 'invalid topic(s)'
  const parsed = Hash32.safeParse(v)
  return parsed.success ? parsed.data : parsed.error.issues[0]!.message
}

/** geth FilterCriteria.UnmarshalJSON, with its error texts. */
export const LogFilter = z.unknown().transform((v, ctx): LogFilterRequest => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type filters.FilterCriteria`)
  const o = v as Record<string, unknown>
  const out: LogFilterRequest = { addresses: [], topics: [] }
  if (o.blockHash != null) {
    if (o.fromBlock != null || o.toBlock != null) return fail(ctx, v, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    const h = Hash32.safeParse(o.blockHash)
    if (!h.success) return fail(ctx, v, h.error.issues[0]!.message)
    out.blockHash = h.data
  }
  for (const key of ['fromBlock', 'toBlock'] as const) {
    if (o[key] == null) continue
    const b = BlockTag.safeParse(o[key])
    if (!b.success) return fail(ctx, v, b.error.issues[0]!.message)
    out[key] = b.data
  }
  if (o.address != null) {
    const list = typeof o.address === 'string' ? [o.address] : Array.isArray(o.address) ? o.address : undefined
    if (list === undefined) return fail(ctx, v, 'invalid addresses in query')
    if (list.length > MAX_FILTER_ADDRESSES) return fail(ctx, v, 'exceed max addresses')
    for (let i = 0; i < list.length; i++) {
      const a = Address.safeParse(list[i])
      if (!a.success) return fail(ctx, v, typeof o.address === 'string' ? `invalid address: ${a.error.issues[0]!.message}` : `invalid address at index ${i}: ${a.error.issues[0]!.message}`)
      out.addresses.push(a.data)
    }
  }
  if (o.topics != null) {
    if (!Array.isArray(o.topics)) return fail(ctx, v, 'invalid topic(s)')
    if (o.topics.length > MAX_FILTER_TOPICS) return fail(ctx, v, 'exceed max topics')
    for (const position of o.topics) {
      if (position === null) { out.topics.push(null); continue }
      if (typeof position === 'string') {
        const t = topicFrom(position)
        if (typeof t === 'string') return fail(ctx, v, t)
        out.topics.push([t])
        continue
      }
      if (!Array.isArray(position)) return fail(ctx, v, 'invalid topic(s)')
      let alternatives: Uint8Array[] | null = []
      for (const alt of position) {
        // A null alternative matches anything in that position (geth).
        if (alt === null) { alternatives = null; break }
        const t = topicFrom(alt)
        if (typeof t === 'string') return fail(ctx, v, t)
        alternatives.push(t)
      }
      out.topics.push(alternatives)
    }
  }
  return out
})

/** A filter or subscription id as geth issues them (rpc.ID, "0x" + hex). */
export const FilterId = z.string({ error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type rpc.ID` })

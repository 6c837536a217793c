import { z } from 'zod'
import type { BlockRef as BlockRefValue, CallRequest as CallRequestValue, StateOverride as StateOverrideValue } from '../engine/base/types.js'
import { AFTER_DECODE } from './errors.js'
import { registerQuickParses } from './quickParse.js'

/*
 * Shared params schemas. Each parses wire hex into bigint/Uint8Array once, with geth's hexutil
 * error texts ("hex string without 0x prefix", ...) so the dispatcher can answer
 * `invalid argument N: <text>` exactly as geth does (docs/SECURITY.md, E8).
 */

type Ctx = z.core.$RefinementCtx

export function fail(ctx: Ctx, input: unknown, message: string, params?: Record<string, unknown>): never {
  ctx.addIssue({ code: 'custom', message, input, ...(params && { params }) })
  return z.NEVER as never
}

/** The JSON type name Go's encoding/json reports for a value ("number", "bool", "object", ...). */
export function goType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'boolean') return 'bool'
  return typeof v === 'object' ? 'object' : typeof v
}

/**
 * geth's hexutil wraps its decoding errors in a json.UnmarshalTypeError (hexutil/json.go wrapTypeError):
 * `json: cannot unmarshal <what> into Go value of type <T>`, or, for a field of a struct argument,
 * `... into Go struct field <Struct>.<field> of type <T>` (encoding/json adds the context).
 */
function typeError(what: string, goTypeName: string, field?: string): string {
  return field === undefined ? `json: cannot unmarshal ${what} into Go value of type ${goTypeName}` : `json: cannot unmarshal ${what} into Go struct field ${field} of type ${goTypeName}`
}

const HEX_CHARS = /^[0-9a-fA-F]*$/
const has0x = (s: string): boolean => s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')

/** hexutil.Big / Uint64 / Uint (UnmarshalJSON): `field` = "Struct.field" when inside a struct argument. */
export function quantity(bits: number, goTypeName: string, field?: string) {
  const max = (1n << BigInt(bits)) - 1n
  return z.unknown().transform((v, ctx): bigint => {
    const bad = (what: string): never => fail(ctx, v, typeError(what, goTypeName, field))
    if (typeof v !== 'string') return bad('non-string')
    if (v === '') return 0n // geth checkNumberText: an empty string is allowed (zero)
    if (!has0x(v)) return bad('hex string without 0x prefix')
    const body = v.slice(2)
    if (body.length === 0) return bad('hex string "0x"')
    if (body.length > 1 && body[0] === '0') return bad('hex number with leading zero digits')
    if (body.length > bits / 4) return bad(`hex number > ${bits} bits`)
    if (!HEX_CHARS.test(body)) return bad('invalid hex string')
    const n = BigInt('0x' + body)
    return n > max ? bad(`hex number > ${bits} bits`) : n
  })
}

/** hexutil.Bytes (length undefined) or a fixed-size common.Address / common.Hash (UnmarshalFixedJSON). */
export function data(length: number | undefined, goTypeName: string, field?: string) {
  return z.unknown().transform((v, ctx): Uint8Array => {
    const bad = (what: string): never => fail(ctx, v, typeError(what, goTypeName, field))
    if (typeof v !== 'string') return bad('non-string')
    let body = ''
    if (v !== '') {
      // geth checkText: an empty string is allowed (no bytes)
      if (!has0x(v)) return bad('hex string without 0x prefix')
      body = v.slice(2)
      if (body.length % 2 === 1) return bad('hex string of odd length')
    }
    // The length error is a plain fmt.Errorf in geth, not wrapped.
    if (length !== undefined && body.length !== length * 2) return fail(ctx, v, `hex string has length ${body.length}, want ${length * 2} for ${goTypeName}`)
    if (!HEX_CHARS.test(body)) return bad('invalid hex string')
    return Buffer.from(body, 'hex')
  })
}

/** QUANTITY, uint256. */
export const Quantity = quantity(256, '*hexutil.Big')
/** QUANTITY, uint64. */
export const Uint64 = quantity(64, 'hexutil.Uint64')
/** QUANTITY, geth hexutil.Uint (transaction and uncle indexes). */
export const Uint = quantity(64, 'hexutil.Uint')
/** DATA, any length. */
export const Data = data(undefined, 'hexutil.Bytes')
/** DATA, 20 bytes. */
export const Address = data(20, 'common.Address')
/** DATA, 32 bytes. */
export const Hash32 = data(32, 'common.Hash')

/** A storage slot as geth's GetStorageAt takes it: a plain string, decoded by the handler. */
export const StorageSlot = z.unknown().transform((v, ctx): string => {
  if (v === null) return '' // a JSON null leaves a Go string empty
  if (typeof v !== 'string') return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type string`)
  return v
})

/**
 * geth decodeStorageKey (internal/ethapi/api.go): optional 0x, odd lengths padded, at most 32 bytes.
 * Returns the 32-byte key, or geth's -32602 text (`<reason>: "<key>"`, not an "invalid argument" text).
 */
export function decodeStorageKey(key: string): Uint8Array | string {
  let s = has0x(key) && key[1] === 'x' ? key.slice(2) : key.startsWith('0X') ? key.slice(2) : key
  if (s.length % 2 === 1) s = '0' + s
  if (s.length > 64) return `storage key too long (want at most 32 bytes): ${JSON.stringify(key)}`
  if (!HEX_CHARS.test(s)) return `invalid hex in storage key: ${JSON.stringify(key)}`
  return Buffer.from(s.padStart(64, '0'), 'hex')
}

/** eth_getStorageValues' requests: geth map[common.Address][]common.Hash (keys are text-decoded addresses). */
export const StorageRequests = z.unknown().transform((v, ctx): { address: Uint8Array; keys: Uint8Array[] }[] => {
  if (v === null) return []
  if (typeof v !== 'object' || Array.isArray(v)) return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type map[common.Address][]common.Hash`)
  const out: { address: Uint8Array; keys: Uint8Array[] }[] = []
  for (const [key, list] of Object.entries(v as Record<string, unknown>)) {
    const address = Address.safeParse(key)
    if (!address.success) return fail(ctx, v, address.error.issues[0]!.message.replace('Go value of type common.Address', 'Go value of type map[common.Address][]common.Hash'))
    if (list !== null && !Array.isArray(list)) return fail(ctx, v, `json: cannot unmarshal ${goType(list)} into Go value of type []common.Hash`)
    const keys: Uint8Array[] = []
    for (const k of list ?? []) {
      const h = Hash32.safeParse(k)
      if (!h.success) return fail(ctx, v, h.error.issues[0]!.message)
      keys.push(h.data)
    }
    // Go maps keep one entry per address: a repeated (differently cased) key replaces the earlier one.
    const at = out.findIndex((r) => Buffer.compare(r.address, address.data) === 0)
    if (at >= 0) out.splice(at, 1)
    out.push({ address: address.data, keys })
  }
  return out
})

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized', 'accepted'])

/** hexutil.DecodeUint64's errors (not wrapped), scanning like strconv.ParseUint. */
function decodeUint64(v: string): bigint | string {
  if (v === '') return 'empty hex string'
  if (!has0x(v)) return 'hex string without 0x prefix'
  const body = v.slice(2)
  if (body.length === 0) return 'hex string "0x"'
  if (body.length > 1 && body[0] === '0') return 'hex number with leading zero digits'
  let n = 0n
  for (const c of body) {
    if (!HEX_CHARS.test(c)) return 'invalid hex string'
    n = n * 16n + BigInt(parseInt(c, 16))
    if (n > 0xffffffffffffffffn) return 'hex number > 64 bits'
  }
  return n
}

type NumberOrTag = Exclude<BlockRefValue, { blockHash: Uint8Array }>

/** geth rpc.BlockNumber.UnmarshalJSON: tags, or a hex number up to int64 (the raw JSON text when not a string). */
function blockNumberFrom(v: unknown, ctx: Ctx, tooHigh = 'block number larger than int64'): NumberOrTag {
  if (typeof v === 'string' && TAGS.has(v)) return (v === 'accepted' ? 'latest' : v) as NumberOrTag
  const n = decodeUint64(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))
  if (typeof n === 'string') return fail(ctx, v, n)
  return n > 0x7fffffffffffffffn ? fail(ctx, v, tooHigh) : n
}

/** Block number or tag (geth rpc.BlockNumber). */
export const BlockTag = z.unknown().transform((v, ctx): NumberOrTag => blockNumberFrom(v, ctx))

/** Block number, tag, hash, or EIP-1898 object (geth rpc.BlockNumberOrHash.UnmarshalJSON, with its texts). */
export const BlockRef = z.unknown().transform((v, ctx): BlockRefValue => {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    // Any bad member makes geth's struct decoding fail; it then retries the value as a string.
    const notString = (): never => fail(ctx, v, 'json: cannot unmarshal object into Go value of type string')
    let blockHash: Uint8Array | undefined
    let number: NumberOrTag | undefined
    if (o.blockHash != null) {
      const parsed = Hash32.safeParse(o.blockHash)
      if (!parsed.success) return notString()
      blockHash = parsed.data
    }
    if (o.blockNumber != null) {
      const parsed = BlockTag.safeParse(o.blockNumber)
      if (!parsed.success) return notString()
      number = parsed.data
    }
    if (o.requireCanonical != null && typeof o.requireCanonical !== 'boolean') return notString()
    if (blockHash !== undefined && number !== undefined) return fail(ctx, v, 'cannot specify both BlockHash and BlockNumber, choose one or the other')
    if (blockHash !== undefined) return { blockHash, requireCanonical: o.requireCanonical === true }
    if (number !== undefined) return number
    return fail(ctx, v, 'must specify either BlockHash or BlockNumber')
  }
  if (v === null) return fail(ctx, v, 'must specify either BlockHash or BlockNumber')
  if (typeof v !== 'string') return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type string`)
  if (v.length === 66 && !TAGS.has(v)) {
    // common.Hash.UnmarshalText: texts not wrapped.
    if (!has0x(v)) return fail(ctx, v, 'hex string without 0x prefix')
    if (!HEX_CHARS.test(v.slice(2))) return fail(ctx, v, 'invalid hex string')
    return { blockHash: Buffer.from(v.slice(2), 'hex') }
  }
  return blockNumberFrom(v, ctx, 'blocknumber too high')
})

const AccessList = z.array(z.object({ address: Address, storageKeys: z.array(Hash32).nullish() })).transform((l) => l.map((i) => ({ address: i.address, storageKeys: i.storageKeys ?? [] })))

const ARGS = 'TransactionArgs'

/** geth TransactionArgs for eth_call / eth_estimateGas / eth_createAccessList / eth_fillTransaction. */
export const CallRequest = z
  .object(
    {
      from: data(20, 'common.Address', `${ARGS}.from`).nullish(),
      to: data(20, 'common.Address', `${ARGS}.to`).nullish(),
      gas: quantity(64, 'hexutil.Uint64', `${ARGS}.gas`).nullish(),
      gasPrice: quantity(256, '*hexutil.Big', `${ARGS}.gasPrice`).nullish(),
      maxFeePerGas: quantity(256, '*hexutil.Big', `${ARGS}.maxFeePerGas`).nullish(),
      maxPriorityFeePerGas: quantity(256, '*hexutil.Big', `${ARGS}.maxPriorityFeePerGas`).nullish(),
      value: quantity(256, '*hexutil.Big', `${ARGS}.value`).nullish(),
      nonce: quantity(64, 'hexutil.Uint64', `${ARGS}.nonce`).nullish(),
      data: data(undefined, 'hexutil.Bytes', `${ARGS}.data`).nullish(),
      input: data(undefined, 'hexutil.Bytes', `${ARGS}.input`).nullish(),
      chainId: quantity(256, '*hexutil.Big', `${ARGS}.chainId`).nullish(),
      accessList: AccessList.nullish(),
      type: quantity(64, 'hexutil.Uint64', `${ARGS}.type`).nullish(),
    },
    { error: (i) => (i.code === 'invalid_type' ? `json: cannot unmarshal ${goType(i.input)} into Go value of type ethapi.TransactionArgs` : undefined) },
  )
  .transform((r, ctx): CallRequestValue => {
    // geth raises these after decoding (TransactionArgs CallDefaults / setDefaults, fees first): -32000 without an argument prefix.
    if (r.gasPrice != null && (r.maxFeePerGas != null || r.maxPriorityFeePerGas != null)) {
      return fail(ctx, r, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified', AFTER_DECODE)
    }
    if (r.input != null && r.data != null && Buffer.compare(r.input, r.data) !== 0) {
      return fail(ctx, r, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data', AFTER_DECODE)
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
export const StateOverride = z
  .record(
    z.string(),
    z.object({
      balance: Quantity.nullish(),
      nonce: Uint64.nullish(),
      code: Data.nullish(),
      state: StorageMap.nullish(),
      stateDiff: StorageMap.nullish(),
      movePrecompileToAddress: Address.nullish(),
    }),
  )
  .transform((m, ctx): StateOverrideValue => {
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
      if (o.movePrecompileToAddress != null) entry.movePrecompileToAddress = o.movePrecompileToAddress
      out[addr.toLowerCase()] = entry
    }
    return out
  })

/** A boolean flag (geth's json bool). */
export const Bool = z.union([z.boolean(), z.null().transform(() => false)], { error: (i) => `json: cannot unmarshal ${goType(i.input)} into Go value of type bool` })

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

/** Topic positions of a log filter: LOG4 is the EVM's largest log, so this is not a setting (geth maxTopics). */
const MAX_FILTER_TOPICS = 4

/** Log filter sizes (docs/SECURITY.md, E4; chain config `logs-max-addresses`, `logs-max-topic-alternatives`). */
export interface LogFilterLimits {
  /** Addresses at most (geth eth/filters maxAddresses). */
  maxAddresses: number
  /** Alternatives in one topic position (geth eth/filters maxSubTopics). */
  maxTopicAlternatives: number
}

/** geth hexutil.Decode plus the filter's length check (eth/filters decodeAddress/decodeTopic); a string is the error. */
function filterHex(v: string, length: number, what: 'address' | 'topic'): Uint8Array | string {
  if (v === '') return 'empty hex string'
  if (!(v.startsWith('0x') || v.startsWith('0X'))) return 'hex string without 0x prefix'
  const body = v.slice(2)
  if (body.length % 2 === 1) return 'hex string of odd length'
  if (!HEX_CHARS.test(body)) return 'invalid hex string'
  if (body.length !== length * 2) return `hex has invalid length ${body.length / 2} after decoding; expected ${length} for ${what}`
  return Buffer.from(body, 'hex')
}

function topicFrom(v: unknown): Uint8Array | string {
  if (typeof v !== 'string') return 'invalid topic(s)'
  return filterHex(v, 32, 'topic')
}

/** geth FilterCriteria.UnmarshalJSON, with its error texts, under the given size limits. */
export const logFilterSchema = (limits: LogFilterLimits) =>
  z.unknown().transform((v, ctx): LogFilterRequest => {
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
      if (list.length > limits.maxAddresses) return fail(ctx, v, 'exceed max addresses')
      for (let i = 0; i < list.length; i++) {
        const a = typeof list[i] === 'string' ? filterHex(list[i] as string, 20, 'address') : 'invalid address'
        if (typeof a === 'string') return fail(ctx, v, typeof o.address === 'string' ? `invalid address: ${a}` : `invalid address at index ${i}: ${a}`)
        out.addresses.push(a)
      }
    }
    if (o.topics != null) {
      if (!Array.isArray(o.topics)) return fail(ctx, v, 'invalid topic(s)')
      if (o.topics.length > MAX_FILTER_TOPICS) return fail(ctx, v, 'exceed max topics')
      for (const position of o.topics) {
        if (position === null) {
          out.topics.push(null)
          continue
        }
        if (typeof position === 'string') {
          const t = topicFrom(position)
          if (typeof t === 'string') return fail(ctx, v, t)
          out.topics.push([t])
          continue
        }
        if (!Array.isArray(position)) return fail(ctx, v, 'invalid topic(s)')
        if (position.length > limits.maxTopicAlternatives) return fail(ctx, v, 'exceed max topics')
        let alternatives: Uint8Array[] | null = []
        for (const alt of position) {
          // A null alternative matches anything in that position (geth).
          if (alt === null) {
            alternatives = null
            break
          }
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

/** A Go `string` argument (passwords, raw private keys): `json: cannot unmarshal number into Go value of type string`. */
export const GoString = z.unknown().transform((v, ctx): string => {
  if (typeof v !== 'string') return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type string`)
  return v
})

/** A Go `*uint64` given as a JSON number (personal_unlockAccount's duration in seconds). */
export const GoUint64Number = z.unknown().transform((v, ctx): bigint => {
  if (typeof v !== 'number') return fail(ctx, v, `json: cannot unmarshal ${goType(v)} into Go value of type uint64`)
  if (!Number.isInteger(v) || v < 0 || v >= 2 ** 64) return fail(ctx, v, `json: cannot unmarshal number ${v} into Go value of type uint64`)
  return BigInt(v)
})

registerQuickParses({ Address, Hash32, Data, Quantity, Uint64, BlockRef, CallRequest })

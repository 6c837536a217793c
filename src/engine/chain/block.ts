import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import { OPTIONAL_HEADER_FIELDS } from '../../subnetevm/headerLayout.js'
import { txBytes } from './txMemo.js'

/**
 * A C-Chain block header: geth's fields plus coreth's extras (customtypes/header_ext.go),
 * hashed as keccak256(rlp(header)) in that field order.
 */
export interface Header {
  parentHash: Uint8Array
  uncleHash: Uint8Array
  coinbase: Uint8Array
  stateRoot: Uint8Array
  txRoot: Uint8Array
  receiptRoot: Uint8Array
  bloom: Uint8Array
  difficulty: bigint
  number: bigint
  gasLimit: bigint
  gasUsed: bigint
  timestamp: bigint
  extraData: Uint8Array
  mixHash: Uint8Array
  nonce: Uint8Array
  extDataHash: Uint8Array
  baseFee: bigint
  extDataGasUsed: bigint
  blockGasCost: bigint
  blobGasUsed: bigint
  excessBlobGas: bigint
  parentBeaconRoot: Uint8Array
  /** Granite: block time in milliseconds. */
  timeMilliseconds: bigint
  /** Granite: minimum block delay excess. */
  minDelayExcess: bigint
  /** Helicon's six fields (absent before it): the header is then a 30-item list. */
  helicon?: HeliconFields
  /**
   * A subnet-evm chain's header: geth's 15 fields, then the first `subnetEvmFields` of
   * OPTIONAL_HEADER_FIELDS (src/subnetevm/headerLayout.ts; its upgrades decide how many); no extDataHash or extDataGasUsed.
   */
  subnetEvmFields?: number
}

/**
 * What Helicon adds to a header (coreth customtypes/header_ext.go, fields 25-30): the ACP-176 target
 * and ACP-283 minimum price exponents, and the last block this one settles with its gas clock after
 * execution (height, unix seconds and the fraction's numerator at the clock's rate, excess).
 */
export interface HeliconFields {
  targetExponent: bigint
  minPriceExponent: bigint
  settledHeight: bigint
  settledGasUnix: bigint
  settledGasNumerator: bigint
  settledExcess: bigint
}

/** Helicon's fields in RLP and JSON order. */
export const HELICON_KEYS = ['targetExponent', 'minPriceExponent', 'settledHeight', 'settledGasUnix', 'settledGasNumerator', 'settledExcess'] as const

/** Helicon's fields, each read by its key and position (RLP, a JSON block, all zero at genesis). */
export function heliconFields(value: (key: (typeof HELICON_KEYS)[number], index: number) => bigint): HeliconFields {
  return Object.fromEntries(HELICON_KEYS.map((k, i) => [k, value(k, i)])) as unknown as HeliconFields
}

/** A block as the node stores and serves it; `hash` and `size` are computed once. */
/** What a log's answer names of its block (a whole Block has it; ChainBlocks.logBlock reads just this). */
export interface LogBlock {
  readonly hash: Uint8Array
  readonly header: { readonly number: bigint; readonly timestamp: bigint }
}

export interface Block {
  readonly header: Header
  readonly hash: Uint8Array
  readonly txs: readonly TypedTransaction[]
  /**
   * Atomic transactions' bytes (coreth `ExtData`), empty when none. The engine only stores and
   * hashes them; src/atomic/blockAtomicTxs.ts decodes them.
   */
  readonly extData: Uint8Array
  readonly size: number
  /** The base fee a call's block runs at when an override set it (exec/callOverrides.ts); else its execution's. */
  readonly executedBaseFee?: bigint
}

const big = bigIntToUnpaddedBytes

/** RLP list of the header in coreth's field order (subnet-evm's for its chains). */
export function headerFields(h: Header): Uint8Array[] {
  if (h.subnetEvmFields !== undefined) return [...gethFields(h), ...OPTIONAL_HEADER_FIELDS.slice(0, h.subnetEvmFields).map((k) => (k === 'parentBeaconRoot' ? h[k] : big(h[k])))]
  return [
    ...gethFields(h),
    h.extDataHash,
    big(h.baseFee),
    big(h.extDataGasUsed),
    big(h.blockGasCost),
    big(h.blobGasUsed),
    big(h.excessBlobGas),
    h.parentBeaconRoot,
    big(h.timeMilliseconds),
    big(h.minDelayExcess),
    ...(h.helicon === undefined ? [] : HELICON_KEYS.map((k) => big(h.helicon![k]))),
  ]
}

/** The 15 fields every EVM chain's header starts with. */
function gethFields(h: Header): Uint8Array[] {
  return [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.txRoot,
    h.receiptRoot,
    h.bloom,
    big(h.difficulty),
    big(h.number),
    big(h.gasLimit),
    big(h.gasUsed),
    big(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
  ]
}

/**
 * A header from its RLP list. coreth's 16th field is extDataHash (32 bytes), subnet-evm's the base fee
 * (a number, never 32 bytes), and no subnet-evm header has more than 22 fields.
 */
export function headerFromFields(f: Uint8Array[]): Header {
  const n = (i: number) => bytesToBigInt(f[i]!)
  if (f.length < 16 || (f.length <= 15 + OPTIONAL_HEADER_FIELDS.length && f[15]!.length !== 32)) return subnetEvmHeader(f)
  return {
    ...gethHeader(f),
    extDataHash: f[15]!,
    baseFee: n(16),
    extDataGasUsed: n(17),
    blockGasCost: n(18),
    blobGasUsed: n(19),
    excessBlobGas: n(20),
    parentBeaconRoot: f[21]!,
    timeMilliseconds: n(22),
    minDelayExcess: n(23),
    ...(f.length >= 30 ? { helicon: heliconFields((_, i) => n(24 + i)) } : {}),
  }
}

type GethHeader = Pick<
  Header,
  'parentHash' | 'uncleHash' | 'coinbase' | 'stateRoot' | 'txRoot' | 'receiptRoot' | 'bloom' | 'difficulty' | 'number' | 'gasLimit' | 'gasUsed' | 'timestamp' | 'extraData' | 'mixHash' | 'nonce'
>

function gethHeader(f: Uint8Array[]): GethHeader {
  const n = (i: number) => bytesToBigInt(f[i]!)
  return {
    parentHash: f[0]!,
    uncleHash: f[1]!,
    coinbase: f[2]!,
    stateRoot: f[3]!,
    txRoot: f[4]!,
    receiptRoot: f[5]!,
    bloom: f[6]!,
    difficulty: n(7),
    number: n(8),
    gasLimit: n(9),
    gasUsed: n(10),
    timestamp: n(11),
    extraData: f[12]!,
    mixHash: f[13]!,
    nonce: f[14]!,
  }
}

function subnetEvmHeader(f: Uint8Array[]): Header {
  const n = (i: number) => (i < f.length ? bytesToBigInt(f[i]!) : 0n)
  return {
    ...gethHeader(f),
    extDataHash: new Uint8Array(32),
    baseFee: n(15),
    extDataGasUsed: 0n,
    blockGasCost: n(16),
    blobGasUsed: n(17),
    excessBlobGas: n(18),
    parentBeaconRoot: f[19] ?? new Uint8Array(32),
    timeMilliseconds: 20 < f.length ? n(20) : n(11) * 1000n,
    minDelayExcess: n(21),
    subnetEvmFields: f.length - 15,
  }
}

export function hashHeader(h: Header): Uint8Array {
  return keccak256(RLP.encode(headerFields(h)))
}

const EMPTY_LIST = RLP.encode([])
const EMPTY_STRING = RLP.encode(new Uint8Array())

/**
 * Block RLP as coreth lays it out: [header, txs, uncles, version, extData]. A legacy transaction
 * is its RLP list, a typed one its EIP-2718 bytes as a string; both from the encoding the
 * transaction already has (txBytes), not serialised again.
 */
export function encodeBlock(header: Header, txs: readonly TypedTransaction[], extData: Uint8Array): Uint8Array {
  const body = rawList(txs.map((tx) => (tx.type === 0 ? txBytes(tx) : RLP.encode(txBytes(tx)))))
  return rawList([RLP.encode(headerFields(header)), body, EMPTY_LIST, EMPTY_STRING, RLP.encode(extData)])
}

/** An RLP list of items that are RLP already (geth's rlp.RawValue). */
function rawList(items: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const item of items) length += item.length
  const prefix = listPrefix(length)
  const out = new Uint8Array(prefix.length + length)
  out.set(prefix, 0)
  let at = prefix.length
  for (const item of items) {
    out.set(item, at)
    at += item.length
  }
  return out
}

function listPrefix(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length)
  const digits: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) digits.unshift(n % 256)
  return Uint8Array.of(0xf7 + digits.length, ...digits)
}

/**
 * Builds the in-memory Block (hash and size computed once). `hash`: the one it was stored under
 * (a fork's first block is the origin's, whose header layout may not be coreth's).
 */
export function makeBlock(header: Header, txs: readonly TypedTransaction[], extData: Uint8Array, encoded?: Uint8Array, hash?: Uint8Array): Block {
  const bytes = encoded ?? encodeBlock(header, txs, extData)
  return { header, hash: hash ?? hashHeader(header), txs, extData, size: bytes.length }
}

import { type TypedTransaction, Capability } from '@ethereumjs/tx'
import { type Block, HELICON_KEYS, type HeliconFields, type LogBlock } from '../engine/chain/block.js'
import { type Receipt, receiptBloom } from '../engine/chain/receipt.js'
import type { FoundLog } from '../engine/logs/logIndex.js'
import { feeCaps } from '../engine/chain/feeCaps.js'
import { txSender } from '../engine/chain/txMemo.js'
import { RawJson } from './rawJson.js'
import { JsonWriter, ascii } from './jsonWriter.js'
import { OPTIONAL_HEADER_JSON_KEYS } from '../subnetevm/headerLayout.js'

/*
 * Wire formatting of blocks, headers, transactions, receipts and logs, once, in geth's shapes
 * (internal/ethapi/api.go RPCMarshalHeader/Block, RPCTransaction, receipt marshalling) with
 * coreth's extra header fields (coreth: internal/ethapi/api.go).
 */

/** QUANTITY: 0x-hex without leading zeros. */
export function quantity(n: bigint | number): string {
  return '0x' + n.toString(16)
}

/** DATA: 0x-hex of the bytes. */
export function hex(b: Uint8Array): string {
  return '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
}

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json | undefined }

/** Helicon's header fields as hexutil.Uint64s (coreth HeaderExtra.PostRPCMarshal); none before Helicon. */
function heliconJson(f: HeliconFields | undefined): Record<string, Json> {
  return f === undefined ? {} : Object.fromEntries(HELICON_KEYS.map((k) => [k, quantity(f[k])]))
}

/** Header fields shared by blocks and eth_getHeaderBy*. */
export function formatHeader(block: Block): Record<string, Json> {
  const h = block.header
  const out: Record<string, Json> = {
    number: quantity(h.number),
    hash: hex(block.hash),
    parentHash: hex(h.parentHash),
    nonce: hex(h.nonce),
    mixHash: hex(h.mixHash),
    sha3Uncles: hex(h.uncleHash),
    logsBloom: hex(h.bloom),
    stateRoot: hex(h.stateRoot),
    miner: hex(h.coinbase),
    difficulty: quantity(h.difficulty),
    extraData: hex(h.extraData),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    transactionsRoot: hex(h.txRoot),
    receiptsRoot: hex(h.receiptRoot),
    baseFeePerGas: quantity(h.baseFee),
    blobGasUsed: quantity(h.blobGasUsed),
    excessBlobGas: quantity(h.excessBlobGas),
    parentBeaconBlockRoot: hex(h.parentBeaconRoot),
    extDataHash: hex(h.extDataHash),
    extDataGasUsed: quantity(h.extDataGasUsed),
    blockGasCost: quantity(h.blockGasCost),
    timestampMilliseconds: quantity(h.timeMilliseconds),
    minDelayExcess: quantity(h.minDelayExcess),
    ...heliconJson(h.helicon),
    // coreth: difficulty is 1 per block, so the total is the block number (BlockChainAPI); Helicon's
    // backend reports 0 (saevm sae/rpc/static.go GetTd).
    totalDifficulty: quantity(h.helicon === undefined ? h.number : 0n),
  }
  if (h.subnetEvmFields !== undefined) dropAbsentFields(out, h.subnetEvmFields)
  return out
}

/** A subnet-evm header's JSON has only the fields its upgrades give it, and none of coreth's atomic ones (subnet-evm internal/ethapi/api.go RPCMarshalHeader). */
function dropAbsentFields(out: Record<string, Json>, present: number): void {
  delete out.extDataHash
  delete out.extDataGasUsed
  for (const key of OPTIONAL_HEADER_JSON_KEYS.slice(present)) delete out[key]
}

/**
 * A header as its own JSON (newHeads notifications): coreth's HeaderSerializable MarshalJSON
 * (plugin/evm/customtypes/gen_header_serializable_json.go) field order, no totalDifficulty.
 */
export function formatHeaderJSON(block: Block): Record<string, Json> {
  const h = formatHeader(block)
  return {
    parentHash: h.parentHash!,
    sha3Uncles: h.sha3Uncles!,
    miner: h.miner!,
    stateRoot: h.stateRoot!,
    transactionsRoot: h.transactionsRoot!,
    receiptsRoot: h.receiptsRoot!,
    logsBloom: h.logsBloom!,
    difficulty: h.difficulty!,
    number: h.number!,
    gasLimit: h.gasLimit!,
    gasUsed: h.gasUsed!,
    timestamp: h.timestamp!,
    extraData: h.extraData!,
    mixHash: h.mixHash!,
    nonce: h.nonce!,
    extDataHash: h.extDataHash!,
    baseFeePerGas: h.baseFeePerGas!,
    extDataGasUsed: h.extDataGasUsed!,
    blockGasCost: h.blockGasCost!,
    blobGasUsed: h.blobGasUsed!,
    excessBlobGas: h.excessBlobGas!,
    parentBeaconBlockRoot: h.parentBeaconBlockRoot!,
    timestampMilliseconds: h.timestampMilliseconds!,
    minDelayExcess: h.minDelayExcess!,
    ...heliconJson(block.header.helicon),
    hash: h.hash!,
  }
}

/** eth_getBlockBy*: header, size, transactions (hashes or objects), uncles, blockExtraData. */
export function formatBlock(block: Block, fullTxs: boolean): Record<string, Json> {
  const out = formatHeader(block)
  out.size = quantity(block.size)
  out.transactions = fullTxs ? block.txs.map((tx, i) => formatTx(tx, { block, index: i })) : block.txs.map((tx) => hex(tx.hash()))
  out.uncles = []
  if (block.header.subnetEvmFields === undefined) out.blockExtraData = hex(block.extData)
  return out
}

/** Where a transaction is: in a block (mined) or not (pending). */
export interface TxPlace {
  block: Block
  index: number
}

/** geth RPCTransaction. */
export function formatTx(tx: TypedTransaction, place?: TxPlace): Record<string, Json> {
  const { feeCap, tipCap } = feeCaps(tx)
  const is1559 = tx.supports(Capability.EIP1559FeeMarket)
  let gasPrice = feeCap
  if (is1559 && place !== undefined) {
    const eff = place.block.header.baseFee + tipCap
    gasPrice = eff < feeCap ? eff : feeCap
  }
  const out: Record<string, Json> = {
    blockHash: place ? hex(place.block.hash) : null,
    blockNumber: place ? quantity(place.block.header.number) : null,
    // geth 1.16 RPCTransaction.BlockTimestamp (null while pending); the execution-apis schema requires it.
    blockTimestamp: place ? quantity(place.block.header.timestamp) : null,
    from: hex(txSender(tx).bytes),
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(gasPrice),
  }
  if (is1559) {
    out.maxFeePerGas = quantity(feeCap)
    out.maxPriorityFeePerGas = quantity(tipCap)
  }
  out.hash = hex(tx.hash())
  out.input = hex(tx.data)
  out.nonce = quantity(tx.nonce)
  out.to = tx.to === undefined ? null : hex(tx.to.bytes)
  out.transactionIndex = place ? quantity(place.index) : null
  out.value = quantity(tx.value)
  out.type = quantity(tx.type)
  if (tx.type !== 0) {
    out.accessList = (tx as unknown as { accessList: [Uint8Array, Uint8Array[]][] }).accessList.map(([address, keys]) => ({
      address: hex(address),
      storageKeys: keys.map(hex),
    }))
  }
  const chainId = (tx as { chainId?: bigint }).chainId ?? tx.common.chainId()
  const v = tx.v ?? 0n
  if (tx.type !== 0 || (v !== 27n && v !== 28n)) out.chainId = quantity(chainId)
  out.v = quantity(v)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== 0) out.yParity = quantity(v)
  return out
}

/** geth receipt JSON; log indexes continue across the block's receipts. */
export function formatReceipt(block: Block, receipts: readonly Receipt[], index: number): Record<string, Json> {
  const r = receipts[index]!
  const tx = block.txs[index]!
  let logIndex = 0
  for (let i = 0; i < index; i++) logIndex += receipts[i]!.logs.length
  const blockHash = hex(block.hash)
  const blockNumber = quantity(block.header.number)
  const txHash = hex(tx.hash())
  const txIndex = quantity(index)
  return {
    blockHash,
    blockNumber,
    contractAddress: r.contractAddress ? hex(r.contractAddress) : null,
    cumulativeGasUsed: quantity(r.cumulativeGasUsed),
    effectiveGasPrice: quantity(r.effectiveGasPrice),
    from: hex(txSender(tx).bytes),
    gasUsed: quantity(r.gasUsed),
    logs: r.logs.map((l, i) => formatLog({ log: l, block, txIndex: index, logIndex: logIndex + i }, txHash)),
    logsBloom: hex(receiptBloom(r)),
    status: quantity(r.status),
    to: tx.to === undefined ? null : hex(tx.to.bytes),
    transactionHash: txHash,
    transactionIndex: txIndex,
    type: quantity(r.txType),
  }
}

const ADDRESS = ascii('{"address":"')
const TOPICS = ascii('","topics":[')
const FIRST_TOPIC = ascii('"')
const NEXT_TOPIC = ascii('","')
const DATA = ascii('"],"data":"')
const NO_TOPICS_DATA = ascii('],"data":"')
const BLOCK_NUMBER = ascii('","blockNumber":"0x')
const TX_HASH = ascii('","transactionHash":"')
const TX_INDEX = ascii('","transactionIndex":"0x')
const LOG_END = ascii('","removed":false}')

/**
 * Each log's JSON text, by the block object its FoundLog names and its index in that block: a log's
 * answer never changes once its block is on the chain, and the engine hands out the same object for
 * a block while it keeps it (src/engine/logs/logIndex.ts), so a block's logs asked for again (W7 asks
 * for thousands, five times) are written once. The texts go with the object.
 */
const logTexts = new WeakMap<LogBlock, string[]>()
const writer = new JsonWriter()

/**
 * eth_getLogs' result: the JSON text of formatLog for every log, each log's written directly
 * (src/rpc/jsonWriter.ts) once and kept with its block (logTexts).
 */
export function logsJson(logs: readonly FoundLog[]): RawJson {
  if (logs.length === 0) return new RawJson('[]')
  // Concatenated, not joined: V8 keeps a concatenation as a tree of the parts, and the server's write
  // flattens the whole answer once (with the dispatcher's envelope); a join would copy it once more.
  let out = '['
  let block: LogBlock | undefined
  let texts: string[] = []
  let blockTail: Uint8Array | undefined
  for (let i = 0; i < logs.length; i++) {
    const f = logs[i]!
    if (f.block !== block) {
      block = f.block
      const kept = logTexts.get(block)
      if (kept === undefined) logTexts.set(block, (texts = []))
      else texts = kept
      blockTail = undefined
    }
    let text = texts[f.logIndex]
    if (text === undefined) {
      blockTail ??= ascii('","blockHash":"' + hex(block.hash) + '","blockTimestamp":"' + quantity(block.header.timestamp) + '","logIndex":"0x')
      texts[f.logIndex] = text = logText(f, blockTail)
    }
    out += i === 0 ? text : ',' + text
  }
  return new RawJson(out + ']')
}

/** One log's formatLog JSON; `blockTail` is what its block fixes from blockHash to logIndex's "0x". */
function logText(f: FoundLog, blockTail: Uint8Array): string {
  const w = writer
  w.reset()
  const log = f.log
  w.bytes(ADDRESS)
  w.hex(log.address)
  w.bytes(TOPICS)
  const topics = log.topics
  for (let t = 0; t < topics.length; t++) {
    w.bytes(t === 0 ? FIRST_TOPIC : NEXT_TOPIC)
    w.hex(topics[t]!)
  }
  w.bytes(topics.length === 0 ? NO_TOPICS_DATA : DATA)
  w.hex(log.data)
  w.bytes(BLOCK_NUMBER)
  w.ascii(f.block.header.number.toString(16))
  w.bytes(TX_HASH)
  w.hex(f.txHash)
  w.bytes(TX_INDEX)
  w.ascii(f.txIndex.toString(16))
  w.bytes(blockTail)
  w.ascii(f.logIndex.toString(16))
  w.bytes(LOG_END)
  return w.text()
}

/** geth log JSON (with 1.16's blockTimestamp). */
export function formatLog(f: Omit<FoundLog, 'txHash'>, txHash: string): Record<string, Json> {
  const block = f.block
  return {
    address: hex(f.log.address),
    topics: f.log.topics.map(hex),
    data: hex(f.log.data),
    blockNumber: quantity(block.header.number),
    transactionHash: txHash,
    transactionIndex: quantity(f.txIndex),
    blockHash: hex(block.hash),
    blockTimestamp: quantity(block.header.timestamp),
    logIndex: quantity(f.logIndex),
    removed: false,
  }
}

/** A mined or pooled transaction's EIP-2718 bytes as geth's raw getters answer them; "0x" (a nil hexutil.Bytes) for none. */
export function rawTxHex(found: { mined: { block: Block; index: number } } | { pooled: { tx: TypedTransaction } } | undefined): string {
  if (found === undefined) return '0x'
  return hex(('mined' in found ? found.mined.block.txs[found.mined.index]! : found.pooled.tx).serialize())
}

import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import { RlpReader, rlpEncode, rlpUint } from '../../util/rlp.js'

/** A log as the EVM emitted it. */
export interface Log {
  address: Uint8Array
  topics: Uint8Array[]
  data: Uint8Array
}

/** What the node keeps per transaction; logsBloom is derived on demand. */
export interface Receipt {
  txType: number
  status: 0 | 1
  cumulativeGasUsed: bigint
  gasUsed: bigint
  effectiveGasPrice: bigint
  contractAddress: Uint8Array | undefined
  logs: Log[]
}

const big = rlpUint

/** Storage encoding of a block's receipts (ours; the consensus encoding is in receiptRoot's trie). */
export function encodeReceipts(receipts: readonly Receipt[]): Uint8Array {
  return rlpEncode(
    receipts.map((r) => [
      big(BigInt(r.txType)),
      big(BigInt(r.status)),
      big(r.cumulativeGasUsed),
      big(r.gasUsed),
      big(r.effectiveGasPrice),
      r.contractAddress ?? new Uint8Array(),
      r.logs.map((l) => [l.address, l.topics, l.data]),
    ]),
  )
}

export function decodeReceipts(bytes: Uint8Array): Receipt[] {
  const list = RLP.decode(bytes) as unknown as Uint8Array[][]
  return list.map((f) => ({
    txType: Number(bytesToBigInt(f[0]!)),
    status: Number(bytesToBigInt(f[1]!)) as 0 | 1,
    cumulativeGasUsed: bytesToBigInt(f[2]!),
    gasUsed: bytesToBigInt(f[3]!),
    effectiveGasPrice: bytesToBigInt(f[4]!),
    contractAddress: f[5]!.length === 0 ? undefined : f[5]!,
    logs: (f[6] as unknown as Uint8Array[][]).map((l) => ({ address: l[0]!, topics: l[1] as unknown as Uint8Array[], data: l[2]! })),
  }))
}

/**
 * The logs of a block's stored receipts (encodeReceipts' bytes) and, for each, the index of its
 * transaction: what a log query reads, without the receipts' other fields (decodeReceipts makes
 * bigints of them). The logs' byte strings are views of `bytes`.
 */
export function decodeReceiptLogs(bytes: Uint8Array): { logs: Log[]; txIndexes: number[] } {
  // Views of a plain Uint8Array: subarray of a Buffer (what LevelDB returns) makes a Buffer, which costs more.
  const r = new RlpReader(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  const logs: Log[] = []
  const txIndexes: number[] = []
  r.item(0)
  for (let at = r.start, end = r.end, txIndex = 0; at < end; txIndex++) {
    at = r.item(at)
    let field = r.start
    // Type, status, cumulative gas, gas used, effective gas price, contract address; then the logs.
    for (let i = 0; i < 6; i++) field = r.item(field)
    r.item(field)
    for (let l = r.start, logsEnd = r.end; l < logsEnd; ) {
      l = r.item(l)
      let f = r.start
      f = r.item(f)
      const address = r.bytes.subarray(r.start, r.end)
      f = r.item(f)
      const topics: Uint8Array[] = []
      for (let t = r.start, topicsEnd = r.end; t < topicsEnd; ) {
        t = r.item(t)
        topics.push(r.bytes.subarray(r.start, r.end))
      }
      r.item(f)
      logs.push({ address, topics, data: r.bytes.subarray(r.start, r.end) })
      txIndexes.push(txIndex)
    }
  }
  return { logs, txIndexes }
}

/** Consensus encoding (EIP-2718): type ‖ rlp([status, cumulativeGasUsed, bloom, logs]). */
export function encodeConsensusReceipt(r: Receipt): Uint8Array {
  const body = rlpEncode([r.status === 1 ? Uint8Array.of(1) : new Uint8Array(), big(r.cumulativeGasUsed), receiptBloom(r), r.logs.map((l) => [l.address, l.topics, l.data])])
  if (r.txType === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = r.txType
  out.set(body, 1)
  return out
}

/** The bloom of a receipt without logs; shared, so never written to. */
const EMPTY_BLOOM = new Uint8Array(256)
const blooms = new WeakMap<Receipt, Uint8Array>()

/**
 * A receipt's bloom, hashed once per receipt object: the receipt root, the block's bloom and
 * every eth_getTransactionReceipt answer read it. The result is shared: callers never write to it.
 */
export function receiptBloom(r: Receipt): Uint8Array {
  if (r.logs.length === 0) return EMPTY_BLOOM
  let bloom = blooms.get(r)
  if (bloom === undefined) blooms.set(r, (bloom = logsBloom(r.logs)))
  return bloom
}

/**
 * Hands over a bloom already computed over the receipt's logs (runTx's own, over the same logs the
 * receipt keeps), so the block builder's receipt root and block bloom do not hash them again.
 */
export function knowBloom(r: Receipt, bloom: Uint8Array): void {
  if (r.logs.length > 0) blooms.set(r, bloom)
}

/** A block's bloom: the union of its receipts' blooms. */
export function blockBloom(receipts: readonly Receipt[]): Uint8Array {
  const out = new Uint8Array(256)
  for (const r of receipts) {
    if (r.logs.length === 0) continue
    const bloom = receiptBloom(r)
    for (let i = 0; i < 256; i++) out[i]! |= bloom[i]!
  }
  return out
}

/** The 2048-bit bloom of a set of logs (yellow paper 4.3.1). */
export function logsBloom(logs: readonly Log[], into: Uint8Array = new Uint8Array(256)): Uint8Array {
  for (const log of logs) {
    addToBloom(into, log.address)
    for (const topic of log.topics) addToBloom(into, topic)
  }
  return into
}

function addToBloom(bloom: Uint8Array, value: Uint8Array): void {
  const h = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}

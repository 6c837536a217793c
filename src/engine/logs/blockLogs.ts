import type { Block, LogBlock } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { decodeReceiptLogs, type Log, type Receipt } from '../chain/receipt.js'

/**
 * One block's logs as a log query reads them: the block's hash, number and time, every log in
 * order (a log's index in the block is its place here), its transaction's index, and the
 * transactions' hashes. LogIndex keeps the recent ones, so a range query over blocks it has seen
 * decodes nothing.
 */
export interface BlockLogs {
  readonly block: LogBlock
  readonly logs: readonly Log[]
  /** Per log, the index of its transaction in the block. */
  readonly txIndexes: readonly number[]
  readonly txHashes: readonly Uint8Array[]
}

/**
 * A committed block's logs, from the block and the receipts it was committed with. The block is
 * kept as its hash, number and time only: a kept record must not hold the block's transactions.
 */
export function blockLogsOf(block: Block, receipts: readonly Receipt[]): BlockLogs {
  const logs: Log[] = []
  const txIndexes: number[] = []
  for (let i = 0; i < receipts.length; i++) {
    for (const log of receipts[i]!.logs) {
      logs.push({ address: plain(log.address), topics: log.topics.map(plain), data: plain(log.data) })
      txIndexes.push(i)
    }
  }
  const h = block.header
  return { block: { hash: block.hash, header: { number: h.number, timestamp: h.timestamp } }, logs, txIndexes, txHashes: block.txs.map((tx) => tx.hash()) }
}

/**
 * The canonical block `number`'s logs read back from the store: its header and transactions'
 * hashes read lightly (Chain.logBlockByNumber), the logs alone from its stored receipts.
 */
export function readBlockLogs(chain: Chain, number: bigint): BlockLogs | undefined {
  const read = chain.logBlockByNumber(number)
  if (read === undefined) return undefined
  const bytes = chain.store.readReceipts(read.block.hash)
  const { logs, txIndexes } = bytes === undefined ? { logs: [], txIndexes: [] } : decodeReceiptLogs(bytes)
  const h = read.block.header
  return { block: { hash: read.block.hash, header: { number: h.number, timestamp: h.timestamp } }, logs, txIndexes, txHashes: read.txHashes }
}

/**
 * The bytes as a plain Uint8Array (a view, no copy). A query compares thousands of logs' bytes in
 * one loop; with Buffers and Uint8Arrays mixed there (the EVMs, LevelDB and the request's params
 * each give one or the other), V8's element loads turn polymorphic and the loop runs several times slower.
 */
export function plain(b: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(b) === Uint8Array.prototype ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

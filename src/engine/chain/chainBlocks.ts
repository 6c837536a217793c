import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util'
import type { ChainStore } from '../../store/chainStore.js'
import { BoundedCache } from '../../util/boundedCache.js'
import { keccak256 } from '../../util/crypto.js'
import { RlpReader } from '../../util/rlp.js'
import { type Block, type LogBlock, headerFromFields, makeBlock } from './block.js'
import { decodeReceipts, type Receipt } from './receipt.js'
import { txsFromBody } from './txMemo.js'

/** Blocks and blocks' receipts kept decoded: a test suite reads back its recent blocks, receipts and logs from memory. */
export const BLOCK_CACHE_SIZE = 1024

/**
 * The chain's stored blocks and receipts by hash, decoded once and cached, and where recently mined
 * transactions are. Chain (chain.ts) owns it: it knows the head, this only what is stored.
 */
export class ChainBlocks {
  private readonly blockCache = new BoundedCache<string, Block>(BLOCK_CACHE_SIZE)
  private readonly receiptCache = new BoundedCache<string, Receipt[]>(BLOCK_CACHE_SIZE)
  /** Where the last 4-8k mined transactions are (~150 bytes each): clients poll for a receipt just after its block. */
  private readonly recentTxs = new BoundedCache<string, { blockHash: Uint8Array; number: bigint; index: number }>(8192)

  constructor(
    private readonly store: ChainStore,
    /** The Common stored blocks' transactions are decoded with (Chain.txCommon). */
    private readonly txCommon: Common,
  ) {}

  /** Forgets everything when the chain is read back after a reset (Chain.load). */
  forget(): void {
    this.receiptCache.clear()
    this.recentTxs.clear()
    this.blockCache.clear()
  }

  /** Drops what is kept of blocks above `number`: a revert removed them (blocks are named by their hash: the others stay true). */
  dropAbove(number: bigint): void {
    this.blockCache.deleteWhere((block) => block.header.number > number)
    this.recentTxs.deleteWhere((tx) => tx.number > number)
    this.receiptCache.clear()
  }

  blockByHash(hash: Uint8Array): Block | undefined {
    const key = bytesToHex(hash)
    const cached = this.blockCache.get(key)
    if (cached !== undefined) return cached
    const bytes = this.store.readBlock(hash)
    if (bytes === undefined) return undefined
    const block = this.decodeBlock(bytes, hash)
    this.remember(key, block)
    return block
  }

  /**
   * A stored block's hash, number, time and its transactions' hashes, without decoding the
   * transactions (what a log answer needs): from the whole block when it is cached, else read
   * lightly. Not kept here: the log index keeps what it read (src/engine/logs/logIndex.ts).
   */
  logBlock(hash: Uint8Array): { block: LogBlock; txHashes: readonly Uint8Array[] } | undefined {
    const cached = this.blockCache.get(bytesToHex(hash))
    if (cached !== undefined) return { block: cached, txHashes: cached.txs.map((tx) => tx.hash()) }
    const bytes = this.store.readBlock(hash)
    if (bytes === undefined) return undefined
    // Walked in place: the header's number (field 8) and time (field 11), and each transaction's bytes.
    const r = new RlpReader(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    r.item(0)
    const body = r.item(r.start)
    let field = r.start
    for (let i = 0; i < 8; i++) field = r.item(field)
    field = r.item(field)
    const number = bytesToBigInt(r.bytes.subarray(r.start, r.end))
    for (let i = 9; i < 11; i++) field = r.item(field)
    r.item(field)
    const timestamp = bytesToBigInt(r.bytes.subarray(r.start, r.end))
    r.item(body)
    const txHashes: Uint8Array[] = []
    for (let at = r.start, end = r.end; at < end; ) {
      const start = at
      at = r.item(at)
      // A typed transaction is its envelope's bytes (an RLP string's payload); a legacy one an RLP list, hashed as encoded.
      txHashes.push(keccak256(r.list ? r.bytes.subarray(start, at) : r.bytes.subarray(r.start, r.end)))
    }
    return { block: { hash, header: { number, timestamp } }, txHashes }
  }

  receipts(block: Pick<Block, 'hash'>): Receipt[] {
    const key = bytesToHex(block.hash)
    const cached = this.receiptCache.get(key)
    if (cached !== undefined) return cached
    const bytes = this.store.readReceipts(block.hash)
    const receipts = bytes === undefined ? [] : decodeReceipts(bytes)
    this.receiptCache.set(key, receipts)
    return receipts
  }

  /** The block and index of a transaction mined recently (recorded by record()), else undefined. */
  recentTx(txHash: Uint8Array): { block: Block; index: number } | undefined {
    const recent = this.recentTxs.get(hexKey(txHash))
    return recent === undefined ? undefined : { block: this.blockByHash(recent.blockHash)!, index: recent.index }
  }

  /** Records a committed block (Chain.commit): its transactions' places, the block and its receipts. */
  record(block: Block, receipts: Receipt[]): void {
    for (let index = 0; index < block.txs.length; index++) this.recentTxs.set(hexKey(block.txs[index]!.hash()), { blockHash: block.hash, number: block.header.number, index })
    const key = bytesToHex(block.hash)
    this.remember(key, block)
    // Bounded here too: every committed block passes through, so an unbounded set kept every receipt (soak).
    this.receiptCache.set(key, receipts)
  }

  private remember(key: string, block: Block): void {
    this.blockCache.set(key, block)
  }

  /** Decodes a stored block; its transactions get their stored senders, so none is recovered again. */
  private decodeBlock(bytes: Uint8Array, hash: Uint8Array): Block {
    const [headerFields, txs, , , extData] = RLP.decode(bytes) as unknown as [Uint8Array[], Uint8Array[], unknown, Uint8Array, Uint8Array]
    const header = headerFromFields(headerFields)
    const parsed = txsFromBody(txs, this.txCommon, txs.length === 0 ? undefined : this.store.readSenders(hash))
    return makeBlock(header, parsed, extData ?? new Uint8Array(), bytes, hash)
  }
}

function hexKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

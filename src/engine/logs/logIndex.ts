import type { Block, LogBlock } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { BoundedCache } from '../../util/boundedCache.js'
import { keccak256 } from '../../util/crypto.js'
import { LimitExceededError } from '../base/errors.js'
import { type BlockLogs, blockLogsOf, plain, readBlockLogs } from './blockLogs.js'
import { bloomMayMatch, bloomQuery, logMatches, type LogCriteria } from './logFilter.js'
import type { Log, Receipt } from '../chain/receipt.js'

/** A log with where it was emitted. */
export interface FoundLog {
  log: Log
  block: LogBlock
  txIndex: number
  /** Index of the log in its block. */
  logIndex: number
  txHash: Uint8Array
}

/** Blocks whose blooms are read from LevelDB, and kept, together. */
const CHUNK = 8192
/** Chunks kept in memory (the most recently used): 64 x 8,192 blocks, at most 128 MiB of blooms, far less when blocks have no logs. */
const MAX_CHUNKS = 64
/** Blocks scanned between two deadline checks. */
const CHECK_BLOCKS = 256
/**
 * Logs kept with their blocks (BlockLogs, a block weighing its logs and one more), 8,192 to 16,384:
 * the peer harness's W7 asks for about 6,000 logs of the last few hundred blocks. A log kept costs
 * about 300 bytes, and its JSON text (about 650 bytes) once an answer wrote it (src/rpc/format.ts).
 */
const KEPT_LOGS = 16_384

/**
 * eth_getLogs over a range: each block's bloom (from the 'B' index written with every block, read
 * a chunk at a time and kept for the most recently used chunks) rules blocks out; only candidates
 * have their receipts read. Memory stays bounded however long the chain grows.
 */
export class LogIndex {
  private readonly chunks = new Map<number, (Uint8Array | undefined)[]>()
  /** Recent blocks' logs by block number: committed blocks' from their receipts, others' once a query read them. */
  private readonly kept = new BoundedCache<number, BlockLogs>(KEPT_LOGS, (b) => b.logs.length + 1)

  constructor(private readonly chain: Chain) {
    // The block's own bloom, as the chain indexed it (a Helicon header's is the settled blocks' receipts').
    chain.events.on('head', (block: Block, receipts: readonly Receipt[], ownBloom: Uint8Array) => {
      const n = Number(block.header.number)
      const bloom = compactBloom(ownBloom)
      const chunk = this.chunks.get(Math.floor(n / CHUNK))
      if (chunk !== undefined) chunk[n % CHUNK] = bloom
      if (bloom !== EMPTY_BLOOM) this.kept.set(n, blockLogsOf(block, receipts))
    })
    // The chain was read back from disk (a revert or reset): the blocks behind the kept blooms and logs may be gone.
    chain.events.on('state', () => {
      this.chunks.clear()
      this.kept.clear()
    })
  }

  /**
   * Matching logs of blocks from..to (canonical, inclusive), at most `limit` (then -32005 as geth's
   * limit). `checkTime` runs every CHECK_BLOCKS blocks and throws to stop the scan.
   */
  async find(criteria: LogCriteria, from: bigint, to: bigint, limit: number, checkTime?: () => void): Promise<FoundLog[]> {
    const query = bloomQuery(criteria, keccak256)
    const c: LogCriteria = { addresses: criteria.addresses.map(plain), topics: criteria.topics.map((alts) => alts?.map(plain) ?? null) }
    const out: FoundLog[] = []
    let chunk: (Uint8Array | undefined)[] | undefined
    // Block numbers as numbers in the loop (a chain's height stays far below 2^53), not bigints.
    for (let i = Number(from), last = Number(to); i <= last; i++) {
      if (checkTime !== undefined && (i - Number(from)) % CHECK_BLOCKS === 0) checkTime()
      if (chunk === undefined || i % CHUNK === 0) chunk = await this.chunk(Math.floor(i / CHUNK))
      const bloom = chunk[i % CHUNK]
      // An empty bloom: a block without logs.
      if (bloom === EMPTY_BLOOM || (bloom !== undefined && !bloomMayMatch(query, bloom))) continue
      let read = this.kept.get(i)
      if (read === undefined) {
        // Only the block's header, its transactions' hashes and its receipts' logs: nothing decoded whole (W7).
        read = readBlockLogs(this.chain, BigInt(i))
        if (read === undefined) continue
        this.kept.set(i, read)
      }
      const { block, logs, txIndexes, txHashes } = read
      for (let logIndex = 0; logIndex < logs.length; logIndex++) {
        const log = logs[logIndex]!
        if (!logMatches(c, log)) continue
        if (out.length >= limit) throw new LimitExceededError(`query returned more than ${limit} results`)
        const txIndex = txIndexes[logIndex]!
        out.push({ log, block, txIndex, logIndex, txHash: txHashes[txIndex]! })
      }
    }
    return out
  }

  /** Matching logs of one block (eth_getLogs with blockHash, filters, subscriptions). */
  inBlock(c: LogCriteria, block: Block): FoundLog[] {
    return this.logsOf(c, block, (i) => block.txs[i]!.hash())
  }

  private logsOf(c: LogCriteria, block: LogBlock, txHash: (txIndex: number) => Uint8Array): FoundLog[] {
    const out: FoundLog[] = []
    const receipts = this.chain.receipts(block)
    let logIndex = 0
    for (let txIndex = 0; txIndex < receipts.length; txIndex++) {
      for (const log of receipts[txIndex]!.logs) {
        if (logMatches(c, log)) out.push({ log, block, txIndex, logIndex, txHash: txHash(txIndex) })
        logIndex++
      }
    }
    return out
  }

  /** Chunk `index`'s blooms, read from LevelDB unless kept; the least recently used chunk goes past MAX_CHUNKS. */
  private async chunk(index: number): Promise<(Uint8Array | undefined)[]> {
    let chunk = this.chunks.get(index)
    if (chunk !== undefined) {
      this.chunks.delete(index)
      this.chunks.set(index, chunk)
      return chunk
    }
    const from = BigInt(index * CHUNK)
    const read = await this.chain.store.readBlooms(from, from + BigInt(CHUNK - 1))
    chunk = read.map((bloom, i) => {
      // A block written before the bloom index existed: take its header's bloom.
      const found = bloom ?? this.chain.blockByNumber(from + BigInt(i))?.header.bloom
      return found === undefined ? undefined : compactBloom(found)
    })
    // A head committed while the chunk was being read is set by the head listener only if the chunk is kept.
    const again = this.chunks.get(index)
    if (again !== undefined) return again
    this.chunks.set(index, chunk)
    if (this.chunks.size > MAX_CHUNKS) this.chunks.delete(this.chunks.keys().next().value!)
    return chunk
  }
}

const EMPTY_BLOOM = new Uint8Array(256)

/**
 * A bloom fit to keep for the node's lifetime: one shared array for the (common) empty bloom, else
 * a copy, since a decoded header's or a LevelDB read's bloom is a view that would keep the whole
 * block encoding or read buffer alive (scripts/soak.ts).
 */
function compactBloom(bloom: Uint8Array): Uint8Array {
  for (let i = 0; i < bloom.length; i++) if (bloom[i] !== 0) return bloom.slice()
  return EMPTY_BLOOM
}

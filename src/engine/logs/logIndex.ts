import type { Block, LogBlock } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { keccak256 } from '../../util/crypto.js'
import { LimitExceededError } from '../base/errors.js'
import { bloomMayMatch, bloomQuery, logMatches, type LogCriteria } from './logFilter.js'
import type { Log } from '../chain/receipt.js'

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
const CHECK_BLOCKS = 256n

/**
 * eth_getLogs over a range: each block's bloom (from the 'B' index written with every block, read
 * a chunk at a time and kept for the most recently used chunks) rules blocks out; only candidates
 * have their receipts read. Memory stays bounded however long the chain grows.
 */
export class LogIndex {
  private readonly chunks = new Map<number, (Uint8Array | undefined)[]>()

  constructor(private readonly chain: Chain) {
    chain.events.on('head', (block: Block) => {
      const n = Number(block.header.number)
      const chunk = this.chunks.get(Math.floor(n / CHUNK))
      if (chunk !== undefined) chunk[n % CHUNK] = compactBloom(block.header.bloom)
    })
    // The chain was read back from disk (a revert or reset): the blocks behind the kept blooms may be gone.
    chain.events.on('state', () => this.chunks.clear())
  }

  /**
   * Matching logs of blocks from..to (canonical, inclusive), at most `limit` (then -32005 as geth's
   * limit). `checkTime` runs every CHECK_BLOCKS blocks and throws to stop the scan.
   */
  async find(c: LogCriteria, from: bigint, to: bigint, limit: number, checkTime?: () => void): Promise<FoundLog[]> {
    const query = bloomQuery(c, keccak256)
    const out: FoundLog[] = []
    let chunk: (Uint8Array | undefined)[] | undefined
    for (let n = from; n <= to; n++) {
      if (checkTime !== undefined && (n - from) % CHECK_BLOCKS === 0n) checkTime()
      const i = Number(n)
      if (chunk === undefined || i % CHUNK === 0) chunk = await this.chunk(Math.floor(i / CHUNK))
      const bloom = chunk[i % CHUNK]
      if (bloom !== undefined && !bloomMayMatch(query, bloom)) continue
      // Only the block's header and its transactions' hashes: a block read back is not decoded whole (W7).
      const read = this.chain.logBlockByNumber(n)
      if (read === undefined) continue
      for (const found of this.logsOf(c, read.block, (i) => read.txHashes[i]!)) {
        if (out.length >= limit) throw new LimitExceededError(`query returned more than ${limit} results`)
        out.push(found)
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

import type { Block } from './block.js'
import type { Chain } from './chain.js'
import { keccak256 } from '../crypto.js'
import { LimitExceededError } from './errors.js'
import { bloomMayMatch, bloomQuery, logMatches } from './logFilter.js'
import type { LogCriteria } from './logFilter.js'
import type { Log } from './receipt.js'

/** A log with where it was emitted. */
export interface FoundLog {
  log: Log
  block: Block
  txIndex: number
  /** Index of the log in its block. */
  logIndex: number
}

/** Blooms read from LevelDB per batch when a range reaches blocks not yet in memory. */
const LOAD_CHUNK = 8192n
/** Blocks scanned between two deadline checks. */
const CHECK_BLOCKS = 256n

/**
 * eth_getLogs over a range: each block's bloom (kept in memory once read, from the 'B' index
 * written with every block) rules blocks out; only candidates have their receipts read.
 */
export class LogIndex {
  private readonly blooms: (Uint8Array | undefined)[] = []

  constructor(private readonly chain: Chain) {
    chain.events.on('head', (block: Block) => { this.blooms[Number(block.header.number)] = compactBloom(block.header.bloom) })
  }

  /**
   * Matching logs of blocks from..to (canonical, inclusive), at most `limit` (then -32005 as geth's
   * limit). `checkTime` runs every CHECK_BLOCKS blocks and throws to stop the scan.
   */
  async find(c: LogCriteria, from: bigint, to: bigint, limit: number, checkTime?: () => void): Promise<FoundLog[]> {
    const query = bloomQuery(c, keccak256)
    const out: FoundLog[] = []
    for (let start = from; start <= to; start += LOAD_CHUNK) {
      const end = start + LOAD_CHUNK - 1n < to ? start + LOAD_CHUNK - 1n : to
      await this.load(start, end)
      for (let n = start; n <= end; n++) {
        if (checkTime !== undefined && (n - from) % CHECK_BLOCKS === 0n) checkTime()
        const bloom = this.blooms[Number(n)]
        if (bloom !== undefined && !bloomMayMatch(query, bloom)) continue
        const block = this.chain.blockByNumber(n)
        if (block === undefined) continue
        for (const found of this.inBlock(c, block)) {
          if (out.length >= limit) throw new LimitExceededError(`query returned more than ${limit} results`)
          out.push(found)
        }
      }
    }
    return out
  }

  /** Matching logs of one block (eth_getLogs with blockHash, filters, subscriptions). */
  inBlock(c: LogCriteria, block: Block): FoundLog[] {
    const out: FoundLog[] = []
    const receipts = this.chain.receipts(block)
    let logIndex = 0
    for (let txIndex = 0; txIndex < receipts.length; txIndex++) {
      for (const log of receipts[txIndex]!.logs) {
        if (logMatches(c, log)) out.push({ log, block, txIndex, logIndex })
        logIndex++
      }
    }
    return out
  }

  private async load(from: bigint, to: bigint): Promise<void> {
    let missing = false
    for (let n = from; n <= to && !missing; n++) missing = this.blooms[Number(n)] === undefined
    if (!missing) return
    const read = await this.chain.store.readBlooms(from, to)
    read.forEach((bloom, i) => {
      const n = Number(from) + i
      // A block written before the bloom index existed: take its header's bloom.
      const found = bloom ?? this.chain.blockByNumber(BigInt(n))?.header.bloom
      if (this.blooms[n] === undefined && found !== undefined) this.blooms[n] = compactBloom(found)
    })
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

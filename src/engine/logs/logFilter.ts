import type { Log } from '../chain/receipt.js'

/** What a log filter selects (geth filters.FilterCriteria without the block range). */
export interface LogCriteria {
  /** Any of these addresses; empty = any address. */
  addresses: Uint8Array[]
  /** Per position: null = any topic, else any of these. Longer than a log's topics = no match. */
  topics: (Uint8Array[] | null)[]
}

/** geth filters: more topic positions than this is an error. */
export const MAX_TOPICS = 4

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Whether a log matches (geth filters.filterLogs). Loops, not closures: a range query tests thousands of logs. */
export function logMatches(c: LogCriteria, log: Log): boolean {
  if (c.addresses.length > 0 && !anyEqual(c.addresses, log.address)) return false
  if (c.topics.length > log.topics.length) return false
  for (let i = 0; i < c.topics.length; i++) {
    const alternatives = c.topics[i]
    if (alternatives === null || alternatives === undefined || alternatives.length === 0) continue
    if (!anyEqual(alternatives, log.topics[i]!)) return false
  }
  return true
}

function anyEqual(alternatives: readonly Uint8Array[], value: Uint8Array): boolean {
  for (let i = 0; i < alternatives.length; i++) if (equal(alternatives[i]!, value)) return true
  return false
}

/** Precomputed bloom bit positions of a criteria, for cheap per-block tests. */
export interface BloomQuery {
  /** Any of these must be in the bloom (empty = no address constraint). */
  addresses: number[][]
  /** Per constrained position, any of these must be in the bloom. */
  topics: number[][][]
}

/** Bit positions (byte index, mask) of a value in a 2048-bit bloom, as [byte, mask, byte, mask, byte, mask]. */
export function bloomBits(value: Uint8Array, keccak: (d: Uint8Array) => Uint8Array): number[] {
  const h = keccak(value)
  const out: number[] = []
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    out.push(255 - (bit >> 3), 1 << (bit & 7))
  }
  return out
}

export function bloomQuery(c: LogCriteria, keccak: (d: Uint8Array) => Uint8Array): BloomQuery {
  return {
    addresses: c.addresses.map((a) => bloomBits(a, keccak)),
    topics: c.topics.filter((t): t is Uint8Array[] => t !== null && t.length > 0).map((alts) => alts.map((t) => bloomBits(t, keccak))),
  }
}

function has(bloom: Uint8Array, bits: number[]): boolean {
  return (bloom[bits[0]!]! & bits[1]!) !== 0 && (bloom[bits[2]!]! & bits[3]!) !== 0 && (bloom[bits[4]!]! & bits[5]!) !== 0
}

/** Whether a block's bloom may contain a matching log (geth bloomFilter). */
export function bloomMayMatch(q: BloomQuery, bloom: Uint8Array): boolean {
  if (q.addresses.length > 0 && !q.addresses.some((b) => has(bloom, b))) return false
  for (const alts of q.topics) if (!alts.some((b) => has(bloom, b))) return false
  return true
}

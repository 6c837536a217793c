import { type BatchDBOp, type DB, hexToBytes } from '@ethereumjs/util'
import { type BatchOp, type Database, writeSynced } from './db.js'
import { PREFIX, prefixed } from './keys.js'
import { BoundedCache } from '../util/boundedCache.js'

/**
 * The Merkle Patricia trie's view of LevelDB. Writes collect in memory and reach disk only
 * inside the batch that commits the block they belong to (drain()), so a crash never leaves
 * state without its block or a head without its state. Nodes are content-addressed, so readers
 * of older roots are never disturbed by pending writes.
 */
/** What one kept node costs in memory, key string, bytes and map slot, on average (measured here with scripts/bigState.ts). */
const NODE_BYTES = 400
/** coreth's `trie-clean-cache` default, 512 MiB. */
const DEFAULT_BUDGET = 512 * 1024 * 1024
/** ethereumjs keeps contract code in the trie's database under 'c' ‖ code hash: its TrieDB key (unprefixed hex). */
export function codeKey(codeHashHex: string): string {
  return `63${codeHashHex}`
}
/** Every key of the 's' prefix. */
const STATE_RANGE = { gte: Uint8Array.of(PREFIX.state), lt: Uint8Array.of(PREFIX.state + 1) }

export class TrieDB implements DB<string, string | Uint8Array> {
  private pending = new Map<string, Uint8Array | undefined>()
  /**
   * Recently read nodes. Keys are content hashes, so an entry can never go stale; this sits below
   * every state manager, where an eth_call's reverted checkpoint cannot throw it away.
   */
  private readonly recent: BoundedCache<string, Uint8Array>

  /** `budget`: bytes of nodes kept in memory at most; colder ones are read from LevelDB again. */
  constructor(
    private readonly db: Database,
    budget = DEFAULT_BUDGET,
  ) {
    this.recent = new BoundedCache(Math.max(1024, Math.floor(budget / NODE_BYTES)))
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.getSync(key)
  }

  /** A node or code entry by its trie key (unprefixed hex), without a promise. */
  getSync(key: string): Uint8Array | undefined {
    if (this.pending.has(key)) return this.pending.get(key)
    const hit = this.recent.get(key)
    if (hit !== undefined) return hit
    const bytes = Buffer.from(key, 'hex')
    const value = this.db.getSync(prefixed(PREFIX.state, bytes)) ?? undefined
    if (value !== undefined) {
      // The trie builds keys two hex digits at a time: kept as is, each would hold a ~1 KB chain of
      // string pieces (200k of them: hundreds of MiB, found by scripts/soak.ts). Store a flat copy.
      this.recent.set(bytes.toString('hex'), value)
    }
    return value
  }

  /**
   * Stores nodes and code fetched from a fork's origin (src/engine/state/forkState.ts). Content-addressed
   * copies of the origin's state: written at once and outside any block's batch or snapshot, since
   * they never change and a revert must not make the fork fetch them again.
   */
  async putFetched(entries: readonly (readonly [string, Uint8Array])[]): Promise<void> {
    for (const [key, value] of entries) this.recent.set(key, value)
    await this.db.batch(entries.map(([key, value]) => ({ type: 'put' as const, key: prefixed(PREFIX.state, Buffer.from(key, 'hex')), value })))
  }

  /** Drops pending writes and cached nodes (the database was reset). */
  forget(): void {
    this.pending.clear()
    this.recent.clear()
  }

  /** Drops pending writes (a revert put the database back): cached nodes stay, a node's hash names its content. */
  forgetPending(): void {
    this.pending.clear()
  }

  async put(key: string, value: string | Uint8Array): Promise<void> {
    this.pending.set(key, typeof value === 'string' ? hexToBytes(`0x${value}`) : value)
  }

  /** put() without a promise (src/engine/state/trieBatch.ts writes a block's nodes this way). */
  putSync(key: string, value: Uint8Array): void {
    this.pending.set(key, value)
  }

  async del(key: string): Promise<void> {
    this.pending.set(key, undefined)
  }

  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') await this.put(op.key, op.value)
      else await this.del(op.key)
    }
  }

  shallowCopy(): TrieDB {
    return this
  }

  async open(): Promise<void> {}

  /** Moves the pending writes into a block's batch; call commitDrained() once it is written. */
  drain(): BatchOp[] {
    const ops: BatchOp[] = []
    for (const [key, value] of this.pending) {
      const dbKey = prefixed(PREFIX.state, Buffer.from(key, 'hex'))
      ops.push(value === undefined ? { type: 'del', key: dbKey } : { type: 'put', key: dbKey, value })
    }
    return ops
  }

  /**
   * Forgets pending writes that drain() handed out and that are now on disk. The nodes just
   * written stay in the recent-node cache: the next block walks the same upper levels of the
   * trie, which otherwise came back from LevelDB once per block.
   */
  commitDrained(ops: BatchOp[]): void {
    const all = ops.length === this.pending.size
    for (const op of ops) {
      const key = Buffer.from(op.key.buffer, op.key.byteOffset + 1, op.key.byteLength - 1).toString('hex')
      if (op.type === 'put') this.recent.set(key, op.value)
      else this.recent.delete(key)
      if (!all) this.pending.delete(key)
    }
    if (all) this.pending.clear()
  }

  /**
   * Deletes every stored node and code entry that `isLive` rejects, in one atomic write
   * (state garbage collection). Call only while no block is being built: a node a pending
   * block still needs must be live or pending. Returns how many entries stayed and went.
   */
  async sweep(isLive: (key: string) => boolean): Promise<{ kept: number; deleted: number }> {
    const ops: BatchOp[] = []
    const dead: string[] = []
    let kept = 0
    for await (const dbKey of this.db.keys(STATE_RANGE)) {
      const key = Buffer.from(dbKey.buffer, dbKey.byteOffset + 1, dbKey.byteLength - 1).toString('hex')
      if (isLive(key) || this.pending.has(key)) {
        kept++
        continue
      }
      ops.push({ type: 'del', key: dbKey })
      dead.push(key)
    }
    if (ops.length > 0) await writeSynced(this.db, ops)
    for (const key of dead) this.recent.delete(key)
    return { kept, deleted: ops.length }
  }

  /** How many node and code entries are on disk (tests, stats). */
  async countStored(): Promise<number> {
    let n = 0
    for await (const key of this.db.keys(STATE_RANGE)) n += key.length > 0 ? 1 : 0
    return n
  }
}

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL, KECCAK256_RLP, bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { Logger } from 'pino'
import { type TrieDB, codeKey } from '../../store/trieDb.js'

/** Bytes of trie writes after which a collection runs at the earliest (the live size raises it). */
export const GC_MIN_BYTES = 64 * 1024
/** Nodes marked between two yields to the event loop. */
const MARK_SLICE = 4096
/** Trie key of code: ethereumjs's CODEHASH_PREFIX 'c' before the code hash. */

export interface StatePrunerOptions {
  log: Logger
  /** Collect when this many bytes were written since the last collection (default GC_MIN_BYTES), or the live size if larger. */
  minBytes?: number
}

/** What one collection did. */
export interface PruneResult {
  /** Distinct state roots kept. */
  roots: number
  /** Nodes and code entries left on disk. */
  kept: number
  deleted: number
  /** Bytes of the marked trie nodes. */
  liveBytes: number
  ms: number
}

/**
 * Garbage collection of state on a pruning node: a mark-and-sweep over the 's' prefix. It marks
 * every trie node reachable from the kept state roots (account trie, each account's storage
 * trie, its code by hash) and deletes every other node in one atomic write.
 *
 * Nodes are content-addressed and a new block writes every node on its modified paths again, so
 * a node that a later block re-creates is written by that block; the only hazard is a node a
 * block under construction relies on without writing it, which is always reachable from the head
 * (its parent). Collections therefore run only between blocks, right after a commit (Chain.commit),
 * and never two at once. Triggered by bytes written: once a quarter as much has been written as the
 * live state holds (at least minBytes), so disk stays within about 1.5x the live state and the cost
 * per written byte stays constant.
 */
export class StatePruner {
  private written = 0
  private liveBytes = 0
  private running: Promise<PruneResult> | undefined

  constructor(
    private readonly trieDb: TrieDB,
    /** State roots to keep, newest first (the last blocks' roots). */
    private readonly keptRoots: () => Uint8Array[],
    private readonly opts: StatePrunerOptions,
  ) {}

  /** Counts a committed block's trie writes and collects when enough garbage may have built up. */
  async afterCommit(bytesWritten: number): Promise<void> {
    this.written += bytesWritten
    // A quarter of the live state's bytes: blocks write only their final nodes (src/engine/state/trieBatch.ts),
    // mostly leaves smaller than the live state's average node, so in entries that is about half the live state.
    if (this.written < Math.max(this.opts.minBytes ?? GC_MIN_BYTES, this.liveBytes / 4)) return
    try {
      await this.prune()
    } catch (err) {
      this.opts.log.error({ err }, 'state garbage collection failed')
    }
  }

  /** Runs one collection now (or joins the one running). */
  prune(): Promise<PruneResult> {
    this.running ??= this.collect().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async collect(): Promise<PruneResult> {
    const started = performance.now()
    this.written = 0
    const roots = this.keptRoots()
    const { live, bytes, missing } = await this.mark(roots)
    const { kept, deleted } = await this.trieDb.sweep((key) => live.has(key))
    this.liveBytes = bytes
    const result: PruneResult = { roots: new Set(roots.map((r) => bytesToHex(r))).size, kept, deleted, liveBytes: bytes, ms: Math.round(performance.now() - started) }
    if (missing > 0) this.opts.log.warn({ missing }, 'state garbage collection: nodes of kept roots are missing')
    this.opts.log.debug(result, 'state garbage collected')
    return result
  }

  /** Marks the closure of the roots: trie nodes by hash and code entries ('c' ‖ codeHash). */
  private async mark(roots: Uint8Array[]): Promise<{ live: Set<string>; bytes: number; missing: number }> {
    const live = new Set<string>()
    const stack: { key: string; accounts: boolean }[] = roots.map((r) => ({ key: hexKey(r), accounts: true }))
    let bytes = 0
    let missing = 0
    let steps = 0
    const push = (child: unknown, accounts: boolean): void => {
      if (child instanceof Uint8Array) {
        if (child.length === 32) stack.push({ key: hexKey(child), accounts })
      } else if (Array.isArray(child)) {
        visit(child, accounts) // a node under 32 bytes is embedded in its parent
      }
    }
    const visit = (node: unknown[], accounts: boolean): void => {
      if (node.length === 17) {
        for (let i = 0; i < 16; i++) push(node[i], accounts)
        // Keys are hashed (32 bytes), so no value ever sits in a branch.
      } else if (node.length === 2) {
        const path = node[0] as Uint8Array
        const leaf = path.length > 0 && path[0]! >> 4 >= 2 // hex-prefix flag 2/3: leaf, 0/1: extension
        if (!leaf) push(node[1], accounts)
        else if (accounts) {
          const [, , storageRoot, codeHash] = RLP.decode(node[1] as Uint8Array) as Uint8Array[]
          if (storageRoot !== undefined && !equalsBytes(storageRoot, KECCAK256_RLP)) stack.push({ key: hexKey(storageRoot), accounts: false })
          if (codeHash !== undefined && !equalsBytes(codeHash, KECCAK256_NULL)) live.add(codeKey(hexKey(codeHash)))
        }
      }
    }
    while (stack.length > 0) {
      const { key, accounts } = stack.pop()!
      if (live.has(key)) continue // content-addressed: a marked node's whole subtree is marked
      const raw = this.trieDb.getSync(key)
      if (raw === undefined) {
        missing++
        continue
      }
      live.add(key)
      bytes += raw.length
      visit(RLP.decode(raw) as unknown[], accounts)
      if (++steps % MARK_SLICE === 0) await new Promise((r) => setImmediate(r))
    }
    return { live, bytes, missing }
  }
}

function hexKey(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
}

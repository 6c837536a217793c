import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, concatBytes, equalsBytes } from '@ethereumjs/util'
import { type BatchOp, type Database, writeBatch } from './writeBatch.js'
import { META_SNAPSHOTS, PREFIX, keyString, metaKey, prefixed, u64 } from './keys.js'

/** One live snapshot: its id, where its journal starts, and what its owner keeps beside it (time, pools). */
export interface SnapshotRecord {
  id: bigint
  /** The first journal record written after it. */
  seq: bigint
  /** Opaque to the store (the dev controls' JSON: clock, mining mode, pools). */
  extra: Uint8Array
}

/** Keys no snapshot undoes: the keystore's users and keys are secrets, not chain state; the journal and its table are its own. */
const UNJOURNALED = new Set<number>([PREFIX.keystoreUser, PREFIX.keystoreData, PREFIX.snapshotJournal])
/**
 * Keys named by their content (a trie node or code by its hash, a preimage by its keccak): a put
 * never changes what such a key holds, so it has nothing to undo (a revert leaves the new entries
 * as unreferenced garbage, as a pruned trie's are); their deletes (state pruning) are journaled.
 * Most of a block's keys are trie nodes: not reading their values before each write nor writing them
 * back on revert is most of a snapshot's cost.
 */
const CONTENT_ADDRESSED = new Set<number>([PREFIX.state, PREFIX.preimage])
const SNAPSHOTS_KEY = metaKey(META_SNAPSHOTS)
/** One live snapshot's own key: the table's key, 0x00, its id; the table holds only the counters. */
const ENTRY_RANGE = { gte: concatBytes(SNAPSHOTS_KEY, Uint8Array.of(0)), lt: concatBytes(SNAPSHOTS_KEY, Uint8Array.of(1)) }

const journals = new WeakMap<Database, SnapshotJournal>()

/** One undo record: each key a batch wrote, with the value it held before ([key] when it was absent). */
type UndoRecord = Uint8Array[][]

/**
 * Undo records for snapshots of everything on one database (evm_snapshot / evm_revert). While a
 * snapshot is live, every batch written through store/db.ts writeSynced also writes, in the same
 * atomic write, the values its keys held before it ('j' + seq). Reverting writes those values back,
 * newest first, and drops the records and every later snapshot, in one atomic write: a crash leaves
 * the database either as it was or as of the snapshot, never half-reverted. Blocks, state (trie and
 * flat), receipts, atomic txs, shared memory and the X/P ledgers are all on this database, so one
 * snapshot covers the node; in-memory views read back the keys a revert put back (their owners do
 * that). The records stay in memory too (read from disk once, at open): a revert costs what changed
 * since its snapshot, not a scan of the database.
 */
export class SnapshotJournal {
  private snapshots: SnapshotRecord[] = []
  private readonly records = new Map<bigint, UndoRecord>()
  private nextId = 0n
  private nextSeq = 0n
  /** Journaled writes one at a time: a record's "before" must be read after the previous batch landed. */
  private tail: Promise<unknown> = Promise.resolve()

  private constructor(private readonly db: Database) {}

  /** The journal of `db`, loading its live snapshots from disk on first use. */
  static async of(db: Database): Promise<SnapshotJournal> {
    let j = journals.get(db)
    if (j === undefined) {
      j = new SnapshotJournal(db)
      journals.set(db, j)
      await j.load()
    }
    return j
  }

  /** The journal already opened for `db`, if any (writeSynced's hook). */
  static opened(db: Database): SnapshotJournal | undefined {
    return journals.get(db)
  }

  private async load(): Promise<void> {
    const raw = this.db.getSync(SNAPSHOTS_KEY)
    if (raw === undefined || raw === null) return
    const [next, seq, list] = RLP.decode(raw) as unknown as [Uint8Array, Uint8Array, Uint8Array[][] | undefined]
    this.nextId = bytesToBigInt(next)
    this.nextSeq = bytesToBigInt(seq)
    if (list !== undefined) {
      // A data dir from before each snapshot had its own key: the table held them all; move them out.
      this.snapshots = list.map(snapshotOf)
      await writeBatch(this.db, [...this.snapshots.map((snap) => this.entryOp(snap)), this.tableOp()])
    } else {
      for await (const [, value] of this.db.iterator(ENTRY_RANGE)) this.snapshots.push(snapshotOf(RLP.decode(value) as unknown as Uint8Array[]))
    }
    if (this.snapshots.length === 0) return
    for await (const [key, value] of this.db.iterator({ gte: recordKey(this.snapshots[0]!.seq), lt: Uint8Array.of(PREFIX.snapshotJournal + 1) })) {
      this.records.set(new DataView(key.buffer, key.byteOffset + 1, 8).getBigUint64(0), RLP.decode(value) as unknown as UndoRecord)
    }
  }

  /**
   * The counters, written with every journaled batch; each snapshot is under its own key (entryOp), so
   * what a send, a snapshot or a revert writes does not grow with the snapshots left live (a suite's
   * loadFixture leaves one per fixture: hundreds by its end).
   */
  private tableOp(): BatchOp {
    return { type: 'put', key: SNAPSHOTS_KEY, value: RLP.encode([this.nextId, this.nextSeq]) }
  }

  private entryOp(snap: SnapshotRecord, del = false): BatchOp {
    const key = concatBytes(ENTRY_RANGE.gte, u64(snap.id))
    return del ? { type: 'del', key } : { type: 'put', key, value: RLP.encode([snap.id, snap.seq, snap.extra]) }
  }

  /** Live snapshots, oldest first. */
  live(): readonly SnapshotRecord[] {
    return this.snapshots
  }

  /** Writes `ops` durably (store/db.ts writeBatch, paced by `pause`), with their undo record while a snapshot is live. */
  write(ops: BatchOp[], pause?: () => Promise<void>): Promise<void> {
    const run = this.tail.then(async () => {
      const keys = this.snapshots.length === 0 ? [] : uniqueKeys(ops)
      if (keys.length === 0) return writeBatch(this.db, ops, pause)
      // Synchronous reads: a block's 20 to 30 keys in about 0.1 ms, where one getMany's round trip through the thread pool took 0.45 ms.
      const items: UndoRecord = keys.map((k) => {
        const before = this.db.getSync(k)
        return before === undefined ? [k] : [k, before]
      })
      const seq = this.nextSeq++
      await writeBatch(this.db, [...ops, { type: 'put', key: recordKey(seq), value: RLP.encode(items) }, this.tableOp()], pause)
      this.records.set(seq, items)
    })
    this.tail = run.catch(() => {})
    return run
  }

  /** Takes a snapshot; returns its id (0, 1, 2, ...: anvil's and hardhat's numbering). */
  take(extra: Uint8Array): Promise<bigint> {
    const run = this.tail.then(async () => {
      const id = this.nextId++
      const snap = { id, seq: this.nextSeq, extra }
      this.snapshots.push(snap)
      await writeBatch(this.db, [this.entryOp(snap), this.tableOp()])
      return id
    })
    this.tail = run.catch(() => {})
    return run
  }

  /**
   * Puts the database back as it was when snapshot `id` was taken; that snapshot and every later one
   * are used up. Returns the snapshot with the keys put back (their owners read those again), or
   * undefined for an unknown or used-up id (nothing changes).
   */
  revert(id: bigint): Promise<(SnapshotRecord & { restored: Uint8Array[] }) | undefined> {
    const run = this.tail.then(async () => {
      const at = this.snapshots.findIndex((s) => s.id === id)
      if (at < 0) return undefined
      const snap = this.snapshots[at]!
      // Oldest record last wins: the value a key held when the snapshot was taken.
      const restore = new Map<string, BatchOp>()
      const ops: BatchOp[] = []
      for (let seq = this.nextSeq - 1n; seq >= snap.seq; seq--) {
        const items = this.records.get(seq)
        if (items === undefined) continue
        this.records.delete(seq)
        ops.push({ type: 'del', key: recordKey(seq) })
        for (const item of items) {
          const k = item[0]!
          restore.set(keyString(k), item.length === 1 ? { type: 'del', key: k } : { type: 'put', key: k, value: item[1]! })
        }
      }
      for (const gone of this.snapshots.slice(at)) ops.push(this.entryOp(gone, true))
      this.snapshots = this.snapshots.slice(0, at)
      if (this.snapshots.length === 0) this.nextSeq = 0n
      else this.nextSeq = snap.seq
      const restored = [...restore.values()]
      await writeBatch(this.db, [...restored, ...ops, this.tableOp()])
      return { ...snap, restored: restored.map((op) => op.key) }
    })
    this.tail = run.catch(() => {})
    return run
  }

  /** Runs `wipe` (a reset of the database) between journaled writes, then forgets every snapshot. */
  reset(wipe: () => Promise<void>): Promise<void> {
    const run = this.tail.then(async () => {
      await wipe()
      this.snapshots = []
      this.records.clear()
      this.nextId = 0n
      this.nextSeq = 0n
    })
    this.tail = run.catch(() => {})
    return run
  }
}

/** A snapshot from its stored fields [id, first seq, extra] (its own key, or the old table's list). */
function snapshotOf([id, seq, extra]: Uint8Array[]): SnapshotRecord {
  return { id: bytesToBigInt(id!), seq: bytesToBigInt(seq!), extra: extra! }
}

function recordKey(seq: bigint): Uint8Array {
  return prefixed(PREFIX.snapshotJournal, u64(seq))
}

function uniqueKeys(ops: readonly BatchOp[]): Uint8Array[] {
  const seen = new Set<string>()
  const out: Uint8Array[] = []
  for (const op of ops) {
    const prefix = op.key[0]!
    if (UNJOURNALED.has(prefix) || (op.type === 'put' && CONTENT_ADDRESSED.has(prefix)) || (prefix === PREFIX.meta && equalsBytes(op.key, SNAPSHOTS_KEY))) continue
    const hex = keyString(op.key)
    if (seen.has(hex)) continue
    seen.add(hex)
    out.push(op.key)
  }
  return out
}

import { ClassicLevel } from 'classic-level'
import { WAL_SEQ_KEY, keyString, u64 } from './keys.js'
import type { BatchOp } from './batchOp.js'
import { WriteAheadLog } from './writeAheadLog.js'

type Level = ClassicLevel<Uint8Array, Uint8Array>
type Range = { gt?: Uint8Array; gte?: Uint8Array; lt?: Uint8Array; lte?: Uint8Array; limit?: number; reverse?: boolean }

/** A write waiting for LevelDB: its key as a map key, its value (undefined: deleted). */
interface Pending {
  key: Uint8Array
  value: Uint8Array | undefined
  k: string
}

export interface DatabaseOptions {
  /**
   * fdatasync every write before it is answered, and every flush to LevelDB: a power loss then keeps
   * every answered write too (`--sync-writes`; docs/SECURITY.md, D-a). Off: a crash of the process
   * (kill -9) keeps every answered write; a power loss may lose the last moments' writes, never
   * tearing one (the chain reopens at the last whole block the disk kept).
   */
  syncWrites: boolean
  /** A flush to LevelDB failed; it is tried again a second later (the log keeps the writes meanwhile). */
  onError?: (err: unknown) => void
}

/**
 * How long writes gather before LevelDB gets them: several blocks' writes in one LevelDB batch (a
 * key written by each, the head pointer, once), and the flush's work lands between requests less
 * often. Range reads and close() flush at once.
 */
const FLUSH_DELAY_MS = 10
/** Ops put into LevelDB's batch between two yields to the event loop while a big flush is built. */
const OPS_PER_SLICE = 1024

/**
 * The node's database: LevelDB behind a write-ahead log, written behind. A write (a block's batch,
 * an edit, a snapshot's record) is appended to the log (src/store/writeAheadLog.ts) and is at once
 * what every read sees (an in-memory overlay of the writes LevelDB does not hold yet); LevelDB gets
 * the writes afterwards, several at a time, in the order they were made, off the answer's path (a
 * synced LevelDB write per block cost 0.6 to 3 ms of every send). Nothing answered is lost to a
 * crash: the log is replayed into LevelDB when the database opens again. Reads of a key range
 * (iterators, clear) wait until LevelDB holds every write made before them.
 */
export class Database {
  private readonly overlay = new Map<string, Pending>()
  private queue: Pending[] = []
  /** Log segments sealed for a flush that LevelDB does not hold yet. */
  private sealed: number[] = []
  private flushedSeq: bigint
  private flushing: Promise<void> | undefined
  /** The flush waiting to start: its timer, or `now` when it starts at the next turn of the event loop. */
  private scheduled: NodeJS.Timeout | 'now' | undefined
  private closed = false

  private constructor(
    private readonly level: Level,
    private readonly wal: WriteAheadLog,
    private seq: bigint,
    private readonly opts: DatabaseOptions,
    /**
     * What the open found in the log: `replayed`, writes only the log held (a crash left them there),
     * now in LevelDB; `lost`, writes after a gap (LevelDB lost writes in a power loss without
     * --sync-writes): left out, so the chain reopens at its last whole block.
     */
    readonly recovery: { replayed: number; lost: number },
  ) {
    this.flushedSeq = seq
  }

  /** Opens LevelDB at `location` and the log in `walDir`, replaying what the log holds that LevelDB does not. */
  static async open(location: string, walDir: string, opts: DatabaseOptions): Promise<Database> {
    const level: Level = new ClassicLevel(location, { keyEncoding: 'view', valueEncoding: 'view' })
    await level.open()
    const { log, writes, segments } = WriteAheadLog.open(walDir)
    const stored = level.getSync(WAL_SEQ_KEY) ?? undefined
    let seq = stored === undefined ? undefined : Buffer.from(stored).readBigUInt64BE(0)
    const replay: BatchOp[] = []
    const recovery = { replayed: 0, lost: 0 }
    for (const write of writes) {
      if (seq !== undefined && write.seq <= seq) continue
      // A gap: LevelDB lost writes the log no longer has (a power loss without --sync-writes): what follows cannot apply.
      if (recovery.lost > 0 || (seq !== undefined && write.seq !== seq + 1n)) {
        recovery.lost++
        continue
      }
      replay.push(...write.ops)
      seq = write.seq
      recovery.replayed++
    }
    seq ??= 0n
    if (replay.length > 0) await writeLevel(level, replay, seq, true)
    log.drop(segments)
    return new Database(level, log, seq, opts, recovery)
  }

  get status(): Level['status'] {
    return this.level.status
  }

  /** A key's value: the latest write's, whether LevelDB holds it yet or not. */
  getSync(key: Uint8Array): Uint8Array | undefined {
    if (this.overlay.size > 0) {
      const pending = this.overlay.get(keyString(key))
      // A copy (a Buffer's slice() would be a view): the logged value is a view of its whole write's
      // record, which a reader's cache would keep alive, and a reader must not change it.
      if (pending !== undefined) return pending.value === undefined ? undefined : new Uint8Array(pending.value)
    }
    return this.level.getSync(key) ?? undefined
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.getSync(key)
  }

  /**
   * Writes `ops` as one atomic write: logged, then read by every reader, LevelDB later. `sync`: this
   * write is fdatasync'd before it returns (always with `syncWrites`). `pause` (the block builder's
   * pacer) is awaited between slices of a big write first; one that throws writes nothing.
   */
  async write(ops: readonly BatchOp[], opts: { sync?: boolean; pause?: () => Promise<void> } = {}): Promise<void> {
    if (opts.pause !== undefined) for (let i = 256; i < ops.length; i += 256) await opts.pause()
    if (this.closed) throw new Error('database is closed')
    const seq = ++this.seq
    const views = this.wal.append(seq, ops, opts.sync === true || this.opts.syncWrites)
    for (const op of views) {
      const pending: Pending = { key: op.key, value: op.type === 'put' ? op.value : undefined, k: keyString(op.key) }
      this.overlay.set(pending.k, pending)
      this.queue.push(pending)
    }
    this.scheduleFlush()
  }

  batch(ops: readonly BatchOp[], opts: { sync?: boolean } = {}): Promise<void> {
    return this.write(ops, opts)
  }

  put(key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.write([{ type: 'put', key, value }])
  }

  del(key: Uint8Array): Promise<void> {
    return this.write([{ type: 'del', key }])
  }

  /** Entries in key order, once LevelDB holds every write made before the call. */
  iterator(range: Range = {}): RangeReader<[Uint8Array, Uint8Array]> {
    return new RangeReader(this.flushed().then(() => this.level.iterator(range)))
  }

  keys(range: Range = {}): RangeReader<Uint8Array> {
    return new RangeReader(this.flushed().then(() => this.level.keys(range)))
  }

  /** Deletes a key range, once LevelDB holds every write made before the call. */
  async clear(range: Range): Promise<void> {
    await this.flushed()
    await this.level.clear(range)
  }

  /** Resolves once LevelDB holds every write made so far. */
  async flushed(): Promise<void> {
    const target = this.seq
    while (this.flushedSeq < target) {
      this.scheduleFlush(true)
      await (this.flushing ?? new Promise<void>((resolve) => setImmediate(resolve)))
    }
  }

  /** Puts every write into LevelDB, then closes it and the log. */
  async close(): Promise<void> {
    if (this.closed) return
    await this.flushed()
    this.closed = true
    this.wal.close(this.queue.length === 0)
    await this.level.close()
  }

  /** Starts a flush of the queued writes after FLUSH_DELAY_MS, or at the next turn (`now`); one at a time. */
  private scheduleFlush(now = false): void {
    if (this.flushing !== undefined || this.queue.length === 0 || this.scheduled === 'now') return
    if (this.scheduled !== undefined) {
      if (!now) return
      clearTimeout(this.scheduled)
    }
    const start = () => {
      this.scheduled = undefined
      this.flushing = this.flushLoop().finally(() => {
        this.flushing = undefined
        this.scheduleFlush()
      })
    }
    if (now) {
      this.scheduled = 'now'
      setImmediate(start)
    } else this.scheduled = setTimeout(start, FLUSH_DELAY_MS)
  }

  /** Moves the queued writes into LevelDB, in order, one LevelDB batch per round; new writes go to a new log segment meanwhile. */
  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const entries = this.queue
      this.queue = []
      const upTo = this.seq
      const sealed = this.wal.rotate()
      if (sealed !== undefined) this.sealed.push(sealed)
      // The last write of each key is the one LevelDB needs.
      const last = new Map<string, Pending>()
      for (const p of entries) last.set(p.k, p)
      try {
        await writeLevel(this.level, [...last.values()].map(toOp), upTo, this.opts.syncWrites)
      } catch (err) {
        this.queue = entries.concat(this.queue)
        this.opts.onError?.(err)
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref())
        continue
      }
      this.wal.drop(this.sealed)
      this.sealed = []
      for (const [k, p] of last) if (this.overlay.get(k) === p) this.overlay.delete(k)
      this.flushedSeq = upTo
    }
  }
}

function toOp(p: Pending): BatchOp {
  return p.value === undefined ? { type: 'del', key: p.key } : { type: 'put', key: p.key, value: p.value }
}

/** One LevelDB batch of `ops` with the log's sequence number it reaches, built in slices (a big flush must not hold requests). */
async function writeLevel(level: Level, ops: readonly BatchOp[], seq: bigint, sync: boolean): Promise<void> {
  const batch = level.batch()
  try {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!
      if (op.type === 'put') batch.put(op.key, op.value)
      else batch.del(op.key)
      if (i % OPS_PER_SLICE === OPS_PER_SLICE - 1) await new Promise((resolve) => setImmediate(resolve))
    }
    batch.put(WAL_SEQ_KEY, u64(seq))
  } catch (err) {
    await batch.close()
    throw err
  }
  await batch.write({ sync })
}

/** A key as a map key: one character per byte. */

interface LevelRange<T> {
  next(): Promise<T | undefined>
  nextv(size: number): Promise<T[]>
  all(): Promise<T[]>
  close(): Promise<void>
}

/** A LevelDB iterator opened once the writes before it are in LevelDB: the subset of abstract-level's iterator the store uses. */
export class RangeReader<T> implements AsyncIterable<T> {
  constructor(private readonly opened: Promise<LevelRange<T>>) {}

  async next(): Promise<T | undefined> {
    return (await this.opened).next()
  }

  async nextv(size: number): Promise<T[]> {
    return (await this.opened).nextv(size)
  }

  async all(): Promise<T[]> {
    return (await this.opened).all()
  }

  async close(): Promise<void> {
    await (await this.opened).close()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    const it = await this.opened
    try {
      for (let items = await it.nextv(256); items.length > 0; items = await it.nextv(256)) yield* items
    } finally {
      await it.close()
    }
  }
}

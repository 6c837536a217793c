import { randomBytes } from 'node:crypto'
import type { Block } from '../chain/block.js'
import { NotFoundError } from '../base/errors.js'
import type { LogCriteria } from './logFilter.js'
import type { FoundLog, LogIndex } from './logIndex.js'
import type { PoolTx } from '../pool/txPool.js'

/** Filter limits (docs/SECURITY.md, E5; chain config `filter-timeout`, `filter-max-count`). */
export interface FilterLimits {
  /** A filter not polled for this many ms is removed (geth's filter timeout); 0 = never. */
  timeoutMs: number
  /** Installed filters at most; past it the longest-idle one goes. */
  maxCount: number
  /** Changes one filter buffers between polls; past it the oldest are dropped. */
  maxBuffered: number
}
/** The sweep of idle filters runs at least this often. */
const SWEEP_MS = 30_000

/** A log filter's block bounds: a number, or undefined for "latest" (follow the head). */
export interface LogFilterBounds {
  from?: bigint
  to?: bigint
}

type Installed =
  | { kind: 'logs'; criteria: LogCriteria; bounds: LogFilterBounds; blockHash?: Uint8Array; logs: FoundLog[]; touched: number }
  | { kind: 'blocks'; hashes: Uint8Array[]; touched: number }
  | { kind: 'pendingTx'; hashes: string[]; touched: number }

/** geth rpc.NewID: 16 random bytes as hex, leading zeros trimmed. */
export function newId(): string {
  return '0x' + (randomBytes(16).toString('hex').replace(/^0+/, '') || '0')
}

/**
 * Polling filters (eth_newFilter & co.): each buffers what happened since its last poll.
 * Filters are per node, not per connection, as in geth.
 */
export class FilterManager {
  private readonly filters = new Map<string, Installed>()
  private readonly timer: NodeJS.Timeout | undefined

  /** `now` is the clock of the idle timeout (ms since the epoch); tests pass one they move on. */
  constructor(
    private readonly logs: LogIndex,
    events: { chain: NodeJS.EventEmitter; pool: NodeJS.EventEmitter },
    private readonly limits: FilterLimits,
    private readonly now: () => number = Date.now,
  ) {
    events.chain.on('head', (block: Block) => this.onHead(block))
    events.pool.on('pendingTx', (ptx: PoolTx) => this.onPendingTx(ptx))
    if (limits.timeoutMs > 0) {
      this.timer = setInterval(() => this.expire(), Math.min(SWEEP_MS, limits.timeoutMs))
      this.timer.unref()
    }
  }

  get size(): number {
    return this.filters.size
  }

  close(): void {
    clearInterval(this.timer)
    this.filters.clear()
  }

  newLogFilter(criteria: LogCriteria, bounds: LogFilterBounds, blockHash?: Uint8Array): string {
    return this.install({ kind: 'logs', criteria, bounds, blockHash, logs: [], touched: this.now() })
  }

  newBlockFilter(): string {
    return this.install({ kind: 'blocks', hashes: [], touched: this.now() })
  }

  newPendingTransactionFilter(): string {
    return this.install({ kind: 'pendingTx', hashes: [], touched: this.now() })
  }

  uninstall(id: string): boolean {
    return this.filters.delete(id)
  }

  /** eth_getFilterChanges: what arrived since the last poll. */
  changes(id: string): { kind: 'logs'; logs: FoundLog[] } | { kind: 'hashes'; hashes: (Uint8Array | string)[] } {
    const f = this.get(id)
    f.touched = this.now()
    if (f.kind === 'logs') {
      const logs = f.logs
      f.logs = []
      return { kind: 'logs', logs }
    }
    const hashes = f.hashes
    f.hashes = []
    return { kind: 'hashes', hashes }
  }

  /** The criteria of a log filter (eth_getFilterLogs); other kinds are "filter not found", as geth. */
  logFilter(id: string): { criteria: LogCriteria; bounds: LogFilterBounds; blockHash?: Uint8Array } {
    const f = this.get(id)
    if (f.kind !== 'logs') throw new NotFoundError('filter not found')
    f.touched = this.now()
    return f
  }

  private get(id: string): Installed {
    const f = this.filters.get(id)
    if (f !== undefined && !this.idle(f, this.now())) return f
    // Idle past the timeout but not yet swept: as gone.
    this.filters.delete(id)
    throw new NotFoundError('filter not found')
  }

  private install(f: Installed): string {
    if (this.filters.size >= this.limits.maxCount) {
      let oldest: string | undefined
      let at = Infinity
      for (const [id, g] of this.filters)
        if (g.touched < at) {
          at = g.touched
          oldest = id
        }
      if (oldest !== undefined) this.filters.delete(oldest)
    }
    const id = newId()
    this.filters.set(id, f)
    return id
  }

  private idle(f: Installed, now: number): boolean {
    return this.limits.timeoutMs > 0 && now - f.touched > this.limits.timeoutMs
  }

  private expire(now = this.now()): void {
    for (const [id, f] of this.filters) if (this.idle(f, now)) this.filters.delete(id)
  }

  private onHead(block: Block): void {
    if (this.filters.size === 0) return
    const n = block.header.number
    for (const f of this.filters.values()) {
      if (f.kind === 'blocks') push(f.hashes, block.hash, this.limits.maxBuffered)
      else if (f.kind === 'logs' && f.blockHash === undefined) {
        if ((f.bounds.from !== undefined && n < f.bounds.from) || (f.bounds.to !== undefined && n > f.bounds.to)) continue
        for (const found of this.logs.inBlock(f.criteria, block)) push(f.logs, found, this.limits.maxBuffered)
      }
    }
  }

  private onPendingTx(ptx: PoolTx): void {
    for (const f of this.filters.values()) if (f.kind === 'pendingTx') push(f.hashes, ptx.hash, this.limits.maxBuffered)
  }
}

function push<T>(list: T[], item: T, max: number): void {
  if (list.length >= max) list.shift()
  list.push(item)
}

/**
 * coreth's atomic mempool (plugin/evm/atomic/txpool/{mempool,txs,tx_heap}.go):
 * Pending (by effective gas price) -> Current (in a block being built) -> Issued, removed on accept;
 * Discarded is an LRU of the last 50 txs that failed. Conflicts are by InputUTXOs.
 */
import { cb58Encode } from '../avalanche/cb58.js'
import { AlreadyKnownError, AtomicError } from './errors.js'
import { burned, effectiveGasPrice, gasUsed } from './fees.js'
import type { AtomicTx } from './tx.js'
import { inputUTXOs } from './verify.js'

/** txpool.go defaults: 4096 txs (config TxPoolSize for atomic), 50 discarded. */
export const ATOMIC_MEMPOOL_SIZE = 4096
export const DISCARDED_CACHE_SIZE = 50

export interface AtomicMempoolOptions {
  avaxAssetID: Uint8Array
  maxSize?: number
  discardedSize?: number
  /** verifyTxAtTip: throws coreth's error when the tx is not valid on the preferred block. */
  verify?: (tx: AtomicTx) => Promise<void> | void
}

/** A tx in the mempool with what the rules look at. */
export interface MempoolEntry {
  readonly tx: AtomicTx
  readonly key: string
  /** wei per gas, rounded down (EffectiveGasPrice) */
  readonly gasPrice: bigint
  /** InputUTXOs as hex */
  readonly inputs: readonly string[]
  /** push order, for a stable order among equal prices */
  seq: number
}

export type MempoolState = 'pending' | 'current' | 'issued' | 'discarded'

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

/** The atomic mempool; single-threaded, so coreth's lock becomes a re-check after verification. */
export class AtomicMempool {
  private readonly pending = new Map<string, MempoolEntry>()
  private readonly current = new Map<string, MempoolEntry>()
  private readonly issued = new Map<string, MempoolEntry>()
  /** insertion-ordered LRU: the first key is the oldest */
  private readonly discarded = new Map<string, AtomicTx>()
  private readonly utxoSpenders = new Map<string, MempoolEntry>()
  private readonly maxSize: number
  private readonly discardedSize: number
  private pushes = 0

  constructor(private readonly opts: AtomicMempoolOptions) {
    this.maxSize = opts.maxSize ?? ATOMIC_MEMPOOL_SIZE
    this.discardedSize = opts.discardedSize ?? DISCARDED_CACHE_SIZE
  }

  /** Forgets every tx (the chain was put back by a revert or reset). */
  clear(): void {
    for (const map of [this.pending, this.current, this.issued, this.discarded, this.utxoSpenders]) map.clear()
  }

  /** Pending + Current + Issued. */
  get length(): number {
    return this.pending.size + this.current.size + this.issued.size
  }

  get pendingLength(): number {
    return this.pending.size
  }

  /** AddLocalTx: a tx that fails is not remembered. */
  addLocalTx(tx: AtomicTx): Promise<void> {
    return this.addTx(tx, true)
  }

  /** AddRemoteTx: a tx that fails (other than "already known" / "mempool full") is kept as Discarded. */
  async addRemoteTx(tx: AtomicTx): Promise<void> {
    try {
      await this.addTx(tx, false)
    } catch (err) {
      if (!(err instanceof AlreadyKnownError) && !(err instanceof MempoolFullError)) this.putDiscarded(hexOf(tx.id), tx)
      throw err
    }
  }

  private checkKnown(tx: AtomicTx, local: boolean): void {
    const key = hexOf(tx.id)
    const id = cb58Encode(tx.id)
    if (this.issued.has(key)) throw new AlreadyKnownError(`already known: tx ${id} was issued previously`)
    if (this.current.has(key)) throw new AlreadyKnownError(`already known: tx ${id} is being built into a block`)
    if (this.pending.has(key)) throw new AlreadyKnownError(`already known: tx ${id} is pending`)
    if (!local && this.discarded.has(key)) throw new AlreadyKnownError(`already known: tx ${id} was discarded`)
  }

  private async addTx(tx: AtomicTx, local: boolean): Promise<void> {
    this.checkKnown(tx, local)
    if (this.opts.verify !== undefined) {
      await this.opts.verify(tx)
      // Another add of the same tx may have finished while this one verified.
      this.checkKnown(tx, local)
    }
    const key = hexOf(tx.id)
    const utx = tx.tx.unsignedTx
    const gasPrice = effectiveGasPrice(burned(utx, this.opts.avaxAssetID), gasUsed(utx, tx.unsignedBytes.length))
    const inputs = inputUTXOs(utx).map(hexOf)
    const conflicts = new Set<MempoolEntry>()
    let highest: MempoolEntry | undefined
    for (const input of inputs) {
      const spender = this.utxoSpenders.get(input)
      if (spender === undefined) continue
      if (highest === undefined || highest.gasPrice < spender.gasPrice) highest = spender
      conflicts.add(spender)
    }
    if (highest !== undefined) {
      if (gasPrice <= highest.gasPrice) {
        throw new AtomicError(
          `conflict present: issued tx (${cb58Encode(tx.id)}) gas price ${gasPrice} <= conflict tx (${cb58Encode(highest.tx.id)}) gas price ${highest.gasPrice} (${conflicts.size} total conflicts in mempool)`,
        )
      }
      for (const c of conflicts) this.removeEntry(c, true)
    }
    if (this.length >= this.maxSize) {
      const min = this.minPending()
      if (min === undefined) throw new MempoolFullError('mempool full')
      if (gasPrice <= min.gasPrice) throw new AtomicError(`insufficient fee currentMin=${min.gasPrice} provided=${gasPrice}`)
      this.removeEntry(min, true)
    }
    this.discarded.delete(key)
    const entry: MempoolEntry = { tx, key, gasPrice, inputs, seq: this.pushes++ }
    this.pending.set(key, entry)
    for (const input of inputs) this.utxoSpenders.set(input, entry)
  }

  private minPending(): MempoolEntry | undefined {
    let min: MempoolEntry | undefined
    for (const e of this.pending.values()) if (min === undefined || e.gasPrice < min.gasPrice || (e.gasPrice === min.gasPrice && e.seq > min.seq)) min = e
    return min
  }

  private maxPending(): MempoolEntry | undefined {
    let max: MempoolEntry | undefined
    for (const e of this.pending.values()) if (max === undefined || e.gasPrice > max.gasPrice || (e.gasPrice === max.gasPrice && e.seq < max.seq)) max = e
    return max
  }

  private putDiscarded(key: string, tx: AtomicTx): void {
    this.discarded.delete(key)
    this.discarded.set(key, tx)
    while (this.discarded.size > this.discardedSize) this.discarded.delete(this.discarded.keys().next().value!)
  }

  private removeSpenders(entry: MempoolEntry): void {
    for (const input of entry.inputs) if (this.utxoSpenders.get(input) === entry) this.utxoSpenders.delete(input)
  }

  private removeEntry(entry: MempoolEntry, discard: boolean): void {
    this.pending.delete(entry.key)
    this.current.delete(entry.key)
    this.issued.delete(entry.key)
    this.removeSpenders(entry)
    if (discard) this.putDiscarded(entry.key, entry.tx)
    else this.discarded.delete(entry.key)
  }

  /** NextTx: the highest-paying Pending tx, now Current. */
  nextTx(): AtomicTx | undefined {
    const max = this.maxPending()
    if (max === undefined) return undefined
    this.pending.delete(max.key)
    this.current.set(max.key, max)
    return max.tx
  }

  /** CancelCurrentTx: back to Pending (it did not fit in the block). */
  cancelCurrentTx(txID: Uint8Array): void {
    const entry = this.current.get(hexOf(txID))
    if (entry === undefined) return
    this.current.delete(entry.key)
    this.pending.set(entry.key, entry)
  }

  /** CancelCurrentTxs: every Current tx back to Pending (the block failed for another reason). */
  cancelCurrentTxs(): void {
    for (const entry of [...this.current.values()]) this.cancelCurrentTx(entry.tx.id)
  }

  /** DiscardCurrentTx: the Current tx failed verification in the block; it becomes Discarded. */
  discardCurrentTx(txID: Uint8Array): void {
    const entry = this.current.get(hexOf(txID))
    if (entry === undefined) return
    this.current.delete(entry.key)
    this.removeSpenders(entry)
    this.putDiscarded(entry.key, entry.tx)
  }

  /** IssueCurrentTxs: the Current txs are in a built block. */
  issueCurrentTxs(): void {
    for (const entry of this.current.values()) this.issued.set(entry.key, entry)
    this.current.clear()
  }

  /** RemoveTx: accepted (or otherwise gone for good): no status left in the mempool. */
  removeTx(txID: Uint8Array): void {
    const key = hexOf(txID)
    const entry = this.pending.get(key) ?? this.current.get(key) ?? this.issued.get(key)
    if (entry !== undefined) this.removeEntry(entry, false)
    else this.discarded.delete(key)
  }

  /** GetTx: the tx and whether it is Discarded. */
  getTx(txID: Uint8Array): { tx: AtomicTx; discarded: boolean } | undefined {
    const key = hexOf(txID)
    const entry = this.pending.get(key) ?? this.issued.get(key) ?? this.current.get(key)
    if (entry !== undefined) return { tx: entry.tx, discarded: false }
    const tx = this.discarded.get(key)
    return tx === undefined ? undefined : { tx, discarded: true }
  }

  /** The state of a tx, if the mempool knows it. */
  stateOf(txID: Uint8Array): MempoolState | undefined {
    const key = hexOf(txID)
    if (this.pending.has(key)) return 'pending'
    if (this.current.has(key)) return 'current'
    if (this.issued.has(key)) return 'issued'
    return this.discarded.has(key) ? 'discarded' : undefined
  }

  /** Pending, Current or Issued (not Discarded). */
  has(txID: Uint8Array): boolean {
    const s = this.stateOf(txID)
    return s !== undefined && s !== 'discarded'
  }
}

/** ErrMempoolFull: not the tx's fault, so a remote tx is not marked Discarded. */
export class MempoolFullError extends AtomicError {
  override name = 'MempoolFullError'
}

import type { TypedTransaction } from '@ethereumjs/tx'
import { type Address, bytesToHex } from '@ethereumjs/util'
import { TxRejectedError } from '../base/errors.js'

/** A transaction waiting in the pool, with what admission computed once. */
export interface PoolTx {
  readonly tx: TypedTransaction
  readonly hash: string
  readonly sender: Address
  readonly senderHex: string
  readonly nonce: bigint
  readonly feeCap: bigint
  readonly tipCap: bigint
  readonly arrival: number
}

export interface TxPoolOptions {
  priceBump: bigint
  accountSlots: number
  globalSlots: number
  accountQueue: number
  globalQueue: number
}

/** Sender account state the pool checks against (the head's). */
export type NonceReader = (sender: Address) => Promise<bigint>

/**
 * Pending (executable, gap-free from the account nonce) and queued (future nonce) transactions
 * per sender, geth's legacypool rules and wording (core/txpool/legacypool/legacypool.go).
 */
export class TxPool {
  private readonly pending = new Map<string, Map<bigint, PoolTx>>()
  private readonly queued = new Map<string, Map<bigint, PoolTx>>()
  private readonly byHash = new Map<string, PoolTx>()
  /** Next nonce after the sender's pending run, known once the account was read. */
  private readonly pendingNonce = new Map<string, bigint>()
  private pendingCount = 0
  private queuedCount = 0

  constructor(
    private readonly opts: TxPoolOptions,
    private readonly stateNonce: NonceReader,
  ) {}

  get size(): { pending: number; queued: number } {
    return { pending: this.pendingCount, queued: this.queuedCount }
  }

  has(hash: string): boolean {
    return this.byHash.has(hash)
  }

  get(hash: string): PoolTx | undefined {
    return this.byHash.get(hash)
  }

  /** What a sender's pending transactions may spend, and the cost of the one at `nonce` (geth legacypool ExistingExpenditure, ExistingCost). */
  pendingSpend(senderHex: string, nonce: bigint): PendingSpend {
    const pend = this.pending.get(senderHex)
    let spent = 0n
    for (const p of pend?.values() ?? []) spent += txCost(p)
    const at = pend?.get(nonce)
    return { spent, replaced: at === undefined ? undefined : txCost(at) }
  }

  /** Next nonce for `eth_getTransactionCount(addr, 'pending')`. */
  async nextNonce(sender: Address): Promise<bigint> {
    const known = this.pendingNonce.get(sender.toString())
    return known ?? this.stateNonce(sender)
  }

  /**
   * Admits a validated transaction; returns whether it is executable now (pending). `headNonce`:
   * the sender's nonce at the head, when the caller has just read the account (admission does).
   */
  async add(ptx: PoolTx, headNonce?: bigint): Promise<boolean> {
    if (this.byHash.has(ptx.hash)) throw new TxRejectedError('already known')
    const accountNonce = headNonce ?? (await this.stateNonce(ptx.sender))
    if (this.byHash.has(ptx.hash)) throw new TxRejectedError('already known')
    if (ptx.nonce < accountNonce) throw new TxRejectedError(`nonce too low: next nonce ${accountNonce}, tx nonce ${ptx.nonce}`)
    const key = ptx.senderHex
    const pend = this.pending.get(key)
    const old = pend?.get(ptx.nonce) ?? this.queued.get(key)?.get(ptx.nonce)
    if (old !== undefined) {
      this.checkReplacement(old, ptx)
      this.remove(old)
    }
    const next = this.pendingNonce.get(key) ?? accountNonce
    if (ptx.nonce <= next) {
      if ((pend?.size ?? 0) >= this.opts.accountSlots && this.pendingCount >= this.opts.globalSlots) throw new TxRejectedError('txpool is full')
      this.insert(this.pending, key, ptx)
      this.pendingCount++
      this.pendingNonce.set(key, next > ptx.nonce ? next : ptx.nonce + 1n)
      this.promote(key)
      return true
    }
    if ((this.queued.get(key)?.size ?? 0) >= this.opts.accountQueue || this.queuedCount >= this.opts.globalQueue) throw new TxRejectedError('txpool is full')
    this.insert(this.queued, key, ptx)
    this.queuedCount++
    return false
  }

  private checkReplacement(old: PoolTx, ptx: PoolTx): void {
    const bump = 100n + this.opts.priceBump
    if (ptx.feeCap * 100n < old.feeCap * bump || ptx.tipCap * 100n < old.tipCap * bump) {
      throw new TxRejectedError('replacement transaction underpriced')
    }
  }

  private insert(map: Map<string, Map<bigint, PoolTx>>, key: string, ptx: PoolTx): void {
    let byNonce = map.get(key)
    if (byNonce === undefined) map.set(key, (byNonce = new Map()))
    byNonce.set(ptx.nonce, ptx)
    this.byHash.set(ptx.hash, ptx)
  }

  /**
   * Removes what the pool holds at ptx's sender and nonce. That may be a replacement of ptx (the
   * builder included the original meanwhile): it goes too, by its own hash, since its nonce is used.
   */
  private remove(ptx: PoolTx): void {
    this.byHash.delete(ptx.hash)
    for (const [map, count] of [
      [this.pending, 'pendingCount'],
      [this.queued, 'queuedCount'],
    ] as const) {
      const byNonce = map.get(ptx.senderHex)
      const held = byNonce?.get(ptx.nonce)
      if (held === undefined) continue
      byNonce!.delete(ptx.nonce)
      this.byHash.delete(held.hash)
      this[count]--
      return
    }
  }

  /** Moves queued transactions that the pending run now reaches into pending. */
  private promote(key: string): void {
    const q = this.queued.get(key)
    if (q === undefined) return
    let next = this.pendingNonce.get(key)!
    for (let ptx = q.get(next); ptx !== undefined; ptx = q.get(next)) {
      q.delete(next)
      this.queuedCount--
      this.insert(this.pending, key, ptx)
      this.pendingCount++
      next++
    }
    this.pendingNonce.set(key, next)
    if (q.size === 0) this.queued.delete(key)
  }

  /**
   * Executable transactions for the next block: per sender in nonce order, senders interleaved by
   * effective tip (highest first, then arrival), as geth's miner orders them.
   */
  executable(baseFee: bigint): PoolTx[] {
    const heads: PoolTx[][] = []
    for (const byNonce of this.pending.values()) {
      if (byNonce.size === 0) continue
      heads.push([...byNonce.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1)))
    }
    const tip = (p: PoolTx | undefined) => {
      if (p === undefined) return undefined
      const t = p.feeCap - baseFee
      return t < p.tipCap ? t : p.tipCap
    }
    const out: PoolTx[] = []
    const cursors = heads.map(() => 0)
    // Each head's effective tip, computed once per transaction rather than at every comparison
    // (a thousand pending transactions held the event loop for milliseconds).
    const tips = heads.map((h) => tip(h[0]))
    for (;;) {
      let best = -1
      for (let i = 0; i < heads.length; i++) {
        const t = tips[i]
        if (t === undefined) continue
        const bt = best === -1 ? undefined : tips[best]!
        if (bt === undefined || t > bt || (t === bt && heads[i]![cursors[i]!]!.arrival < heads[best]![cursors[best]!]!.arrival)) best = i
      }
      if (best === -1) return out
      out.push(heads[best]![cursors[best]!]!)
      tips[best] = tip(heads[best]![++cursors[best]!])
    }
  }

  /** After a block: drop what it included or made stale, given each touched sender's new nonce. */
  async onNewHead(included: readonly PoolTx[] | undefined, dropped: readonly PoolTx[]): Promise<void> {
    for (const ptx of dropped) this.remove(ptx)
    const senders = new Set<string>()
    for (const ptx of included ?? []) {
      this.remove(ptx)
      senders.add(ptx.senderHex)
    }
    for (const ptx of dropped) senders.add(ptx.senderHex)
    for (const key of senders) {
      const any = this.pending.get(key)?.values().next().value ?? this.queued.get(key)?.values().next().value
      if (any === undefined) {
        this.pending.delete(key)
        this.queued.delete(key)
        this.pendingNonce.delete(key)
        continue
      }
      const nonce = await this.stateNonce(any.sender)
      for (const map of [this.pending, this.queued]) {
        for (const ptx of map.get(key)?.values() ?? []) if (ptx.nonce < nonce) this.remove(ptx)
      }
      // Re-derive the pending run from the account nonce: a dropped tx leaves a gap behind it.
      const pend = this.pending.get(key)
      let next = nonce
      while (pend?.has(next)) next++
      for (const ptx of [...(pend?.values() ?? [])]) {
        if (ptx.nonce > next) {
          this.remove(ptx)
          this.insert(this.queued, key, ptx)
          this.queuedCount++
        }
      }
      this.pendingNonce.set(key, next)
      this.promote(key)
    }
  }

  /**
   * Drops one transaction (anvil_dropTransaction). The sender's later pending transactions can no
   * longer run after the gap it leaves: they go back to queued, as geth's pool demotes them.
   */
  drop(hash: string): PoolTx | undefined {
    const ptx = this.byHash.get(hash)
    if (ptx === undefined) return undefined
    const key = ptx.senderHex
    const pend = this.pending.get(key)
    const wasPending = pend?.get(ptx.nonce) === ptx
    this.remove(ptx)
    if (wasPending) {
      for (const later of [...pend!.values()]) {
        if (later.nonce < ptx.nonce) continue
        this.remove(later)
        this.insert(this.queued, key, later)
        this.queuedCount++
      }
      this.pendingNonce.set(key, ptx.nonce)
    }
    if (this.pending.get(key)?.size === 0) this.pending.delete(key)
    if (this.queued.get(key)?.size === 0) this.queued.delete(key)
    if (!this.pending.has(key) && !this.queued.has(key)) this.pendingNonce.delete(key)
    return ptx
  }

  /** Drops every transaction (the chain under them was put back by a revert or reset). */
  clear(): void {
    this.pending.clear()
    this.queued.clear()
    this.byHash.clear()
    this.pendingNonce.clear()
    this.pendingCount = 0
    this.queuedCount = 0
  }

  /** All transactions (txpool_ namespace, filters). */
  all(): { pending: PoolTx[]; queued: PoolTx[] } {
    const flat = (m: Map<string, Map<bigint, PoolTx>>) => [...m.values()].flatMap((x) => [...x.values()])
    return { pending: flat(this.pending), queued: flat(this.queued) }
  }
}

/** What a sender's pending transactions may spend: their costs' sum, and the cost of the one a new transaction replaces. */
export interface PendingSpend {
  spent: bigint
  replaced: bigint | undefined
}

/** geth Transaction.Cost: fee cap (or gas price) times gas, plus value. */
export function txCost(ptx: PoolTx): bigint {
  return ptx.feeCap * ptx.tx.gasLimit + ptx.tx.value
}

/** Whether the tx type is one the C-Chain accepts (no blob or set-code transactions). */
export function isSupportedType(tx: TypedTransaction): boolean {
  return tx.type === 0 || tx.type === 1 || tx.type === 2
}

export function hashHex(tx: TypedTransaction): string {
  return bytesToHex(tx.hash())
}

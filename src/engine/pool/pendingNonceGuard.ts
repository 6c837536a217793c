/** Senders remembered at most; past it the memory starts afresh (a guard missed is only a cache miss). */
const MAX_SENDERS = 10_000

/**
 * ethers v6 answers an identical request from its cache for 250 ms (AbstractProvider
 * cacheTimeout). Blocks here are mined at once, so a wallet's next send within 250 ms of its
 * last `pending` nonce query would reuse that stale nonce and fail, as against anvil and hardhat
 * node. Opt-in (`--pending-nonce-guard`; the client-side remedy is ethers' NonceManager): the
 * transaction is mined, only the answer waits until the client's cached nonce has expired.
 * Pre-signed streams never ask for a nonce and are never held.
 */
export class PendingNonceGuard {
  /** When each sender's `pending` nonce was last answered. */
  private readonly answeredAt = new Map<string, number>()

  /** `ms`: how long after a `pending` nonce answer a send from that sender is held (0 = off). */
  constructor(private readonly ms: number) {}

  /** A sender's `pending` nonce was just answered. */
  answered(sender: string): void {
    if (this.ms <= 0) return
    if (this.answeredAt.size > MAX_SENDERS) this.answeredAt.clear()
    this.answeredAt.set(sender, performance.now())
  }

  /** Waits out the window of the sender's last `pending` nonce answer, if one is open. */
  async hold(sender: string): Promise<void> {
    const answered = this.answeredAt.get(sender)
    if (answered === undefined) return
    this.answeredAt.delete(sender)
    const wait = answered + this.ms - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }
}

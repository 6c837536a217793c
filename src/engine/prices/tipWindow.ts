import type { BlockFees } from './blockFees.js'

const byValue = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The effective tips of the last blocks of the chain (at most `size`, the genesis never among them),
 * kept as a multiset that moves with the head: a new head adds its block's tips and drops the
 * oldest block's, so a suggestion costs the new block's transactions, not a walk of the window. An
 * evm_revert or several blocks at once move it along the parent links of what BlockFeesCache kept.
 */
export class TipWindow {
  /** The window's blocks, oldest first, consecutive numbers. */
  private blocks: BlockFees[] = []
  private readonly counts = new Map<bigint, number>()
  /** The distinct tips with a count, ascending. */
  private readonly keys: bigint[] = []
  /** Neighbours whose timestamps decrease: none under the builder's and ACP-226's rule, checked rather than assumed. */
  private disorders = 0
  private total = 0

  constructor(private readonly size: bigint) {}

  /** Moves the window to the blocks ending at `head`; `parentOf` gives a block's parent (undefined: none). */
  moveTo(head: BlockFees, parentOf: (b: BlockFees) => BlockFees | undefined): void {
    const lower = head.number > this.size ? head.number - this.size : 0n
    const last = this.blocks.at(-1)
    if (last?.hash === head.hash) return
    if (last !== undefined && last.hash === head.parentHash) this.push(head)
    else {
      // Back from the head to a block the window holds (the common ancestor), or down to the window's bottom.
      const fresh: BlockFees[] = []
      let cur: BlockFees | undefined = head
      let found = false
      while (cur !== undefined && cur.number > lower) {
        const i = this.blocks.length === 0 ? -1 : Number(cur.number - this.blocks[0]!.number)
        if (i >= 0 && i < this.blocks.length && this.blocks[i]!.hash === cur.hash) {
          while (this.blocks.length > i + 1) this.pop()
          found = true
          break
        }
        fresh.push(cur)
        cur = parentOf(cur)
      }
      if (!found) while (this.blocks.length > 0) this.pop()
      for (let i = fresh.length - 1; i >= 0; i--) this.push(fresh[i]!)
    }
    while (this.blocks.length > 0 && this.blocks[0]!.number <= lower) this.shift()
    // After a revert the bottom moves down again: the blocks below the window's first come back.
    for (let first = this.blocks[0]; first !== undefined && first.number > lower + 1n; first = this.blocks[0]) {
      const parent = parentOf(first)
      if (parent === undefined || parent.number <= lower) break
      this.unshift(parent)
    }
  }

  /**
   * The tip at `percentile` of the window's blocks from the head back to the first one older than
   * `maxAge` seconds before `now` (coreth's walk stops there), or undefined when there is none.
   */
  percentile(percentile: bigint, now: bigint, maxAge: bigint): bigint | undefined {
    const blocks = this.blocks
    const old = (b: BlockFees) => b.timestamp + maxAge < now
    // The blocks the walk from the head takes: after the last old one (found by halving while the timestamps are ordered).
    let from = 0
    if (blocks.length > 0 && (this.disorders > 0 || old(blocks[0]!))) {
      if (this.disorders === 0) {
        let lo = 0
        let hi = blocks.length
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (old(blocks[mid]!)) lo = mid + 1
          else hi = mid
        }
        from = lo
      } else {
        from = blocks.length
        while (from > 0 && !old(blocks[from - 1]!)) from--
      }
    }
    let outside = 0
    let inside = 0
    for (let i = 0; i < from; i++) outside += blocks[i]!.tips.length
    if (from === 0) inside = this.total
    else for (let i = from; i < blocks.length; i++) inside += blocks[i]!.tips.length
    if (inside === 0) return undefined
    const index = Number(((BigInt(inside) - 1n) * percentile) / 100n)
    if (from > 0 && inside <= outside) {
      // Few tips in the walk: sort them.
      const tips = blocks.slice(from).flatMap((b) => b.tips)
      return tips.sort(byValue)[index]
    }
    // The multiset less the tips of the old blocks.
    const less = new Map<bigint, number>()
    for (let i = 0; i < from; i++) for (const t of blocks[i]!.tips) less.set(t, (less.get(t) ?? 0) + 1)
    let seen = 0
    for (const key of this.keys) {
      seen += this.counts.get(key)! - (less.get(key) ?? 0)
      if (seen > index) return key
    }
    return undefined
  }

  private push(b: BlockFees): void {
    const last = this.blocks.at(-1)
    if (last !== undefined && last.timestamp > b.timestamp) this.disorders++
    this.add(b)
    this.blocks.push(b)
  }

  private pop(): void {
    const b = this.blocks.pop()!
    const last = this.blocks.at(-1)
    if (last !== undefined && last.timestamp > b.timestamp) this.disorders--
    this.remove(b)
  }

  private shift(): void {
    const b = this.blocks.shift()!
    const first = this.blocks[0]
    if (first !== undefined && b.timestamp > first.timestamp) this.disorders--
    this.remove(b)
  }

  private unshift(b: BlockFees): void {
    const first = this.blocks[0]
    if (first !== undefined && b.timestamp > first.timestamp) this.disorders++
    this.add(b)
    this.blocks.unshift(b)
  }

  private add(b: BlockFees): void {
    for (const tip of b.tips) {
      const n = this.counts.get(tip)
      if (n === undefined) {
        this.counts.set(tip, 1)
        this.keys.splice(lowerBound(this.keys, tip), 0, tip)
      } else this.counts.set(tip, n + 1)
    }
    this.total += b.tips.length
  }

  private remove(b: BlockFees): void {
    for (const tip of b.tips) {
      const n = this.counts.get(tip)!
      if (n === 1) {
        this.counts.delete(tip)
        this.keys.splice(lowerBound(this.keys, tip), 1)
      } else this.counts.set(tip, n - 1)
    }
    this.total -= b.tips.length
  }
}

function lowerBound(keys: readonly bigint[], v: bigint): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (keys[mid]! < v) lo = mid + 1
    else hi = mid
  }
  return lo
}

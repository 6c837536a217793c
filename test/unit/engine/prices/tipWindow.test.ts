import { describe, expect, it } from 'vitest'
import type { BlockFees } from '../../../../src/engine/prices/blockFees.js'
import { TipWindow } from '../../../../src/engine/prices/tipWindow.js'

/*
 * The tip window (src/engine/prices/tipWindow.ts) against the walk it replaces, coreth's: from the
 * head back over at most 40 blocks (never the genesis), stopping at the first block more than 80 s
 * older than now, the 40th percentile of every transaction's tip. Heads move as a development chain
 * moves them: one block, several at once, evm_revert to an ancestor, another branch after a revert;
 * the clock moves both ways (evm_revert restores an earlier offset).
 */

const SIZE = 40n
const PERCENTILE = 40n
const MAX_AGE = 80n

/** A seeded generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function walk(head: BlockFees, byHash: Map<string, BlockFees>, now: bigint): bigint | undefined {
  const lower = head.number > SIZE ? head.number - SIZE : 0n
  const tips: bigint[] = []
  for (let b: BlockFees | undefined = head; b !== undefined && b.number > lower; b = byHash.get(b.parentHash)) {
    if (b.timestamp + MAX_AGE < now) break
    tips.push(...b.tips)
  }
  if (tips.length === 0) return undefined
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return tips[Number(((BigInt(tips.length) - 1n) * PERCENTILE) / 100n)]
}

describe('TipWindow: the percentile of the tips coreth walks, kept as the head moves', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: one block, many, reverts, branches, clocks both ways', (seed) => {
    const rnd = random(seed)
    const unordered = seed === 6
    const byHash = new Map<string, BlockFees>()
    let made = 0
    const genesis: BlockFees = { hash: 'g', parentHash: 'none', number: 0n, timestamp: 1000n, gasUsed: 0n, tips: [], gas: [], byTip: undefined }
    byHash.set('g', genesis)
    const child = (parent: BlockFees): BlockFees => {
      const n = Math.floor(rnd() * 4) === 0 ? 0 : 1 + Math.floor(rnd() * 5)
      // Few distinct tips (as in a test suite: 0 and a handful of values), sometimes many.
      const spread = rnd() < 0.5 ? 3 : 1000
      const tips = Array.from({ length: n }, () => BigInt(Math.floor(rnd() * spread)))
      const step = BigInt(Math.floor(rnd() * (rnd() < 0.05 ? 200 : 3)))
      const timestamp = unordered && rnd() < 0.2 ? parent.timestamp - step : parent.timestamp + step
      const b = { hash: `b${made++}`, parentHash: parent.hash, number: parent.number + 1n, timestamp, gasUsed: 0n, tips, gas: [], byTip: undefined }
      byHash.set(b.hash, b)
      return b
    }
    const window = new TipWindow(SIZE)
    const history: BlockFees[] = [genesis]
    let head = genesis
    let now = 1000n
    for (let step = 0; step < 600; step++) {
      const r = rnd()
      if (r < 0.6) head = child(head)
      else if (r < 0.75) for (let k = Math.floor(rnd() * 60); k > 0; k--) head = child(head)
      else if (r < 0.9) head = history[Math.floor(rnd() * history.length)]!
      else head = child(history[Math.floor(rnd() * history.length)]!)
      history.push(head)
      now = rnd() < 0.15 ? head.timestamp - BigInt(Math.floor(rnd() * 50)) : head.timestamp + BigInt(Math.floor(rnd() * 150))
      window.moveTo(head, (b) => byHash.get(b.parentHash))
      expect(window.percentile(PERCENTILE, now, MAX_AGE), `step ${step}, head ${head.number}`).toBe(walk(head, byHash, now))
    }
  })
})

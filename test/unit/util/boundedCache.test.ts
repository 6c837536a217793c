import { describe, expect, it } from 'vitest'
import { BoundedCache } from '../../../src/util/boundedCache.js'

/* The two-generation cache under the flat state, the trie node cache and the block caches. */

describe('BoundedCache', () => {
  it('never holds more than its bound, however many keys pass through', () => {
    const cache = new BoundedCache<number, number>(100)
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i)
      expect(cache.size).toBeLessThanOrEqual(100)
    }
    expect(cache.get(9_999)).toBe(9_999)
    expect(cache.get(0)).toBeUndefined()
  })

  it('keeps what is read: a hit in the older half moves to the young one and survives the next turnover', () => {
    const cache = new BoundedCache<string, number>(10)
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i)
    // k0..k4 are now the old generation; reading k0 keeps it.
    expect(cache.get('k0')).toBe(0)
    for (let i = 5; i < 9; i++) cache.set(`k${i}`, i)
    expect(cache.get('k0')).toBe(0)
    expect(cache.get('k1')).toBeUndefined()
  })

  it('a newer value wins over an older copy; delete and clear forget both generations', () => {
    const cache = new BoundedCache<string, string>(4)
    cache.set('a', 'old')
    cache.set('b', 'x')
    cache.set('a', 'new')
    expect(cache.get('a')).toBe('new')
    cache.delete('a')
    expect(cache.has('a')).toBe(false)
    cache.clear()
    expect(cache.size).toBe(0)
  })

  it('with a weight, bounds the total weight: a few heavy entries turn the generations over as many light ones do', () => {
    const cache = new BoundedCache<number, number[]>(100, (v) => v.length)
    for (let i = 0; i < 1000; i++) {
      cache.set(i, new Array(i % 2 === 0 ? 1 : 40).fill(i))
      let total = 0
      for (let k = 0; k <= i; k++) total += cache.has(k) ? (k % 2 === 0 ? 1 : 40) : 0
      // Each generation turns over once it weighs half the bound; the last entry may overshoot it.
      expect(total).toBeLessThanOrEqual(100 + 40)
    }
    expect(cache.get(999)).toHaveLength(40)
    expect(cache.get(0)).toBeUndefined()
  })
})

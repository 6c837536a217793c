import { describe, expect, it } from 'vitest'
import { packPredicate, unpackPredicate } from '../../../src/warp/predicate.js'
import { encodePredicateResults } from '../../../src/warp/predicateResults.js'

/*
 * Predicates as avalanchego packs them into an access list (vms/evm/predicate): the bytes, a 0xff
 * delimiter even when their length is a multiple of 32, zeros to the next multiple of 32; and a
 * block's predicate results as the header's Extra carries them after the fee state.
 */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const join = (chunks: Uint8Array[]) => chunks.map(hex).join('')

describe('predicate packing', () => {
  it('appends the delimiter and pads to 32-byte keys; a length that is a multiple of 32 takes a whole chunk more', () => {
    expect(join(packPredicate(Uint8Array.of(1, 2, 3)))).toBe(`010203ff${'00'.repeat(28)}`)
    expect(packPredicate(new Uint8Array(31).fill(1))).toHaveLength(1)
    const exact = packPredicate(new Uint8Array(32).fill(1))
    expect(exact).toHaveLength(2)
    expect(hex(exact[1]!)).toBe(`ff${'00'.repeat(31)}`)
    expect(join(packPredicate(new Uint8Array(0)))).toBe(`ff${'00'.repeat(31)}`)
  })

  it('unpacks what it packs, for every length around the chunk edges', () => {
    for (const n of [0, 1, 30, 31, 32, 33, 63, 64, 65, 200]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i % 254) + 1)
      expect(unpackPredicate(packPredicate(bytes))).toEqual(bytes)
    }
  })

  it("refuses in avalanchego's order and words (vms/evm/predicate Predicate.Bytes): no keys or all zeros, a whole chunk of padding too many, no delimiter", () => {
    expect(() => unpackPredicate([])).toThrow('no delimiter found: length (0)')
    expect(() => unpackPredicate([new Uint8Array(32), new Uint8Array(32)])).toThrow('no delimiter found: length (2)')
    expect(() => unpackPredicate([...packPredicate(Uint8Array.of(1)), new Uint8Array(32)])).toThrow('predicate included excess padding: got length (2), expected length (1)')
    const noDelimiter = new Uint8Array(32)
    noDelimiter[0] = 1
    expect(() => unpackPredicate([noDelimiter])).toThrow('wrong delimiter')
  })
})

describe('block predicate results', () => {
  const WARP = '0200000000000000000000000000000000000005'
  it('is 6 bytes when empty (codec 0, no transactions)', () => {
    expect(hex(encodePredicateResults(new Map()))).toBe('000000000000')
  })

  it('holds per transaction (sorted by hash) per address (sorted) the failure bitset: empty when valid, 01 when the first failed', () => {
    const txA = 'aa'.repeat(32)
    const txB = '0b'.repeat(32)
    const results = new Map([
      [txA, new Map([[WARP, Uint8Array.of(1)]])],
      [txB, new Map([[WARP, new Uint8Array(0)]])],
    ])
    // txB sorts first: its bytes are smaller.
    expect(hex(encodePredicateResults(results))).toBe(`0000${'00000002'}${txB}00000001${WARP}00000000${txA}00000001${WARP}0000000101`)
    // One valid predicate: 60 bytes for its transaction, as avalanchego's README counts.
    expect(encodePredicateResults(new Map([[txB, new Map([[WARP, new Uint8Array(0)]])]]))).toHaveLength(6 + 60)
  })
})

import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { type RlpInput, RlpReader, rlpEncode, rlpUint } from '../../../src/util/rlp.js'

/** A deterministic generator (xorshift), so a failure names a reproducible input. */
function rng(seed: number): () => number {
  let s = seed
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 2 ** 32
  }
}

function bytes(n: number, fill: number): Uint8Array {
  return new Uint8Array(n).map((_, i) => (fill + i) & 0xff)
}

/** Random byte strings (short, medium, long) and nested lists of them, up to `depth` levels. */
function randomInput(next: () => number): (depth: number) => RlpInput {
  const make = (depth: number): RlpInput => {
    if (depth === 0 || next() < 0.4) {
      const r = next()
      return bytes(r < 0.3 ? Math.floor(next() * 2) : r < 0.8 ? Math.floor(next() * 80) : Math.floor(next() * 600), Math.floor(next() * 256))
    }
    return Array.from({ length: Math.floor(next() * 8) }, () => make(depth - 1))
  }
  return make
}

describe('rlpEncode', () => {
  it("gives @ethereumjs/rlp's bytes for strings at every length boundary", () => {
    for (const n of [0, 1, 2, 55, 56, 57, 255, 256, 257, 1023, 65535, 65536, 70000]) {
      for (const fill of [0, 0x7f, 0x80, 0xff]) {
        const b = bytes(n, fill)
        expect(bytesToHex(rlpEncode(b))).toBe(bytesToHex(RLP.encode(b)))
        expect(bytesToHex(rlpEncode([b, [b]]))).toBe(bytesToHex(RLP.encode([b, [b]])))
      }
    }
  })

  it("gives @ethereumjs/rlp's bytes for random nested lists", () => {
    const make = randomInput(rng(14))
    for (let i = 0; i < 300; i++) {
      const input = make(4)
      expect(bytesToHex(rlpEncode(input))).toBe(bytesToHex(RLP.encode(input as never)))
    }
  })
})

describe('RlpReader', () => {
  /** The input back from the reader's item bounds alone: byte strings as views, lists walked item by item. */
  function readBack(bytes: Uint8Array, at: number): RlpInput {
    const r = new RlpReader(bytes)
    r.item(at)
    if (!r.list) return bytes.subarray(r.start, r.end)
    const items: RlpInput[] = []
    for (let i = r.start, end = r.end; i < end; i = new RlpReader(bytes).item(i)) items.push(readBack(bytes, i))
    return items
  }

  it('reads back what rlpEncode wrote: strings at every length boundary, random nested lists', () => {
    const make = randomInput(rng(27))
    const inputs: RlpInput[] = [0, 1, 55, 56, 256, 70000].flatMap((n) => [bytes(n, 0), bytes(n, 0x80), [bytes(n, 0x7f)]])
    for (let i = 0; i < 300; i++) inputs.push(make(4))
    for (const input of inputs) {
      const encoded = rlpEncode(input)
      expect(new RlpReader(encoded).item(0)).toBe(encoded.length)
      expect(bytesToHex(rlpEncode(readBack(encoded, 0)))).toBe(bytesToHex(encoded))
    }
  })

  it('throws on an item that runs past the end', () => {
    const encoded = rlpEncode([bytes(60, 1)])
    expect(() => new RlpReader(encoded.subarray(0, encoded.length - 1)).item(0)).toThrow(RangeError)
    expect(() => new RlpReader(new Uint8Array()).item(0)).toThrow(RangeError)
  })
})

describe('rlpUint', () => {
  it("gives @ethereumjs/util's unpadded bytes", () => {
    const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0x1234n, 0xabcdefn, 2n ** 53n + 1n, 2n ** 64n - 1n, 10n ** 21n, 2n ** 255n, 2n ** 256n - 1n]
    for (const v of values) expect(bytesToHex(rlpUint(v))).toBe(bytesToHex(bigIntToUnpaddedBytes(v)))
  })
})

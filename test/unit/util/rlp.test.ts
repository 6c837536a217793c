import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { type RlpInput, rlpEncode, rlpUint } from '../../../src/util/rlp.js'

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
    const next = rng(14)
    const make = (depth: number): RlpInput => {
      if (depth === 0 || next() < 0.4) {
        const r = next()
        return bytes(r < 0.3 ? Math.floor(next() * 2) : r < 0.8 ? Math.floor(next() * 80) : Math.floor(next() * 600), Math.floor(next() * 256))
      }
      return Array.from({ length: Math.floor(next() * 8) }, () => make(depth - 1))
    }
    for (let i = 0; i < 300; i++) {
      const input = make(4)
      expect(bytesToHex(rlpEncode(input))).toBe(bytesToHex(RLP.encode(input as never)))
    }
  })
})

describe('rlpUint', () => {
  it("gives @ethereumjs/util's unpadded bytes", () => {
    const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0x1234n, 0xabcdefn, 2n ** 53n + 1n, 2n ** 64n - 1n, 10n ** 21n, 2n ** 255n, 2n ** 256n - 1n]
    for (const v of values) expect(bytesToHex(rlpUint(v))).toBe(bytesToHex(bigIntToUnpaddedBytes(v)))
  })
})

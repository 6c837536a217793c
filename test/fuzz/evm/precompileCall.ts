import fc from 'fast-check'
import type { Chunk, Item } from './assemble.js'
import { callGas, op } from './operands.js'

/*
 * A call of a precompile with an input laid out as it reads it (lengths, points, rounds), so the
 * call gets past the parsing into the arithmetic: random bytes would fail the same way each time.
 */

const G1 = [1n, 2n]
const word = fc.oneof(fc.constantFrom(0n, 1n, 2n, 3n, 27n, 28n), fc.bigInt(0n, (1n << 256n) - 1n))

/** MSTORE of each word from memory offset 0 on; answers the input's length. */
function words(values: bigint[]): { items: Item[]; size: number } {
  return { items: values.flatMap((v, i) => op(0x52, { push: BigInt(i * 32) }, { push: v })), size: values.length * 32 }
}

const inputs: fc.Arbitrary<{ to: number; items: Item[]; size: number }> = fc.oneof(
  // ecrecover: hash, v, r, s.
  fc.tuple(word, fc.constantFrom(27n, 28n, 29n), word, word).map(([h, v, r, s]) => ({ to: 1, ...words([h, v, r, s]) })),
  fc.tuple(fc.constantFrom(2, 3, 4), fc.array(word, { maxLength: 3 })).map(([to, ws]) => ({ to, ...words(ws) })),
  // modexp: three lengths, then base, exponent and modulus (the lengths' sum rounded up to words).
  fc
    .tuple(fc.constantFrom(0n, 1n, 2n, 32n, 33n, 1n << 40n), fc.constantFrom(0n, 1n, 3n, 32n, 64n), fc.constantFrom(0n, 1n, 32n, 1n << 40n), fc.array(word, { maxLength: 4 }))
    .map(([b, e, m, ws]) => ({ to: 5, ...words([b, e, m, ...ws]) })),
  // ecAdd, ecMul: the generator, the point at infinity, or noise.
  fc.tuple(fc.constantFrom(G1, [0n, 0n], [1n, 3n]), fc.constantFrom(G1, [0n, 0n])).map(([p, q]) => ({ to: 6, ...words([...p, ...q]) })),
  fc.tuple(fc.constantFrom(G1, [0n, 0n], [1n, 3n]), word).map(([p, k]) => ({ to: 7, ...words([...p, k]) })),
  fc.constantFrom(0, 1).map((pairs) => ({ to: 8, ...words(new Array(pairs * 6).fill(1n)) })),
  // blake2f: rounds (4 bytes), h, m, t, then the final flag at byte 212 (0 or 1; anything else fails).
  fc.tuple(fc.bigInt(0n, 24n), fc.constantFrom(0n, 1n, 2n), fc.constantFrom(213, 212)).map(([rounds, flag, size]) => {
    const { items } = words([rounds << 224n, 0n, 0n, 0n, 0n, 0n, flag << 216n])
    return { to: 9, items, size }
  }),
  fc.array(word, { minLength: 5, maxLength: 5 }).map((ws) => ({ to: 0x100, ...words(ws) })),
)

export const precompileCall: fc.Arbitrary<Chunk> = fc.tuple(inputs, callGas, fc.constantFrom(0xf1, 0xfa), fc.constantFrom(0n, 32n, 64n)).map(([{ to, items, size }, gas, code, outLength]) => {
  const args: Item[] = code === 0xf1 ? [{ push: 0n }] : []
  return [...items, ...op(code, gas, { push: BigInt(to) }, ...args, { push: 0n }, { push: BigInt(size) }, { push: 0n }, { push: outLength })]
})

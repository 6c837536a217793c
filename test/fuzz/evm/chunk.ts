import fc from 'fast-check'
import type { Chunk, Item } from './assemble.js'
import { address, callee, callGas, callValue, length, offset, op, slotKey, storedValue, word } from './operands.js'
import { precompileCall } from './precompileCall.js'

/*
 * One chunk of generated code: an opcode with its operands pushed before it, so most chunks run
 * instead of failing on an empty stack; a few do not (stack shuffles, bad jumps, undefined opcodes).
 */

const BINARY = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d]
const NO_OPERAND = [0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x58, 0x59, 0x5a]
const UNDEFINED = [0x0c, 0x1e, 0x21, 0x2f, 0x4b, 0x4f, 0xa5, 0xb0, 0xef, 0xf6, 0xfb, 0xfc]

const arithmetic: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...BINARY), word, word).map(([code, a, b]) => op(code, a, b)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(0x08, 0x09), word, word, word).map(([code, a, b, n]) => op(code, a, b, n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(0x15, 0x19), word).map(([code, a]) => op(code, a)) },
)

const environment: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NO_OPERAND).map((code) => [code]) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(0x31, 0x3b, 0x3f), address).map(([code, a]) => op(code, a)) },
  { weight: 1, arbitrary: fc.tuple(offset).map(([o]) => op(0x35, o)) },
  // BLOCKHASH around the block's number (the case's block is 1000): in, at and past the 256-block window.
  { weight: 1, arbitrary: fc.constantFrom(0n, 743n, 744n, 900n, 999n, 1000n, 1001n).map((n) => op(0x40, { push: n })) },
  { weight: 1, arbitrary: fc.bigInt(0n, 2n).map((i) => op(0x49, { push: i })) },
)

const memory: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(0x52, 0x53), offset, word).map(([code, o, v]) => op(code, o, v)) },
  { weight: 2, arbitrary: offset.map((o) => op(0x51, o)) },
  { weight: 1, arbitrary: fc.tuple(offset, offset, length).map(([d, s, n]) => op(0x5e, d, s, n)) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(0x37, 0x39, 0x3e), offset, offset, length).map(([code, d, s, n]) => op(code, d, s, n)) },
  { weight: 1, arbitrary: fc.tuple(address, offset, offset, length).map(([a, d, s, n]) => op(0x3c, a, d, s, n)) },
  { weight: 1, arbitrary: fc.tuple(offset, length).map(([o, n]) => op(0x20, o, n)) },
)

const storage: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(0x55, 0x5d), slotKey, storedValue).map(([code, k, v]) => op(code, k, v)) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(0x54, 0x5c), slotKey).map(([code, k]) => op(code, k)) },
)

const log: fc.Arbitrary<Chunk> = fc.tuple(fc.nat(4), offset, length, fc.array(word, { minLength: 4, maxLength: 4 })).map(([n, o, len, topics]) => op(0xa0 + n, o, len, ...topics.slice(0, n)))

const call: fc.Arbitrary<Chunk> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(0xf1, 0xf1, 0xf2), callGas, callee, callValue, offset, length, offset, length).map(([code, g, a, v, io, il, oo, ol]) => op(code, g, a, v, io, il, oo, ol)),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(0xf4, 0xfa), callGas, callee, offset, length, offset, length).map(([code, g, a, io, il, oo, ol]) => op(code, g, a, io, il, oo, ol)) },
  { weight: 1, arbitrary: precompileCall },
)

const jump: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 30, arbitrary: fc.tuple(fc.integer({ min: 1, max: 6 }), word).map(([k, cond]): Chunk => [cond, { jumpAhead: k }, 0x57]) },
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 6 }).map((k): Chunk => [{ jumpAhead: k }, 0x56]) },
  // Not a JUMPDEST, most likely: a PUSH's data, the middle of a chunk.
  { weight: 1, arbitrary: fc.tuple(fc.bigInt(0n, 300n), fc.constantFrom(0x56, 0x57)).map(([to, code]): Chunk => (code === 0x56 ? [{ push: to }, code] : [{ push: 1n }, { push: to }, code])) },
)

/** A DUP or SWAP of what the chunk pushed, or (rarely) of whatever lies below: DUP16 and SWAP16 may underflow. */
const stack: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.constantFrom(0x80, 0x90), fc.nat(3), word, word, word, word).map(([base, n, ...words]): Chunk => [...words, base + n]) },
  { weight: 2, arbitrary: fc.tuple(word, fc.constant<Chunk>([0x50])).map(([w, pop]): Chunk => [w, ...pop]) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(0x80, 0x90, 0x50), fc.nat(15)).map(([base, n]): Chunk => [base === 0x50 ? base : base + n]) },
)

/** Ends the frame early (or halts it in error). */
export const terminator: fc.Arbitrary<Chunk> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(offset, length).map(([o, n]) => op(0xf3, o, n)) },
  { weight: 4, arbitrary: fc.constant<Chunk>([0x00]) },
  { weight: 3, arbitrary: fc.tuple(offset, length).map(([o, n]) => op(0xfd, o, n)) },
  { weight: 2, arbitrary: address.map((a) => op(0xff, a)) },
  { weight: 1, arbitrary: fc.constant<Chunk>([0xfe]) },
  { weight: 1, arbitrary: fc.constantFrom(...UNDEFINED).map((code) => [code]) },
)

/** A chunk of code; `create` (a chunk of CREATE or CREATE2) only where the code may create. */
export function chunk(create?: fc.Arbitrary<Chunk>): fc.Arbitrary<Chunk> {
  const common: fc.WeightedArbitrary<Chunk>[] = [
    { weight: 24, arbitrary: arithmetic },
    { weight: 12, arbitrary: environment },
    { weight: 16, arbitrary: memory },
    { weight: 16, arbitrary: storage },
    { weight: 6, arbitrary: log },
    { weight: 14, arbitrary: call },
    { weight: 8, arbitrary: jump },
    { weight: 4, arbitrary: stack },
    { weight: 1, arbitrary: terminator },
  ]
  return fc.oneof(...common, ...(create === undefined ? [] : [{ weight: 6, arbitrary: create }]))
}

/** Pushes `bytes` into memory from `at` on, a 32-byte word at a time (PUSH32, MSTORE). */
export function storeBytes(bytes: Uint8Array, at = 0): Item[] {
  const out: Item[] = []
  for (let i = 0; i < bytes.length; i += 32) {
    let value = 0n
    for (let j = 0; j < 32; j++) value = (value << 8n) | BigInt(bytes[i + j] ?? 0)
    out.push(...op(0x52, { push: BigInt(at + i) }, { push: value, wide: true }))
  }
  return out
}

import fc from 'fast-check'
import { ACTORS, ADDRESSES } from './actors.js'
import type { Item } from './assemble.js'

/*
 * The operands generated code pushes: values where the EVM's edges are (zero, one, 31/32, the sign
 * bit, all ones), offsets mostly small (memory stays cheap) and now and then huge (out of gas, or
 * past the 64 bits ethereumjs and geth cap offsets at), a handful of storage keys so writes meet reads.
 */

const MAX = (1n << 256n) - 1n

/** Opcodes that push a value from the context, used as operands too. */
const CONTEXT_VALUES = [0x30, 0x33, 0x34, 0x36, 0x3d, 0x59, 0x5a, 0x47] as const

function pushed(values: fc.Arbitrary<bigint>): fc.Arbitrary<Item> {
  return fc.tuple(values, fc.nat(15)).map(([push, r]): Item => (r === 15 ? { push, wide: true } : { push }))
}

export const word: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: pushed(fc.bigInt(0n, 40n)) },
  { weight: 3, arbitrary: pushed(fc.constantFrom(0n, 1n, 2n, 31n, 32n, 255n, 256n, (1n << 64n) - 1n, (1n << 255n) - 1n, 1n << 255n, MAX - 1n, MAX)) },
  { weight: 2, arbitrary: pushed(fc.bigInt(0n, MAX)) },
  { weight: 1, arbitrary: fc.constantFrom(...CONTEXT_VALUES) },
)

export const offset: fc.Arbitrary<Item> = fc.oneof(
  { weight: 60, arbitrary: pushed(fc.bigInt(0n, 160n)) },
  { weight: 1, arbitrary: pushed(fc.constantFrom(1n << 16n, 1n << 20n, (1n << 32n) - 1n, 1n << 32n, (1n << 64n) - 1n, 1n << 64n, MAX)) },
)

export const length: fc.Arbitrary<Item> = fc.oneof(
  { weight: 40, arbitrary: pushed(fc.bigInt(0n, 96n)) },
  { weight: 1, arbitrary: pushed(fc.constantFrom(1000n, 1n << 16n, 1n << 32n, (1n << 64n) - 1n, MAX)) },
  { weight: 2, arbitrary: fc.constantFrom(0x3d, 0x36, 0x59) },
)

export const slotKey: fc.Arbitrary<Item> = fc.oneof({ weight: 8, arbitrary: pushed(fc.bigInt(0n, 3n)) }, { weight: 1, arbitrary: pushed(fc.bigInt(0n, MAX)) })

/** What SSTORE and TSTORE write: often zero or a pre-state value (1..5), so clears, restores and their refunds happen. */
export const storedValue: fc.Arbitrary<Item> = fc.oneof({ weight: 3, arbitrary: pushed(fc.constant(0n)) }, { weight: 3, arbitrary: pushed(fc.bigInt(1n, 5n)) }, { weight: 2, arbitrary: word })

export const address: fc.Arbitrary<Item> = fc.oneof(
  { weight: 6, arbitrary: pushed(fc.constantFrom(...ADDRESSES.map((a) => BigInt(`0x${a}`)))) },
  { weight: 1, arbitrary: fc.constantFrom(0x30, 0x33, 0x32) },
  // The high bytes of an address word are ignored: a dirty one names the same account.
  { weight: 1, arbitrary: fc.constantFrom(...ADDRESSES.slice(0, 4)).map((a): Item => ({ push: BigInt(`0x${a}`) | (0xdeadn << 200n) })) },
)

/** What a call names: mostly the accounts with code, so calls nest. */
export const callee: fc.Arbitrary<Item> = fc.oneof(
  { weight: 8, arbitrary: pushed(fc.constantFrom(...ACTORS.contracts.map((a) => BigInt(`0x${a}`)))) },
  { weight: 1, arbitrary: fc.constant(0x30) },
  { weight: 4, arbitrary: address },
)

export const callGas: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: pushed(fc.constantFrom(0n, 1n, 100n, 2300n, 5000n, 30000n, 100000n, MAX)) },
  // All that is left (63/64 of it): calls nest deep only through this.
  { weight: 1, arbitrary: fc.constant(0x5a) },
)

export const callValue: fc.Arbitrary<Item> = fc.oneof(
  { weight: 12, arbitrary: pushed(fc.constant(0n)) },
  { weight: 6, arbitrary: pushed(fc.bigInt(1n, 1000n)) },
  { weight: 1, arbitrary: pushed(fc.bigInt(0n, MAX)) },
)

/** `code` with its operands, the top of the stack first (as the opcode's table lists them): pushed last-first. */
export function op(code: number, ...operands: Item[]): Item[] {
  return [...operands.reverse(), code]
}

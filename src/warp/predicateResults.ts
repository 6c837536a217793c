import { CodecWriter } from '../avalanche/codec.js'
import { compareBytes } from '../avalanche/compare.js'

/*
 * A block's predicate results (avalanchego vms/evm/predicate/results.go), appended to the header's
 * Extra after the fee state: codec v0 of map[txHash] map[address] bitset, each map a u32 count
 * then its entries sorted by their encoded keys. A transaction without predicates has no entry; a
 * valid predicate an empty bitset; bit i set = the transaction's i-th predicate of that address failed.
 */

/** Per transaction hash (32 bytes), per predicater address (20 bytes), the failure bitset. */
export type BlockPredicateResults = ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'))
}

/** The results' bytes (keys: hex of the tx hash and of the address); an empty map is 6 bytes. */
export function encodePredicateResults(results: BlockPredicateResults): Uint8Array {
  const w = new CodecWriter(Number.MAX_SAFE_INTEGER).u16(0)
  const txs = [...results].map(([tx, byAddress]) => ({ key: hexBytes(tx), byAddress })).sort((a, b) => compareBytes(a.key, b.key))
  w.u32(txs.length)
  for (const { key, byAddress } of txs) {
    w.fixed(key, 32)
    const entries = [...byAddress].map(([address, bits]) => ({ key: hexBytes(address), bits })).sort((a, b) => compareBytes(a.key, b.key))
    w.u32(entries.length)
    for (const e of entries) w.fixed(e.key, 20).bytesU32(e.bits)
  }
  return w.finish()
}

import { RLP } from '@ethereumjs/rlp'
import { Wallet, getBytes } from 'ethers'
import { describe, expect, it } from 'vitest'
import { gethTxDecodeError } from '../../../../src/engine/pool/gethTxDecode.js'

/*
 * geth's texts for raw transactions its decoder refuses (core/types/transaction.go UnmarshalBinary,
 * rlp/decode.go), for the structures the tests build with @ethereumjs/rlp.
 */

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'))
const b = (...bytes: number[]) => Uint8Array.from(bytes)
const rlp = (items: unknown) => RLP.encode(items as never)
const typed = (type: number, items: unknown) => Uint8Array.from([type, ...rlp(items)])
const ADDR = new Uint8Array(20).fill(0x11)
const ONE = b(1)
const EMPTY = new Uint8Array()
/** A legacy transaction's nine fields with `at` replaced. */
const legacy = (at = -1, value: unknown = undefined) => {
  const f: unknown[] = [ONE, ONE, hex('5208'), ADDR, EMPTY, EMPTY, b(0x1b), ONE, ONE]
  if (at >= 0) f[at] = value
  return f
}
/** A dynamic-fee transaction's twelve fields with `at` replaced. */
const dynamic = (at = -1, value: unknown = undefined) => {
  const f: unknown[] = [hex('a868'), ONE, ONE, ONE, hex('5208'), ADDR, EMPTY, EMPTY, [], ONE, ONE, ONE]
  if (at >= 0) f[at] = value
  return f
}

describe("gethTxDecodeError: geth's decoder errors", () => {
  it('accepts what geth decodes: signed transactions of each type, a creation (empty To)', async () => {
    const w = Wallet.createRandom()
    const base = { chainId: 43112n, nonce: 0, gasLimit: 21000n, to: ('0x' + '11'.repeat(20)) as string | undefined, value: 1n }
    for (const tx of [
      { ...base, type: 0, gasPrice: 1n },
      { ...base, type: 1, gasPrice: 1n, accessList: [{ address: base.to!, storageKeys: ['0x' + '00'.repeat(32)] }] },
      { ...base, type: 2, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n },
      { ...base, type: 2, to: undefined, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, data: '0x6000' },
    ]) {
      expect(gethTxDecodeError(getBytes(await w.signTransaction(tx)))).toBeUndefined()
    }
  })

  it('envelopes: too short, unknown types', () => {
    expect(gethTxDecodeError(EMPTY)).toBe('typed transaction too short')
    expect(gethTxDecodeError(b(2))).toBe('typed transaction too short')
    expect(gethTxDecodeError(b(5, 0xc0))).toBe('transaction type not supported')
    expect(gethTxDecodeError(b(0, 0xc0))).toBe('transaction type not supported')
  })

  it('stream errors: sizes past the input, non-canonical sizes, trailing bytes', () => {
    expect(gethTxDecodeError(hex('f86c'))).toBe('rlp: value size exceeds available input length')
    expect(gethTxDecodeError(hex('f8'))).toBe('rlp: value size exceeds available input length')
    expect(gethTxDecodeError(hex('02f86c01'))).toBe('rlp: value size exceeds available input length')
    expect(gethTxDecodeError(hex('f800'))).toBe('rlp: non-canonical size information for types.LegacyTx')
    expect(gethTxDecodeError(Uint8Array.from([...rlp(legacy()), 0]))).toBe('rlp: input contains more than one value')
    // An element longer than its list.
    expect(gethTxDecodeError(hex('c28201ff'))).toBe('rlp: element is larger than containing list')
  })

  it('shapes: not a list, too few or too many fields', () => {
    expect(gethTxDecodeError(b(0x80))).toBe('rlp: expected input list for types.LegacyTx')
    expect(gethTxDecodeError(b(2, 1))).toBe('rlp: expected input list for types.DynamicFeeTx')
    expect(gethTxDecodeError(b(1, 0x80))).toBe('rlp: expected input list for types.AccessListTx')
    expect(gethTxDecodeError(b(0xc0))).toBe('rlp: too few elements for types.LegacyTx')
    expect(gethTxDecodeError(b(2, 0xc0))).toBe('rlp: too few elements for types.DynamicFeeTx')
    expect(gethTxDecodeError(rlp([...legacy(), ONE]))).toBe('rlp: input list has too many elements for types.LegacyTx')
  })

  it('fields, with the "decoding into" path', () => {
    expect(gethTxDecodeError(rlp(legacy(0, b(0))))).toBe('rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce')
    expect(gethTxDecodeError(rlp(legacy(0, new Uint8Array(9).fill(1))))).toBe('rlp: input string too long for uint64, decoding into (types.LegacyTx).Nonce')
    expect(gethTxDecodeError(rlp(legacy(2, [])))).toBe('rlp: expected input string or byte for uint64, decoding into (types.LegacyTx).Gas')
    expect(gethTxDecodeError(rlp(legacy(1, b(0, 1))))).toBe('rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.LegacyTx).GasPrice')
    // Value written 0x81 0x05: a single byte under 0x80 must be its own encoding.
    const value = Buffer.from('0101825208' + '94' + '11'.repeat(20) + '8105' + '80' + '1b0101', 'hex')
    expect(gethTxDecodeError(Uint8Array.from([0xc0 + value.length, ...value]))).toBe('rlp: non-canonical size information for *big.Int, decoding into (types.LegacyTx).Value')
    expect(gethTxDecodeError(rlp(legacy(3, new Uint8Array(19))))).toBe('rlp: input string too short for common.Address, decoding into (types.LegacyTx).To')
    expect(gethTxDecodeError(rlp(legacy(3, new Uint8Array(21))))).toBe('rlp: input string too long for common.Address, decoding into (types.LegacyTx).To')
    expect(gethTxDecodeError(typed(2, dynamic(5, [])))).toBe('rlp: wrong kind of empty value (got List, want String) for *common.Address, decoding into (types.DynamicFeeTx).To')
    expect(gethTxDecodeError(typed(2, dynamic(7, [ONE])))).toBe('rlp: expected input string or byte for []uint8, decoding into (types.DynamicFeeTx).Data')
    expect(gethTxDecodeError(typed(2, dynamic(8, ONE)))).toBe('rlp: expected input list for types.AccessList, decoding into (types.DynamicFeeTx).AccessList')
    expect(gethTxDecodeError(typed(2, dynamic(8, [[ADDR, [new Uint8Array(32), new Uint8Array(31)]]])))).toBe(
      'rlp: input string too short for common.Hash, decoding into (types.DynamicFeeTx).AccessList[0].StorageKeys[1]',
    )
    expect(gethTxDecodeError(typed(1, [hex('a868'), ONE, ONE, hex('5208'), ADDR, EMPTY, EMPTY, [[ADDR]], ONE, ONE, ONE]))).toBe(
      'rlp: too few elements for types.AccessTuple, decoding into (types.AccessListTx).AccessList[0]',
    )
  })
})

/** Coin selection of the P-Chain keystore wallet under the dynamic fee. */
import { describe, expect, it } from 'vitest'
import { PVM_TYPE_ID } from '../../../src/pchain/codec.js'
import { calculateFee } from '../../../src/pchain/fees.js'
import type { PVMTransferableInput, PVMTransferableOutput, PVMUnsignedTx } from '../../../src/pchain/tx.js'
import { fund, type Spendable } from '../../../src/pchain/wallet.js'

const AVAX = new Uint8Array(32).fill(0xaa)
const CHANGE = new Uint8Array(20).fill(7)
const candidate = (tx: number, amount: bigint): Spendable => ({
  utxo: { utxoID: { txID: new Uint8Array(32).fill(tx), outputIndex: 0 }, assetID: AVAX, out: { amount, locktime: 0n, threshold: 1, addrs: [new Uint8Array(20).fill(1)] } },
  sigIndices: [0],
  signers: [new Uint8Array(32).fill(tx)],
})
const build = (ins: PVMTransferableInput[], outs: PVMTransferableOutput[]): PVMUnsignedTx => ({
  typeID: PVM_TYPE_ID.ExportTx,
  networkID: 12345,
  blockchainID: new Uint8Array(32),
  memo: new Uint8Array(0),
  outs,
  ins,
  destinationChain: new Uint8Array(32).fill(9),
  exportedOutputs: [{ assetID: AVAX, out: { amount: 10n, locktime: 0n, threshold: 1, addrs: [CHANGE] } }],
})

describe('fund', () => {
  it('takes candidates in order until they cover the amount, the change back to the change address', () => {
    const { utx, localSigners } = fund([candidate(9, 5n), candidate(3, 7n), candidate(1, 100n)], 10n, 0n, CHANGE, AVAX, 0n, build)
    expect(utx.ins.map((i) => i.utxoID.txID[0])).toEqual([3, 9])
    expect(localSigners).toEqual([[new Uint8Array(32).fill(3)], [new Uint8Array(32).fill(9)]])
    expect(utx.outs).toEqual([{ assetID: AVAX, out: { amount: 2n, locktime: 0n, threshold: 1, addrs: [CHANGE] } }])
  })

  it('an exact amount has no change output', () => {
    expect(fund([candidate(1, 4n), candidate(2, 6n)], 10n, 0n, CHANGE, AVAX, 0n, build).utx.outs).toEqual([])
  })

  it('pays the fee of the tx it builds: amount + fee(tx) is consumed', () => {
    const price = 10n
    const { utx } = fund([candidate(1, 100_000n), candidate(2, 100_000n)], 10n, 0n, CHANGE, AVAX, price, build)
    const consumed = utx.ins.reduce((s, i) => s + i.in.amount, 0n)
    const change = utx.outs.reduce((s, o) => s + o.out.amount, 0n)
    expect(consumed - change - 10n).toBe(calculateFee(utx, price))
  })

  it('counts `extraIn` (the imported amount) as consumed, and reports the shortfall without it', () => {
    expect(fund([], 10n, 10n, CHANGE, AVAX, 0n, build).utx.ins).toEqual([])
    expect(() => fund([candidate(1, 4n)], 100n, 0n, CHANGE, AVAX, 0n, build)).toThrow(
      "couldn't create tx: couldn't generate tx inputs/outputs: provided keys have balance (unlocked, locked) (4, 0) but need (100, 0)",
    )
  })
})

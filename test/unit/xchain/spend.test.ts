/** Coin selection of the X-Chain keystore wallet (avalanchego: vms/avm/utxo/spender.go Spend, SpendAll). */
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import type { UTXO } from '../../../src/avalanche/types.js'
import { assetKey, changeOutputs, outputsTo, spend, spendAll } from '../../../src/xchain/spend.js'

const AVAX = new Uint8Array(32).fill(0xaa)
const OTHER = new Uint8Array(32).fill(0xbb)
const addr = (n: number): Uint8Array => new Uint8Array(20).fill(n)
const key = (n: number) => ({ privateKey: new Uint8Array(32).fill(n), shortAddress: addr(n) })

function utxo(tx: number, amount: bigint, opts: { asset?: Uint8Array; owner?: number; locktime?: bigint } = {}): UTXO {
  return {
    utxoID: { txID: new Uint8Array(32).fill(tx), outputIndex: 0 },
    assetID: opts.asset ?? AVAX,
    out: { amount, locktime: opts.locktime ?? 0n, threshold: 1, addrs: [addr(opts.owner ?? 1)] },
  }
}
const need = (...pairs: [Uint8Array, bigint][]) => new Map(pairs.map(([a, n]) => [assetKey(a), n]))

describe('spend', () => {
  it('takes UTXOs in order until each asset is covered; the inputs come out sorted by UTXO ID', () => {
    const s = spend([utxo(9, 5n), utxo(3, 7n), utxo(1, 100n)], [key(1)], need([AVAX, 10n]), 0n)
    expect(s.ins.map((i) => i.utxoID.txID[0])).toEqual([3, 9])
    expect(s.ins.map((i) => i.in.amount)).toEqual([7n, 5n])
    expect(s.signers).toEqual([[key(1).privateKey], [key(1).privateKey]])
    expect(s.spent.get(assetKey(AVAX))).toBe(12n)
  })

  it('skips UTXOs of other owners, time-locked ones and assets already covered', () => {
    const utxos = [utxo(1, 5n, { owner: 2 }), utxo(2, 5n, { locktime: 50n }), utxo(3, 4n), utxo(4, 9n, { asset: OTHER }), utxo(5, 1n, { asset: OTHER })]
    const s = spend(utxos, [key(1)], need([AVAX, 4n], [OTHER, 2n]), 10n)
    expect(s.ins.map((i) => i.utxoID.txID[0])).toEqual([3, 4])
  })

  it('says how much of which asset is missing', () => {
    expect(() => spend([utxo(1, 5n)], [key(1)], need([AVAX, 6n]), 0n)).toThrow(`want to spend 6 of asset ${cb58Encode(AVAX)} but only have 5`)
  })

  it('refuses a total over uint64', () => {
    const max = 0xffffffffffffffffn
    expect(() => spend([utxo(1, max), utxo(2, 1n)], [key(1)], need([AVAX, max]), 0n)).not.toThrow()
    expect(() => spendAll([utxo(1, max), utxo(2, 1n)], [key(1)], 0n)).toThrow('spent amount overflows uint64')
  })
})

describe('spendAll, outputs and change', () => {
  it('spendAll takes every UTXO the keys can spend, totalled per asset', () => {
    const s = spendAll([utxo(2, 5n), utxo(1, 7n, { asset: OTHER }), utxo(3, 1n, { owner: 2 })], [key(1)], 0n)
    expect(s.ins.map((i) => i.utxoID.txID[0])).toEqual([1, 2])
    expect([...s.spent]).toEqual([
      [assetKey(AVAX), 5n],
      [assetKey(OTHER), 7n],
    ])
  })

  it('change is what was spent beyond the need, per asset; nothing for an exact spend', () => {
    const outs = changeOutputs(need([AVAX, 12n], [OTHER, 3n]), need([AVAX, 10n], [OTHER, 3n]), addr(7))
    expect(outs).toEqual([{ assetID: AVAX, out: { amount: 2n, locktime: 0n, threshold: 1, addrs: [addr(7)] } }])
    expect(outputsTo(need([AVAX, 0n]), addr(7))).toEqual([])
  })
})

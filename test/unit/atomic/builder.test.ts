/**
 * The keystore methods' tx builders (coreth v0.14.0 NewExportTx / getSpendableAVAXWithFee / NewImportTx,
 * plugin/evm/service.go): key order, marginal-fee skipping, nonces, sorting, time locks, multisig indices,
 * fees with the change output, and that what they sign passes semantic verification.
 */
import { describe, expect, it } from 'vitest'
import { decodeUTXO, encodeUTXO, utxoInputID } from '../../../src/avalanche/avax.js'
import { type SigningKey, buildExportTx, buildImportTx } from '../../../src/atomic/builder.js'
import { TYPE_ID } from '../../../src/avalanche/codec.js'
import { AtomicError } from '../../../src/atomic/errors.js'
import { EVM_OUTPUT_GAS, X2C_RATE, calculateDynamicFee, gasUsed } from '../../../src/atomic/fees.js'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { semanticVerify } from '../../../src/atomic/semantic.js'
import { ethAddress, publicKeyOf, shortAddress } from '../../../src/avalanche/signature.js'
import type { AtomicTx } from '../../../src/atomic/tx.js'
import type { VerifyContext } from '../../../src/atomic/verify.js'
import { compareBytes } from '../../../src/avalanche/compare.js'

const local = NETWORKS.local
const ctx: VerifyContext = { networkID: local.networkID, chainID: local.cChainID, xChainID: local.xChainID, avaxAssetID: local.avaxAssetID }
const BASE_FEE = 25_000_000_000n

function key(n: number): SigningKey {
  const privateKey = new Uint8Array(32).fill(n)
  const pub = publicKeyOf(privateKey)
  return { privateKey, ethAddress: ethAddress(pub), shortAddress: shortAddress(pub) }
}

function utxo(amount: bigint, addrs: Uint8Array[], opts: { threshold?: number; locktime?: bigint; index?: number; asset?: Uint8Array } = {}): Uint8Array {
  return encodeUTXO({
    utxoID: { txID: new Uint8Array(32).fill(opts.index ?? 1), outputIndex: opts.index ?? 0 },
    assetID: opts.asset ?? local.avaxAssetID,
    out: { amount, locktime: opts.locktime ?? 0n, threshold: opts.threshold ?? 1, addrs: [...addrs].sort(compareBytes) },
  })
}

function verify(tx: AtomicTx, utxos: Uint8Array[] = []): void {
  semanticVerify(tx, {
    ctx,
    baseFee: BASE_FEE,
    nowUnix: 1000n,
    fetchUTXOs: (_chain, ids) => ids.map((id) => utxos.find((u) => compareBytes(id, utxoIDOf(u)) === 0)),
  })
}

/** InputID of a test UTXO (its shared-memory key). */
const utxoIDOf = (bytes: Uint8Array) => utxoInputID(decodeUTXO(bytes).utxoID)

describe('buildExportTx', () => {
  it('spends keys in stored order, skips one whose balance does not cover its marginal fee, sorts inputs, state nonces', async () => {
    const keys = [key(1), key(2), key(3)]
    const balances = new Map(
      [
        [keys[0]!, 10n],
        [keys[1]!, 600_000n],
        [keys[2]!, 5_000_000n],
      ].map(([k, nAVAX]) => [Buffer.from((k as SigningKey).ethAddress).toString('hex'), (nAVAX as bigint) * X2C_RATE]),
    )
    const state = {
      balance: async (a: Uint8Array) => balances.get(Buffer.from(a).toString('hex')) ?? 0n,
      nonce: async (a: Uint8Array) => BigInt(a[0]!),
    }
    const amount = 1_000_000n
    const tx = await buildExportTx({ ctx, state, assetID: local.avaxAssetID, amount, destinationChain: local.xChainID, to: keys[0]!.shortAddress, baseFee: BASE_FEE, keys })
    const utx = tx.tx.unsignedTx
    if (utx.typeID !== TYPE_ID.ExportTx) throw new Error('export expected')
    expect(utx.ins.map((i) => Buffer.from(i.address).toString('hex')).sort()).toEqual([keys[1]!, keys[2]!].map((k) => Buffer.from(k.ethAddress).toString('hex')).sort())
    expect(utx.ins.map((i) => i.nonce)).toEqual(utx.ins.map((i) => BigInt(i.address[0]!)))
    expect(compareBytes(utx.ins[0]!.address, utx.ins[1]!.address)).toBeLessThan(0)
    const spent = utx.ins.reduce((s, i) => s + i.amount, 0n)
    expect(spent - amount).toBe(calculateDynamicFee(gasUsed(utx, tx.unsignedBytes.length), BASE_FEE))
    verify(tx)
  })

  it('insufficient funds and non-AVAX assets', async () => {
    const state = { balance: async () => 10n * X2C_RATE, nonce: async () => 0n }
    const p = { ctx, state, amount: 1000n, destinationChain: local.xChainID, to: key(1).shortAddress, baseFee: BASE_FEE, keys: [key(1)] }
    await expect(buildExportTx({ ...p, assetID: local.avaxAssetID })).rejects.toThrow(new AtomicError("couldn't generate tx inputs/signers: insufficient funds"))
    await expect(buildExportTx({ ...p, assetID: new Uint8Array(32).fill(7) })).rejects.toThrow("couldn't generate tx inputs/signers: insufficient funds")
  })
})

describe('buildImportTx', () => {
  it('spends what the keys can spend now (time locks and foreign UTXOs skipped), multisig indices, fee with the change output', () => {
    const [a, b, c] = [key(1), key(2), key(3)]
    const utxos = [
      utxo(300_000_000n, [a.shortAddress], { index: 1 }),
      utxo(200_000_000n, [b.shortAddress, c.shortAddress], { threshold: 2, index: 2 }),
      utxo(100_000_000n, [a.shortAddress], { locktime: 5000n, index: 3 }),
      utxo(100_000_000n, [c.shortAddress], { index: 4 }),
    ]
    const to = a.ethAddress
    const tx = buildImportTx({ ctx, sourceChain: local.xChainID, to, baseFee: BASE_FEE, keys: [a, b, key(4)], utxos, nowUnix: 1000n })
    const utx = tx.tx.unsignedTx
    if (utx.typeID !== TYPE_ID.ImportTx) throw new Error('import expected')
    expect(utx.importedInputs.map((i) => i.utxoID.outputIndex)).toEqual([1])
    const tx2 = buildImportTx({ ctx, sourceChain: local.xChainID, to, baseFee: BASE_FEE, keys: [a, b, c], utxos, nowUnix: 1000n })
    const utx2 = tx2.tx.unsignedTx
    if (utx2.typeID !== TYPE_ID.ImportTx) throw new Error('import expected')
    expect(utx2.importedInputs.map((i) => i.utxoID.outputIndex)).toEqual([1, 2, 4])
    expect(utx2.importedInputs[1]!.in.sigIndices).toEqual([0, 1])
    const gasWithout = gasUsed({ ...utx2, outs: [] }, tx2.unsignedBytes.length - 60)
    expect(utx2.outs).toEqual([{ address: to, amount: 600_000_000n - calculateDynamicFee(gasWithout + EVM_OUTPUT_GAS, BASE_FEE), assetID: local.avaxAssetID }])
    verify(tx2, utxos)
  })

  it('no UTXOs, or too little for the fee: insufficient AVAX funds to pay transaction fee', () => {
    const p = { ctx, sourceChain: local.xChainID, to: key(1).ethAddress, baseFee: BASE_FEE, keys: [key(1)], nowUnix: 1000n }
    expect(() => buildImportTx({ ...p, utxos: [] })).toThrow('insufficient AVAX funds to pay transaction fee')
    expect(() => buildImportTx({ ...p, utxos: [utxo(10n, [key(1).shortAddress])] })).toThrow('insufficient AVAX funds to pay transaction fee')
  })
})

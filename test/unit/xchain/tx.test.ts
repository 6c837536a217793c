/**
 * X-Chain (AVM) codec against AvalancheJS 5.2.0: txs built by `avm.newBaseTx` / `newImportTx` / `newExportTx` and
 * signed by `addTxSignatures` decode and re-encode byte for byte, give AvalancheJS's unsigned bytes, the txID,
 * the signers, and burn exactly the local X fee; our encoder's output parses back in AvalancheJS.
 */
import { describe, expect, it } from 'vitest'
import { TransferableOutput, addTxSignatures, avaxSerial, avm, utils, type UnsignedTx } from '@avalabs/avalanchejs'
import { encodeUTXO } from '../../../src/avalanche/avax.js'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import type { UTXO } from '../../../src/avalanche/types.js'
import { AVM_TYPE_ID } from '../../../src/xchain/codec.js'
import { X_TX_FEE, avmBurned, verifyAVMFlow } from '../../../src/xchain/fees.js'
import { localXGenesisUTXOs } from '../../../src/xchain/genesis.js'
import { avmCredentialSigners, avmExportedUTXOs, avmProducedUTXOs, avmSpentInputs, decodeAVMUnsignedTx, encodeAVMTx, encodeAVMUnsignedTx, parseAVMTx, signAVMTx } from '../../../src/xchain/tx.js'
import { AVAX, C_ID, EWOQ, EWOQ_KEY, LOCAL, P_ID, addrOf, context, hex, keyN, sha256, toAjsUtxo, txIDN } from '../../helpers/avalanchejs.js'

const K1 = keyN(1)
const K2 = keyN(2)
const A1 = addrOf(K1)
const A2 = addrOf(K2)
const sortAddrs = (as: Uint8Array[]): Uint8Array[] => [...as].sort(Buffer.compare)

function utxo(n: number, index: number, amount: bigint, addrs: Uint8Array[], threshold = 1): UTXO {
  return { utxoID: { txID: txIDN(n), outputIndex: index }, assetID: LOCAL.avaxAssetID, out: { amount, locktime: 0n, threshold, addrs: sortAddrs(addrs) } }
}
const ajs = (us: UTXO[]) => us.map((u) => toAjsUtxo('AVM', encodeUTXO(u)))

async function signed(utx: UnsignedTx, keys: Uint8Array[]): Promise<{ bytes: Uint8Array; unsigned: Uint8Array }> {
  await addTxSignatures({ unsignedTx: utx, privateKeys: keys })
  expect(utx.hasAllSignatures()).toBe(true)
  return { bytes: utx.getSignedTx().toBytes(), unsigned: utx.toBytes() }
}

/** Checks every property a built tx must have; returns the parsed tx. */
function checkTx(bytes: Uint8Array, unsigned: Uint8Array, expectedSigners: Uint8Array[][], keys: Uint8Array[][]) {
  const parsed = parseAVMTx(bytes)
  expect(hex(encodeAVMTx(parsed.tx))).toBe(hex(bytes))
  expect(hex(parsed.unsignedBytes)).toBe(hex(unsigned))
  expect(hex(encodeAVMUnsignedTx(parsed.tx.unsignedTx))).toBe(hex(unsigned))
  expect(hex(encodeAVMUnsignedTx(decodeAVMUnsignedTx(unsigned)))).toBe(hex(unsigned))
  expect(hex(parsed.id)).toBe(hex(sha256(bytes)))
  // AvalancheJS parses our encoding back into the same bytes.
  const back = utils.unpackWithManager('AVM', parsed.unsignedBytes)
  expect(hex(utils.getManagerForVM('AVM').packCodec(back))).toBe(hex(unsigned))
  // Signers in credential order, and our signer reproduces AvalancheJS's signatures (RFC 6979).
  expect(avmCredentialSigners(parsed).map((s) => s.map(hex))).toEqual(expectedSigners.map((s) => s.map(hex)))
  expect(hex(signAVMTx(parsed.tx.unsignedTx, keys).signedBytes)).toBe(hex(bytes))
  expect(parsed.tx.creds.length).toBe(avmSpentInputs(parsed.tx.unsignedTx).length)
  // Fee: exactly the local X fee burned; the flow check passes at it and fails one nAVAX above.
  expect(avmBurned(parsed.tx.unsignedTx, LOCAL.avaxAssetID)).toBe(X_TX_FEE)
  verifyAVMFlow(parsed.tx.unsignedTx, LOCAL.avaxAssetID, X_TX_FEE)
  expect(() => verifyAVMFlow(parsed.tx.unsignedTx, LOCAL.avaxAssetID, X_TX_FEE + 1n)).toThrow('insufficient funds')
  return parsed
}

describe('X-Chain BaseTx (avm.newBaseTx)', () => {
  it('spends the genesis UTXO: one input, recipient + change', async () => {
    const genesis = localXGenesisUTXOs()
    const utx = avm.newBaseTx(context, [EWOQ], ajs(genesis), [TransferableOutput.fromNative(AVAX, 1_000_000_000n, [A1])])
    const { bytes, unsigned } = await signed(utx, [EWOQ_KEY])
    const p = checkTx(bytes, unsigned, [[EWOQ]], [[EWOQ_KEY]])
    expect(p.tx.unsignedTx.typeID).toBe(AVM_TYPE_ID.BaseTx)
    expect(p.tx.unsignedTx.outs).toHaveLength(2)
    const produced = avmProducedUTXOs(p)
    expect(produced.map((u) => u.utxoID.outputIndex)).toEqual([0, 1])
    expect(produced.every((u) => hex(u.utxoID.txID) === hex(p.id))).toBe(true)
  })

  it('multi-input, multi-output, multi-signer and a 2-of-2 UTXO, with a memo', async () => {
    const us = [utxo(1, 0, 400_000_000n, [EWOQ]), utxo(2, 3, 300_000_000n, [A1]), utxo(3, 1, 500_000_000n, [EWOQ, A1], 2), utxo(4, 0, 250_000_000n, [EWOQ])]
    const utx = avm.newBaseTx(
      context,
      [EWOQ, A1],
      ajs(us),
      [
        TransferableOutput.fromNative(AVAX, 700_000_000n, [A2]),
        TransferableOutput.fromNative(AVAX, 300_000_000n, [A1, A2], 0n, 1),
        TransferableOutput.fromNative(AVAX, 100_000_000n, [A2], 1_900_000_000n),
      ],
      { memo: new TextEncoder().encode('multi') },
    )
    const { bytes, unsigned } = await signed(utx, [EWOQ_KEY, K1])
    const parsed = parseAVMTx(bytes)
    const ins = parsed.tx.unsignedTx.ins
    expect(ins.length).toBeGreaterThanOrEqual(3)
    expect(hex(parsed.tx.unsignedTx.memo)).toBe(hex(new TextEncoder().encode('multi')))
    const ownersOf = (i: (typeof ins)[number]) => us.find((u) => hex(u.utxoID.txID) === hex(i.utxoID.txID))!.out.addrs
    const signers = ins.map((i) => i.in.sigIndices.map((s) => ownersOf(i)[s]!))
    const keyFor = (a: Uint8Array) => (hex(a) === hex(EWOQ) ? EWOQ_KEY : K1)
    const p = checkTx(
      bytes,
      unsigned,
      signers,
      signers.map((s) => s.map(keyFor)),
    )
    expect(signers.some((s) => s.length === 2)).toBe(true)
    expect(p.tx.unsignedTx.outs.length).toBeGreaterThanOrEqual(4)
  })
})

describe('X-Chain ExportTx (avm.newExportTx)', () => {
  it.each([
    ['C', C_ID],
    ['P', P_ID],
  ])('exports to %s', async (_name, dest) => {
    const us = [utxo(5, 0, 3_000_000_000n, [EWOQ]), utxo(6, 2, 2_000_000_000n, [EWOQ])]
    const utx = avm.newExportTx(context, dest, [EWOQ], ajs(us), [TransferableOutput.fromNative(AVAX, 4_000_000_000n, [EWOQ]), TransferableOutput.fromNative(AVAX, 500_000_000n, [A1])])
    const { bytes, unsigned } = await signed(utx, [EWOQ_KEY])
    const p = checkTx(bytes, unsigned, [[EWOQ], [EWOQ]], [[EWOQ_KEY], [EWOQ_KEY]])
    const u = p.tx.unsignedTx
    expect(u.typeID).toBe(AVM_TYPE_ID.ExportTx)
    if (u.typeID !== AVM_TYPE_ID.ExportTx) return
    expect(cb58Encode(u.destinationChain)).toBe(dest)
    const exported = avmExportedUTXOs(p)
    expect(exported.map((e) => e.utxoID.outputIndex)).toEqual(u.exportedOuts.map((_, i) => u.outs.length + i))
    expect(exported.reduce((s, e) => s + e.out.amount, 0n)).toBe(4_500_000_000n)
  })
})

describe('X-Chain ImportTx (avm.newImportTx)', () => {
  it.each([
    ['C', C_ID],
    ['P', P_ID],
  ])('imports atomic UTXOs from %s, fee paid out of the import', async (_name, src) => {
    const atomicUTXOs = [utxo(7, 0, 2_000_000_000n, [EWOQ]), utxo(8, 1, 1_000_000_000n, [EWOQ]), utxo(9, 4, 5_000_000n, [EWOQ])]
    const utx = avm.newImportTx(context, src, ajs(atomicUTXOs), [A1], [EWOQ])
    const { bytes, unsigned } = await signed(utx, [EWOQ_KEY])
    const p = checkTx(bytes, unsigned, [[EWOQ], [EWOQ], [EWOQ]], [[EWOQ_KEY], [EWOQ_KEY], [EWOQ_KEY]])
    const u = p.tx.unsignedTx
    expect(u.typeID).toBe(AVM_TYPE_ID.ImportTx)
    if (u.typeID !== AVM_TYPE_ID.ImportTx) return
    expect(cb58Encode(u.sourceChain)).toBe(src)
    expect(u.ins).toHaveLength(0)
    expect(u.importedIns).toHaveLength(3)
    expect(u.outs.map((o) => o.out.amount)).toEqual([3_005_000_000n - X_TX_FEE])
  })

  it('hand-built import with X-Chain inputs paying the fee: base inputs first in credential order', () => {
    const imported = utxo(10, 0, 400_000n, [EWOQ])
    const local = utxo(11, 0, 50_000_000n, [A1])
    const utx = {
      typeID: AVM_TYPE_ID.ImportTx,
      networkID: LOCAL.networkID,
      blockchainID: LOCAL.xChainID,
      outs: [{ assetID: LOCAL.avaxAssetID, out: { amount: 49_400_000n, locktime: 0n, threshold: 1, addrs: [A2] } }],
      ins: [{ utxoID: local.utxoID, assetID: LOCAL.avaxAssetID, in: { amount: 50_000_000n, sigIndices: [0] } }],
      memo: new Uint8Array(),
      sourceChain: LOCAL.cChainID,
      importedIns: [{ utxoID: imported.utxoID, assetID: LOCAL.avaxAssetID, in: { amount: 400_000n, sigIndices: [0] } }],
    } as const
    const tx = signAVMTx(structuredClone(utx) as never, [[K1], [EWOQ_KEY]])
    const p = checkTx(tx.signedBytes, tx.unsignedBytes, [[A1], [EWOQ]], [[K1], [EWOQ_KEY]])
    expect(avmSpentInputs(p.tx.unsignedTx).map((i) => hex(i.utxoID.txID))).toEqual([hex(txIDN(11)), hex(txIDN(10))])
    // AvalancheJS reads the signed tx too.
    const ajsTx = utils.getManagerForVM('AVM').unpack(tx.signedBytes, avaxSerial.SignedTx)
    expect(hex(ajsTx.toBytes())).toBe(hex(tx.signedBytes))
  })
})

describe('X-Chain codec errors', () => {
  it('refuses unknown and wrong type IDs with the reflect codec wording', () => {
    const bad = Uint8Array.from([0, 0, 0, 0, 0, 99])
    expect(() => parseAVMTx(bad)).toThrow('unknown type ID 99')
    const cred = Uint8Array.from([0, 0, 0, 0, 0, 9])
    expect(() => parseAVMTx(cred)).toThrow('*secp256k1fx.Credential does not implement interface txs.UnsignedTx')
    const create = Uint8Array.from([0, 0, 0, 0, 0, 1])
    expect(() => parseAVMTx(create)).toThrow('unsupported X-Chain tx type *txs.CreateAssetTx')
  })
})

/**
 * P-Chain (PlatformVM) codec and Etna fee against AvalancheJS 5.2.0: txs built by `pvm.newBaseTx`,
 * `pvm.e.newImportTx` / `newExportTx` (the Etna builders) and signed by `addTxSignatures` decode and re-encode
 * byte for byte; txIDs, signers; our complexity equals `pvm.getTxComplexity`, our fee equals `pvm.calculateFee`
 * and exactly what the builder burned; the spend rule accepts the genesis UTXOs once their lock expired.
 */
import { describe, expect, it } from 'vitest'
import { BigIntPr, Id, OutputOwners, TransferOutput, TransferableOutput, addTxSignatures, avaxSerial, pvm, pvmSerial, utils, type UnsignedTx } from '@avalabs/avalanchejs'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { PVM_TYPE_ID } from '../../../src/pchain/codec.js'
import { calculateFee, calculatePrice, txComplexity } from '../../../src/pchain/fees.js'
import { LOCAL_GENESIS_LOCKTIME, localPGenesisUTXOs } from '../../../src/pchain/genesis.js'
import { verifyPVMSpend } from '../../../src/pchain/spend.js'
import {
  type PVMUTXO,
  type PVMUnsignedTx,
  encodePVMTx,
  encodePVMUTXO,
  encodePVMUnsignedTx,
  parsePVMTx,
  pvmCredentialSigners,
  pvmExportedUTXOs,
  pvmSpentInputs,
  signPVMTx,
} from '../../../src/pchain/tx.js'
import { AVAX, C_ID, EWOQ, EWOQ_KEY, LOCAL, X_ID, addrOf, context, hex, keyN, sha256, toAjsUtxo, txIDN } from '../../helpers/avalanchejs.js'

const K1 = keyN(1)
const A1 = addrOf(K1)
const NOW = 1_750_000_000n
const feeStateAt = (excess: bigint) => ({ capacity: 1_000_000n, excess, price: calculatePrice(1n, excess, 2_164_043n), timestamp: '2025-06-15T15:06:40Z' })
const ajs = (us: PVMUTXO[]) => us.map((u) => toAjsUtxo('PVM', encodePVMUTXO(u)))
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n)

function utxo(n: number, index: number, amount: bigint, addrs: Uint8Array[], locktime?: bigint, threshold = 1): PVMUTXO {
  return {
    utxoID: { txID: txIDN(n), outputIndex: index },
    assetID: LOCAL.avaxAssetID,
    out: { amount, locktime: 0n, threshold, addrs: [...addrs].sort(Buffer.compare) },
    ...(locktime !== undefined ? { locktime } : {}),
  }
}

/** Unlocked AVAX consumed − produced (imports and exports included). */
function burnedOf(utx: PVMUnsignedTx): bigint {
  const ins = pvmSpentInputs(utx)
  const outs = utx.typeID === PVM_TYPE_ID.ExportTx ? [...utx.outs, ...utx.exportedOutputs] : utx.outs
  return sum(ins.map((i) => i.in.amount)) - sum(outs.map((o) => o.out.amount))
}

async function signAndCheck(utx: UnsignedTx, keys: Uint8Array[], price: bigint, utxos: PVMUTXO[], signerKeys: (a: Uint8Array) => Uint8Array) {
  await addTxSignatures({ unsignedTx: utx, privateKeys: keys })
  expect(utx.hasAllSignatures()).toBe(true)
  const bytes = utx.getSignedTx().toBytes()
  const unsigned = utx.toBytes()
  const p = parsePVMTx(bytes)
  expect(hex(encodePVMTx(p.tx))).toBe(hex(bytes))
  expect(hex(p.unsignedBytes)).toBe(hex(unsigned))
  expect(hex(encodePVMUnsignedTx(p.tx.unsignedTx))).toBe(hex(unsigned))
  expect(hex(p.id)).toBe(hex(sha256(bytes)))
  // Complexity and fee as AvalancheJS computes them, and exactly the fee burned.
  const c = pvm.getTxComplexity(utx.getTx() as never)
  expect(txComplexity(p.tx.unsignedTx).map(Number)).toEqual([c[0], c[1], c[2], c[3]])
  const fee = calculateFee(p.tx.unsignedTx, price)
  expect(fee).toBe(pvm.calculateFee(utx.getTx() as never, context.platformFeeConfig.weights, price))
  expect(burnedOf(p.tx.unsignedTx)).toBe(fee)
  // Signers, and our signer reproduces the bytes.
  const spent = pvmSpentInputs(p.tx.unsignedTx)
  const owners = spent.map((i) => utxos.find((u) => hex(u.utxoID.txID) === hex(i.utxoID.txID) && u.utxoID.outputIndex === i.utxoID.outputIndex)!)
  const signers = spent.map((i, k) => i.in.sigIndices.map((s) => owners[k]!.out.addrs[s]!))
  expect(pvmCredentialSigners(p).map((s) => s.map(hex))).toEqual(signers.map((s) => s.map(hex)))
  expect(
    hex(
      signPVMTx(
        p.tx.unsignedTx,
        signers.map((s) => s.map(signerKeys)),
      ).signedBytes,
    ),
  ).toBe(hex(bytes))
  // The spend rule accepts it at exactly the fee, and refuses one nAVAX more.
  const args = { utx: p.tx.unsignedTx, signingHash: sha256(p.unsignedBytes), utxos: owners, creds: p.tx.creds, feeAssetID: LOCAL.avaxAssetID, now: NOW }
  verifyPVMSpend({ ...args, fee })
  expect(() => verifyPVMSpend({ ...args, fee: fee + 1n })).toThrow('insufficient unlocked funds: needs 1 more')
  return p
}
const ewoqOrK1 = (a: Uint8Array) => (hex(a) === hex(EWOQ) ? EWOQ_KEY : K1)

describe.each([[0n], [5_000_000n]])('P-Chain txs at excess %s', (excess) => {
  const feeState = feeStateAt(excess)
  const price = feeState.price

  it('BaseTx spends the genesis UTXOs (expired StakeableLockOut by a plain TransferInput), multi-output', async () => {
    const us = localPGenesisUTXOs().slice(0, 2)
    const big = 25_000_000_000_000_000n // needs both genesis UTXOs
    const utx = pvm.newBaseTx(
      {
        feeState,
        fromAddressesBytes: [EWOQ],
        utxos: ajs(us),
        minIssuanceTime: NOW,
        outputs: [TransferableOutput.fromNative(AVAX, big, [A1]), TransferableOutput.fromNative(AVAX, 7n, [A1, EWOQ], 0n, 2)],
      },
      context,
    )
    const p = await signAndCheck(utx, [EWOQ_KEY], price, us, ewoqOrK1)
    expect(p.tx.unsignedTx.typeID).toBe(PVM_TYPE_ID.BaseTx)
    expect(p.tx.unsignedTx.ins.map((i) => i.locktime)).toEqual([undefined, undefined])
    // Before the lock expires, a plain input may not spend the locked genesis UTXO.
    const fee = calculateFee(p.tx.unsignedTx, price)
    expect(() =>
      verifyPVMSpend({
        utx: p.tx.unsignedTx,
        signingHash: sha256(p.unsignedBytes),
        utxos: us,
        creds: p.tx.creds,
        feeAssetID: LOCAL.avaxAssetID,
        fee,
        now: LOCAL_GENESIS_LOCKTIME - 1n,
      }),
    ).toThrow('locked funds not marked as locked')
  })

  it('BaseTx with a StakeableLockOut output, several inputs, two signers and a memo', async () => {
    const us = [utxo(1, 0, 2_000_000_000n, [EWOQ]), utxo(2, 1, 1_000_000_000n, [A1]), utxo(3, 0, 1_500_000_000n, [EWOQ, A1], undefined, 2)]
    const locked = new TransferableOutput(
      Id.fromString(AVAX),
      new pvmSerial.StakeableLockOut(new BigIntPr(NOW + 1000n), new TransferOutput(new BigIntPr(3_000_000_000n), OutputOwners.fromNative([A1]))),
    )
    const utx = pvm.newBaseTx(
      {
        feeState,
        fromAddressesBytes: [EWOQ, A1],
        utxos: ajs(us),
        minIssuanceTime: NOW,
        memo: new TextEncoder().encode('p memo'),
        outputs: [locked, TransferableOutput.fromNative(AVAX, 1_000_000_000n, [EWOQ])],
      },
      context,
    )
    const p = await signAndCheck(utx, [EWOQ_KEY, K1], price, us, ewoqOrK1)
    expect(p.tx.unsignedTx.outs.some((o) => o.locktime === NOW + 1000n)).toBe(true)
    expect(p.tx.unsignedTx.ins).toHaveLength(3)
  })

  it.each([
    ['X', X_ID],
    ['C', C_ID],
  ])('ExportTx to %s', async (_n, dest) => {
    const us = [utxo(4, 0, 3_000_000_000n, [EWOQ]), utxo(5, 2, 1_000_000_000n, [EWOQ])]
    const utx = pvm.e.newExportTx(
      {
        feeState,
        fromAddressesBytes: [EWOQ],
        utxos: ajs(us),
        minIssuanceTime: NOW,
        destinationChainId: dest,
        outputs: [TransferableOutput.fromNative(AVAX, 3_500_000_000n, [EWOQ]), TransferableOutput.fromNative(AVAX, 1n, [A1])],
      },
      context,
    )
    const p = await signAndCheck(utx, [EWOQ_KEY], price, us, ewoqOrK1)
    const u = p.tx.unsignedTx
    if (u.typeID !== PVM_TYPE_ID.ExportTx) throw new Error('not an export')
    expect(cb58Encode(u.destinationChain)).toBe(dest)
    expect(pvmExportedUTXOs(p).map((e) => e.utxoID.outputIndex)).toEqual(u.exportedOutputs.map((_, i) => u.outs.length + i))
  })

  it.each([
    ['X', X_ID],
    ['C', C_ID],
  ])('ImportTx from %s', async (_n, src) => {
    const atomic = [utxo(6, 0, 2_000_000_000n, [EWOQ]), utxo(7, 1, 300_000_000n, [EWOQ])]
    const utx = pvm.e.newImportTx(
      {
        feeState,
        fromAddressesBytes: [EWOQ],
        utxos: ajs(atomic),
        minIssuanceTime: NOW,
        sourceChainId: src,
        toAddressesBytes: [A1],
      },
      context,
    )
    const p = await signAndCheck(utx, [EWOQ_KEY], price, atomic, ewoqOrK1)
    const u = p.tx.unsignedTx
    if (u.typeID !== PVM_TYPE_ID.ImportTx) throw new Error('not an import')
    expect(cb58Encode(u.sourceChain)).toBe(src)
    expect(u.importedInputs).toHaveLength(2)
  })
})

describe('P-Chain locked inputs (hand-built)', () => {
  it('a LockIn spends a still-locked UTXO into a LockOut; complexity matches AvalancheJS', () => {
    const lockUntil = NOW + 10_000n
    const lockedUTXO = utxo(8, 0, 5_000_000_000n, [EWOQ], lockUntil)
    const feeUTXO = utxo(9, 0, 100_000_000n, [EWOQ])
    const base = (fee: bigint): PVMUnsignedTx => ({
      typeID: PVM_TYPE_ID.BaseTx,
      networkID: LOCAL.networkID,
      blockchainID: LOCAL.pChainID,
      memo: new Uint8Array(),
      outs: [
        { assetID: LOCAL.avaxAssetID, out: { amount: 100_000_000n - fee, locktime: 0n, threshold: 1, addrs: [EWOQ] } },
        { assetID: LOCAL.avaxAssetID, out: { amount: 5_000_000_000n, locktime: 0n, threshold: 1, addrs: [EWOQ] }, locktime: lockUntil },
      ],
      ins: [
        { utxoID: lockedUTXO.utxoID, assetID: LOCAL.avaxAssetID, in: { amount: 5_000_000_000n, sigIndices: [0] }, locktime: lockUntil },
        { utxoID: feeUTXO.utxoID, assetID: LOCAL.avaxAssetID, in: { amount: 100_000_000n, sigIndices: [0] } },
      ].sort((a, b) => Buffer.compare(a.utxoID.txID, b.utxoID.txID)),
    })
    const fee = calculateFee(base(0n), 1n)
    const tx = signPVMTx(base(fee), [[EWOQ_KEY], [EWOQ_KEY]])
    const ajsTx = utils.getManagerForVM('PVM').unpack(tx.signedBytes, avaxSerial.SignedTx)
    expect(hex(ajsTx.toBytes())).toBe(hex(tx.signedBytes))
    const c = pvm.getTxComplexity(ajsTx.unsignedTx as never)
    expect(txComplexity(tx.tx.unsignedTx).map(Number)).toEqual([c[0], c[1], c[2], c[3]])
    const us = pvmSpentInputs(tx.tx.unsignedTx).map((i) => (hex(i.utxoID.txID) === hex(lockedUTXO.utxoID.txID) ? lockedUTXO : feeUTXO))
    const args = { utx: tx.tx.unsignedTx, signingHash: sha256(tx.unsignedBytes), utxos: us, creds: tx.tx.creds, feeAssetID: LOCAL.avaxAssetID, now: NOW }
    verifyPVMSpend({ ...args, fee })
    expect(() => verifyPVMSpend({ ...args, fee: fee + 1n })).toThrow('insufficient unlocked funds')
  })
})

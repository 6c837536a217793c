/**
 * X-Chain (AVM) transfer txs, byte for byte as avalanchego vms/avm/txs serializes them:
 * BaseTx (type 0), ImportTx (3), ExportTx (4), the signed Tx with its credentials, txID and signing hash.
 *
 * Layouts (codec v0, big-endian):
 * - avax.BaseTx: networkID u32 ‖ blockchainID [32] ‖ outs []TransferableOutput ‖ ins []TransferableInput ‖ memo []byte
 * - ImportTx: BaseTx ‖ sourceChain [32] ‖ importedIns []TransferableInput
 * - ExportTx: BaseTx ‖ destinationChain [32] ‖ exportedOuts []TransferableOutput
 * - Tx: u16 version ‖ u32 typeID ‖ unsigned fields ‖ creds [](u32 typeID ‖ sigs [][65]byte)
 * txID = sha256(signed bytes); every signature signs sha256(unsigned bytes).
 */
import { ID_LEN, readUTXOID, writeUTXOID, encodeUTXO } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { type CodecReader, type CodecWriter, unmarshal } from '../avalanche/codec.js'
import { CodecError } from '../avalanche/errors.js'
import { readCredential, readTransferInput, readTransferOutput, writeCredential, writeTransferInput, writeTransferOutput } from '../avalanche/secp256k1fx.js'
import { signedTxCodec, type ParsedSignedTx, type SignedTx } from '../avalanche/signedTxCodec.js'
import type { TransferableInput, TransferableOutput, UTXO } from '../avalanche/types.js'
import { AVM_GO_TYPE_NAMES, AVM_INTERFACES, AVM_TYPE_ID, type AVMCredentialTypeID } from './codec.js'

/** Largest memo avax.BaseTx accepts (avax.MaxMemoSize). */
export const MAX_MEMO_SIZE = 256

/** The avax.BaseTx fields every X-Chain tx starts with. */
export interface AVMBaseTxFields {
  networkID: number
  blockchainID: Uint8Array
  outs: TransferableOutput[]
  ins: TransferableInput[]
  memo: Uint8Array
}

export interface AVMBaseTx extends AVMBaseTxFields {
  typeID: typeof AVM_TYPE_ID.BaseTx
}

export interface AVMImportTx extends AVMBaseTxFields {
  typeID: typeof AVM_TYPE_ID.ImportTx
  sourceChain: Uint8Array
  importedIns: TransferableInput[]
}

export interface AVMExportTx extends AVMBaseTxFields {
  typeID: typeof AVM_TYPE_ID.ExportTx
  destinationChain: Uint8Array
  exportedOuts: TransferableOutput[]
}

export type AVMUnsignedTx = AVMBaseTx | AVMImportTx | AVMExportTx

/** One credential slot (fxs.FxCredential): the fx's credential type ID and its signatures. */
export interface AVMCredential {
  typeID: AVMCredentialTypeID
  sigs: Uint8Array[]
}

export type AVMTx = SignedTx<AVMUnsignedTx, AVMCredential>

/** A decoded signed tx with its byte forms and ID. */
export type ParsedAVMTx = ParsedSignedTx<AVMUnsignedTx, AVMCredential>

export function readAVMTransferableInput(r: CodecReader): TransferableInput {
  const utxoID = readUTXOID(r)
  const assetID = r.fixed(ID_LEN)
  r.registeredTypeID(AVM_GO_TYPE_NAMES, AVM_INTERFACES.transferableIn)
  return { utxoID, assetID, in: readTransferInput(r) }
}

export function writeAVMTransferableInput(w: CodecWriter, v: TransferableInput): void {
  writeUTXOID(w, v.utxoID)
  w.fixed(v.assetID, ID_LEN).u32(AVM_TYPE_ID.TransferInput)
  writeTransferInput(w, v.in)
}

export function readAVMTransferableOutput(r: CodecReader): TransferableOutput {
  const assetID = r.fixed(ID_LEN)
  r.registeredTypeID(AVM_GO_TYPE_NAMES, AVM_INTERFACES.transferableOut)
  return { assetID, out: readTransferOutput(r) }
}

export function writeAVMTransferableOutput(w: CodecWriter, v: TransferableOutput): void {
  w.fixed(v.assetID, ID_LEN).u32(AVM_TYPE_ID.TransferOutput)
  writeTransferOutput(w, v.out)
}

function readBaseFields(r: CodecReader): AVMBaseTxFields {
  const networkID = r.u32()
  const blockchainID = r.fixed(ID_LEN)
  const outs = r.slice(readAVMTransferableOutput)
  const ins = r.slice(readAVMTransferableInput)
  return { networkID, blockchainID, outs, ins, memo: r.bytesU32() }
}

function writeBaseFields(w: CodecWriter, v: AVMBaseTxFields): void {
  w.u32(v.networkID).fixed(v.blockchainID, ID_LEN)
  w.slice(v.outs, writeAVMTransferableOutput)
  w.slice(v.ins, writeAVMTransferableInput)
  w.bytesU32(v.memo)
}

function readUnsignedTx(r: CodecReader): AVMUnsignedTx {
  const typeID = r.registeredTypeID(AVM_GO_TYPE_NAMES, AVM_INTERFACES.unsignedTx)
  switch (typeID) {
    case AVM_TYPE_ID.BaseTx:
      return { typeID, ...readBaseFields(r) }
    case AVM_TYPE_ID.ImportTx: {
      const base = readBaseFields(r)
      const sourceChain = r.fixed(ID_LEN)
      return { typeID, ...base, sourceChain, importedIns: r.slice(readAVMTransferableInput) }
    }
    case AVM_TYPE_ID.ExportTx: {
      const base = readBaseFields(r)
      const destinationChain = r.fixed(ID_LEN)
      return { typeID, ...base, destinationChain, exportedOuts: r.slice(readAVMTransferableOutput) }
    }
    default:
      throw new CodecError(`unsupported X-Chain tx type ${AVM_GO_TYPE_NAMES[typeID]}`)
  }
}

function writeUnsignedTx(w: CodecWriter, utx: AVMUnsignedTx): void {
  w.u32(utx.typeID)
  writeBaseFields(w, utx)
  if (utx.typeID === AVM_TYPE_ID.ImportTx) {
    w.fixed(utx.sourceChain, ID_LEN).slice(utx.importedIns, writeAVMTransferableInput)
  } else if (utx.typeID === AVM_TYPE_ID.ExportTx) {
    w.fixed(utx.destinationChain, ID_LEN).slice(utx.exportedOuts, writeAVMTransferableOutput)
  }
}

function readCred(r: CodecReader): AVMCredential {
  const typeID = r.registeredTypeID(AVM_GO_TYPE_NAMES, AVM_INTERFACES.credential) as AVMCredentialTypeID
  return { typeID, ...readCredential(r) }
}

function writeCred(w: CodecWriter, c: AVMCredential): void {
  w.u32(c.typeID)
  writeCredential(w, c)
}

const codec = signedTxCodec<AVMUnsignedTx, AVMCredential>({
  readUnsigned: readUnsignedTx,
  writeUnsigned: writeUnsignedTx,
  readCred,
  writeCred,
  signatures: (c) => c.sigs,
  credential: (sigs) => ({ typeID: AVM_TYPE_ID.Credential, sigs }),
})

/** Codec bytes of an unsigned tx (version ‖ typeID ‖ fields). */
export const encodeAVMUnsignedTx = codec.encodeUnsigned
export const decodeAVMUnsignedTx = codec.decodeUnsigned
/** Codec bytes of a signed tx. */
export const encodeAVMTx = codec.encode
/** Decodes a signed tx (as issueTx does) and derives its unsigned bytes and ID. */
export const parseAVMTx = codec.parse
/** Encodes a tx and derives its byte forms and ID. */
export const toParsedAVMTx = codec.toParsed

/** The txID in CB58. */
export function avmTxIDString(tx: ParsedAVMTx): string {
  return cb58Encode(tx.id)
}

/** The inputs in credential order: BaseTx.ins, then (ImportTx) the imported inputs (avm semantic verifier). */
export function avmSpentInputs(utx: AVMUnsignedTx): TransferableInput[] {
  return utx.typeID === AVM_TYPE_ID.ImportTx ? [...utx.ins, ...utx.importedIns] : utx.ins
}

/** Signs like avalanchego's Tx.SignSECP256K1Fx: one secp256k1fx credential per spent input (avmSpentInputs order). */
export const signAVMTx = codec.sign

/** The 20-byte short addresses that signed each credential, in order. */
export const avmCredentialSigners = codec.credentialSigners

/** Decodes a stored X-Chain UTXO (secp256k1fx.TransferOutput only; other fx outputs are refused). */
export function decodeAVMUTXO(bytes: Uint8Array): UTXO {
  return unmarshal(bytes, (r) => {
    const utxoID = readUTXOID(r)
    const assetID = r.fixed(ID_LEN)
    const typeID = r.registeredTypeID(AVM_GO_TYPE_NAMES, AVM_INTERFACES.state)
    if (typeID !== AVM_TYPE_ID.TransferOutput) throw new CodecError(`unsupported X-Chain UTXO output ${AVM_GO_TYPE_NAMES[typeID]}`)
    return { utxoID, assetID, out: readTransferOutput(r) }
  })
}

/** Encodes an X-Chain UTXO (same bytes as the C-Chain atomic codec: TransferOutput is type 7 in both). */
export function encodeAVMUTXO(utxo: UTXO): Uint8Array {
  return encodeUTXO(utxo)
}

/** The UTXOs a tx creates on the X-Chain: BaseTx.outs at {txID, i} (avm executor). */
export function avmProducedUTXOs(tx: ParsedAVMTx): UTXO[] {
  return tx.tx.unsignedTx.outs.map((o, i) => ({ utxoID: { txID: tx.id, outputIndex: i }, assetID: o.assetID, out: o.out }))
}

/** The UTXOs an ExportTx puts in the destination's shared memory: {txID, len(outs) + i}. */
export function avmExportedUTXOs(tx: ParsedAVMTx): UTXO[] {
  const utx = tx.tx.unsignedTx
  if (utx.typeID !== AVM_TYPE_ID.ExportTx) return []
  return utx.exportedOuts.map((o, i) => ({ utxoID: { txID: tx.id, outputIndex: utx.outs.length + i }, assetID: o.assetID, out: o.out }))
}

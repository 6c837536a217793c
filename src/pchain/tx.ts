/**
 * P-Chain (PlatformVM) transfer txs, byte for byte as avalanchego vms/platformvm/txs serializes them:
 * BaseTx (type 34), ImportTx (17), ExportTx (18), CreateSubnetTx (16), the signed Tx, txID and signing hash, and the
 * stakeable.LockIn (21) / LockOut (22) wrappers of inputs, outputs and UTXOs.
 *
 * Layouts (codec v0): BaseTx = networkID u32 ‖ blockchainID [32] ‖ outs ‖ ins ‖ memo []byte;
 * ImportTx = BaseTx ‖ sourceChain [32] ‖ importedInputs; ExportTx = BaseTx ‖ destinationChain [32] ‖ exportedOutputs;
 * CreateSubnetTx = BaseTx ‖ owner (fx.Owner: u32 typeID 11 ‖ secp256k1fx.OutputOwners) (txs/create_subnet_tx.go).
 * LockIn = locktime u64 ‖ u32 typeID 5 ‖ TransferInput; LockOut = locktime u64 ‖ u32 typeID 7 ‖ TransferOutput.
 */
import { ID_LEN, readUTXOID, writeUTXOID } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { type CodecReader, CodecWriter, marshal, unmarshal } from '../avalanche/codec.js'
import { CodecError } from '../avalanche/errors.js'
import { readCredential, readOutputOwners, readTransferInput, readTransferOutput, writeCredential, writeOutputOwners, writeTransferInput, writeTransferOutput } from '../avalanche/secp256k1fx.js'
import { signedTxCodec, type ParsedSignedTx, type SignedTx } from '../avalanche/signedTxCodec.js'
import type { OutputOwners, TransferInput, TransferOutput, UTXOID } from '../avalanche/types.js'
import { PVM_GO_TYPE_NAMES, PVM_INTERFACES, PVM_TYPE_ID } from './codec.js'

/** A P-Chain transferable input; `locktime` present = wrapped in stakeable.LockIn. */
export interface PVMTransferableInput {
  utxoID: UTXOID
  assetID: Uint8Array
  in: TransferInput
  locktime?: bigint
}

/** A P-Chain transferable output; `locktime` present = wrapped in stakeable.LockOut. */
export interface PVMTransferableOutput {
  assetID: Uint8Array
  out: TransferOutput
  locktime?: bigint
}

/** A P-Chain UTXO (secp256k1fx.TransferOutput, optionally inside a stakeable.LockOut). */
export interface PVMUTXO {
  utxoID: UTXOID
  assetID: Uint8Array
  out: TransferOutput
  locktime?: bigint
}

export interface PVMBaseTxFields {
  networkID: number
  blockchainID: Uint8Array
  outs: PVMTransferableOutput[]
  ins: PVMTransferableInput[]
  memo: Uint8Array
}

export interface PVMBaseTx extends PVMBaseTxFields {
  typeID: typeof PVM_TYPE_ID.BaseTx
}

export interface PVMImportTx extends PVMBaseTxFields {
  typeID: typeof PVM_TYPE_ID.ImportTx
  sourceChain: Uint8Array
  importedInputs: PVMTransferableInput[]
}

export interface PVMExportTx extends PVMBaseTxFields {
  typeID: typeof PVM_TYPE_ID.ExportTx
  destinationChain: Uint8Array
  exportedOutputs: PVMTransferableOutput[]
}

/** A CreateSubnetTx: the subnet's ID is the tx's ID; `owner` controls it. */
export interface PVMCreateSubnetTx extends PVMBaseTxFields {
  typeID: typeof PVM_TYPE_ID.CreateSubnetTx
  owner: OutputOwners
}

export type PVMUnsignedTx = PVMBaseTx | PVMImportTx | PVMExportTx | PVMCreateSubnetTx

/** fx.Owner as the P-Chain codec registers it: only secp256k1fx.OutputOwners. */
const FX_OWNER = { name: 'fx.Owner', implementors: [PVM_TYPE_ID.OutputOwners] } as const

/** A secp256k1fx.Credential. */
export interface PVMCredential {
  sigs: Uint8Array[]
}

export type PVMTx = SignedTx<PVMUnsignedTx, PVMCredential>

/** A decoded signed tx with its byte forms and ID. */
export type ParsedPVMTx = ParsedSignedTx<PVMUnsignedTx, PVMCredential>

const NESTED = "shouldn't nest stakeable locks"

function readLockedIn(r: CodecReader): { in: TransferInput; locktime?: bigint } {
  const typeID = r.registeredTypeID(PVM_GO_TYPE_NAMES, PVM_INTERFACES.transferableIn)
  if (typeID === PVM_TYPE_ID.TransferInput) return { in: readTransferInput(r) }
  const locktime = r.u64()
  if (r.registeredTypeID(PVM_GO_TYPE_NAMES, PVM_INTERFACES.transferableIn) !== PVM_TYPE_ID.TransferInput) throw new CodecError(NESTED)
  return { in: readTransferInput(r), locktime }
}

function readLockedOut(r: CodecReader, iface: { readonly name: string; readonly implementors: readonly number[] }): { out: TransferOutput; locktime?: bigint } {
  const typeID = r.registeredTypeID(PVM_GO_TYPE_NAMES, iface)
  if (typeID === PVM_TYPE_ID.TransferOutput) return { out: readTransferOutput(r) }
  if (typeID !== PVM_TYPE_ID.StakeableLockOut) throw new CodecError(`unsupported P-Chain output ${PVM_GO_TYPE_NAMES[typeID]}`)
  const locktime = r.u64()
  if (r.registeredTypeID(PVM_GO_TYPE_NAMES, PVM_INTERFACES.transferableOut) !== PVM_TYPE_ID.TransferOutput) throw new CodecError(NESTED)
  return { out: readTransferOutput(r), locktime }
}

function writeLockedOut(w: CodecWriter, out: TransferOutput, locktime: bigint | undefined): void {
  if (locktime !== undefined) w.u32(PVM_TYPE_ID.StakeableLockOut).u64(locktime)
  w.u32(PVM_TYPE_ID.TransferOutput)
  writeTransferOutput(w, out)
}

export function readPVMTransferableInput(r: CodecReader): PVMTransferableInput {
  const utxoID = readUTXOID(r)
  const assetID = r.fixed(ID_LEN)
  return { utxoID, assetID, ...readLockedIn(r) }
}

export function writePVMTransferableInput(w: CodecWriter, v: PVMTransferableInput): void {
  writeUTXOID(w, v.utxoID)
  w.fixed(v.assetID, ID_LEN)
  if (v.locktime !== undefined) w.u32(PVM_TYPE_ID.StakeableLockIn).u64(v.locktime)
  w.u32(PVM_TYPE_ID.TransferInput)
  writeTransferInput(w, v.in)
}

export function readPVMTransferableOutput(r: CodecReader): PVMTransferableOutput {
  const assetID = r.fixed(ID_LEN)
  return { assetID, ...readLockedOut(r, PVM_INTERFACES.transferableOut) }
}

export function writePVMTransferableOutput(w: CodecWriter, v: PVMTransferableOutput): void {
  w.fixed(v.assetID, ID_LEN)
  writeLockedOut(w, v.out, v.locktime)
}

/** Codec bytes of an output as avax.SortTransferableOutputs compares them: (type ID ‖ fields) of `Out`. */
export function pvmOutputSortBytes(v: PVMTransferableOutput): Uint8Array {
  const w = new CodecWriter()
  writeLockedOut(w, v.out, v.locktime)
  return w.finish()
}

/** avax.SortTransferableOutputs order: asset ID, then the output's codec bytes. */
export function comparePVMTransferableOutputs(a: PVMTransferableOutput, b: PVMTransferableOutput): number {
  return Buffer.compare(a.assetID, b.assetID) || Buffer.compare(pvmOutputSortBytes(a), pvmOutputSortBytes(b))
}

function readBaseFields(r: CodecReader): PVMBaseTxFields {
  const networkID = r.u32()
  const blockchainID = r.fixed(ID_LEN)
  const outs = r.slice(readPVMTransferableOutput)
  const ins = r.slice(readPVMTransferableInput)
  return { networkID, blockchainID, outs, ins, memo: r.bytesU32() }
}

function writeBaseFields(w: CodecWriter, v: PVMBaseTxFields): void {
  w.u32(v.networkID).fixed(v.blockchainID, ID_LEN)
  w.slice(v.outs, writePVMTransferableOutput)
  w.slice(v.ins, writePVMTransferableInput)
  w.bytesU32(v.memo)
}

function readUnsignedTx(r: CodecReader): PVMUnsignedTx {
  const typeID = r.registeredTypeID(PVM_GO_TYPE_NAMES, PVM_INTERFACES.unsignedTx)
  switch (typeID) {
    case PVM_TYPE_ID.BaseTx:
      return { typeID, ...readBaseFields(r) }
    case PVM_TYPE_ID.ImportTx: {
      const base = readBaseFields(r)
      const sourceChain = r.fixed(ID_LEN)
      return { typeID, ...base, sourceChain, importedInputs: r.slice(readPVMTransferableInput) }
    }
    case PVM_TYPE_ID.ExportTx: {
      const base = readBaseFields(r)
      const destinationChain = r.fixed(ID_LEN)
      return { typeID, ...base, destinationChain, exportedOutputs: r.slice(readPVMTransferableOutput) }
    }
    case PVM_TYPE_ID.CreateSubnetTx: {
      const base = readBaseFields(r)
      r.registeredTypeID(PVM_GO_TYPE_NAMES, FX_OWNER)
      return { typeID, ...base, owner: readOutputOwners(r) }
    }
    default:
      throw new CodecError(`unsupported P-Chain tx type ${PVM_GO_TYPE_NAMES[typeID]}`)
  }
}

function writeUnsignedTx(w: CodecWriter, utx: PVMUnsignedTx): void {
  w.u32(utx.typeID)
  writeBaseFields(w, utx)
  if (utx.typeID === PVM_TYPE_ID.ImportTx) {
    w.fixed(utx.sourceChain, ID_LEN).slice(utx.importedInputs, writePVMTransferableInput)
  } else if (utx.typeID === PVM_TYPE_ID.ExportTx) {
    w.fixed(utx.destinationChain, ID_LEN).slice(utx.exportedOutputs, writePVMTransferableOutput)
  } else if (utx.typeID === PVM_TYPE_ID.CreateSubnetTx) {
    w.u32(PVM_TYPE_ID.OutputOwners)
    writeOutputOwners(w, utx.owner)
  }
}

function readCred(r: CodecReader): PVMCredential {
  const typeID = r.registeredTypeID(PVM_GO_TYPE_NAMES, PVM_INTERFACES.credential)
  if (typeID !== PVM_TYPE_ID.Credential) throw new CodecError(`unsupported credential type ${PVM_GO_TYPE_NAMES[typeID]}`)
  return readCredential(r)
}

function writeCred(w: CodecWriter, c: PVMCredential): void {
  w.u32(PVM_TYPE_ID.Credential)
  writeCredential(w, c)
}

const codec = signedTxCodec<PVMUnsignedTx, PVMCredential>({
  readUnsigned: readUnsignedTx,
  writeUnsigned: writeUnsignedTx,
  readCred,
  writeCred,
  signatures: (c) => c.sigs,
  credential: (sigs) => ({ sigs }),
})

/** Codec bytes of an unsigned tx (version ‖ typeID ‖ fields). */
export const encodePVMUnsignedTx = codec.encodeUnsigned
export const decodePVMUnsignedTx = codec.decodeUnsigned
/** Codec bytes of a signed tx. */
export const encodePVMTx = codec.encode
/** Decodes a signed tx (as issueTx does) and derives its unsigned bytes and ID. */
export const parsePVMTx = codec.parse
/** Encodes a tx and derives its byte forms and ID. */
export const toParsedPVMTx = codec.toParsed

export function pvmTxIDString(tx: ParsedPVMTx): string {
  return cb58Encode(tx.id)
}

/** The inputs in credential order: BaseTx.ins, then (ImportTx) the imported inputs (standard_tx_executor). */
export function pvmSpentInputs(utx: PVMUnsignedTx): PVMTransferableInput[] {
  return utx.typeID === PVM_TYPE_ID.ImportTx ? [...utx.ins, ...utx.importedInputs] : utx.ins
}

/** Signs like avalanchego's Tx.SignSECP256K1Fx: one secp256k1fx credential per spent input (pvmSpentInputs order). */
export const signPVMTx = codec.sign

/** The 20-byte short addresses that signed each credential, in order. */
export const pvmCredentialSigners = codec.credentialSigners

/** Codec bytes (with version) of a P-Chain UTXO, as platform.getUTXOs serves it. */
export function encodePVMUTXO(utxo: PVMUTXO): Uint8Array {
  return marshal((w) => {
    writeUTXOID(w, utxo.utxoID)
    w.fixed(utxo.assetID, ID_LEN)
    writeLockedOut(w, utxo.out, utxo.locktime)
  })
}

export function decodePVMUTXO(bytes: Uint8Array): PVMUTXO {
  return unmarshal(bytes, (r) => {
    const utxoID = readUTXOID(r)
    const assetID = r.fixed(ID_LEN)
    return { utxoID, assetID, ...readLockedOut(r, PVM_INTERFACES.state) }
  })
}

/** The UTXOs a tx creates on the P-Chain: BaseTx.outs at {txID, i}. */
export function pvmProducedUTXOs(tx: ParsedPVMTx): PVMUTXO[] {
  return tx.tx.unsignedTx.outs.map((o, i) => ({ utxoID: { txID: tx.id, outputIndex: i }, assetID: o.assetID, out: o.out, ...(o.locktime !== undefined ? { locktime: o.locktime } : {}) }))
}

/** The UTXOs an ExportTx puts in the destination's shared memory: {txID, len(outs) + i} (standard_tx_executor). */
export function pvmExportedUTXOs(tx: ParsedPVMTx): PVMUTXO[] {
  const utx = tx.tx.unsignedTx
  if (utx.typeID !== PVM_TYPE_ID.ExportTx) return []
  return utx.exportedOutputs.map((o, i) => ({
    utxoID: { txID: tx.id, outputIndex: utx.outs.length + i },
    assetID: o.assetID,
    out: o.out,
    ...(o.locktime !== undefined ? { locktime: o.locktime } : {}),
  }))
}

/** Codec of the secp256k1fx structs (avalanchego vms/secp256k1fx); the readers/writers omit the type ID. */
import { type CodecReader, type CodecWriter, INTERFACES, TYPE_ID } from './codec.js'
import type { Credential, Input, OutputOwners, TransferInput, TransferOutput, Verifiable } from './types.js'

export const SHORT_ID_LEN = 20
export const SIGNATURE_LEN = 65

export function readInput(r: CodecReader): Input {
  return { sigIndices: r.slice((e) => e.u32()) }
}

export function writeInput(w: CodecWriter, v: Input): void {
  w.slice(v.sigIndices, (e, i) => e.u32(i))
}

export function readTransferInput(r: CodecReader): TransferInput {
  const amount = r.u64()
  return { amount, ...readInput(r) }
}

export function writeTransferInput(w: CodecWriter, v: TransferInput): void {
  w.u64(v.amount)
  writeInput(w, v)
}

export function readOutputOwners(r: CodecReader): OutputOwners {
  const locktime = r.u64()
  const threshold = r.u32()
  return { locktime, threshold, addrs: r.slice((e) => e.fixed(SHORT_ID_LEN)) }
}

export function writeOutputOwners(w: CodecWriter, v: OutputOwners): void {
  w.u64(v.locktime)
    .u32(v.threshold)
    .slice(v.addrs, (e, a) => e.fixed(a, SHORT_ID_LEN))
}

export function readTransferOutput(r: CodecReader): TransferOutput {
  const amount = r.u64()
  return { amount, ...readOutputOwners(r) }
}

export function writeTransferOutput(w: CodecWriter, v: TransferOutput): void {
  w.u64(v.amount)
  writeOutputOwners(w, v)
}

export function readCredential(r: CodecReader): Credential {
  return { sigs: r.slice((e) => e.fixed(SIGNATURE_LEN)) }
}

export function writeCredential(w: CodecWriter, v: Credential): void {
  w.slice(v.sigs, (e, s) => e.fixed(s, SIGNATURE_LEN))
}

/** A credential slot: type ID then any verify.Verifiable registered type. */
export function readVerifiable(r: CodecReader): Verifiable {
  const typeID = r.typeID(INTERFACES.verifiable)
  switch (typeID) {
    case TYPE_ID.Credential:
      return { typeID, ...readCredential(r) }
    case TYPE_ID.TransferInput:
      return { typeID, ...readTransferInput(r) }
    case TYPE_ID.TransferOutput:
      return { typeID, ...readTransferOutput(r) }
    case TYPE_ID.Input:
      return { typeID, ...readInput(r) }
    default:
      return { typeID: TYPE_ID.OutputOwners, ...readOutputOwners(r) }
  }
}

export function writeVerifiable(w: CodecWriter, v: Verifiable): void {
  w.u32(v.typeID)
  switch (v.typeID) {
    case TYPE_ID.Credential:
      writeCredential(w, v)
      break
    case TYPE_ID.TransferInput:
      writeTransferInput(w, v)
      break
    case TYPE_ID.TransferOutput:
      writeTransferOutput(w, v)
      break
    case TYPE_ID.Input:
      writeInput(w, v)
      break
    case TYPE_ID.OutputOwners:
      writeOutputOwners(w, v)
      break
  }
}

/** A secp256k1fx.Credential in a tx's credential slot. */
export function credential(sigs: Uint8Array[]): Verifiable {
  return { typeID: TYPE_ID.Credential, sigs }
}

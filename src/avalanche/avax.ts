/** Codec and IDs of avalanchego's vms/components/avax structs: UTXOID, transferables, UTXO. */
import { createHash } from 'node:crypto'
import { cb58Encode } from './cb58.js'
import { type CodecReader, type CodecWriter, INTERFACES, TYPE_ID, marshal, unmarshal } from './codec.js'
import { readTransferInput, readTransferOutput, writeTransferInput, writeTransferOutput } from './secp256k1fx.js'
import type { TransferableInput, TransferableOutput, UTXO, UTXOID } from './types.js'

export const ID_LEN = 32

export function readUTXOID(r: CodecReader): UTXOID {
  const txID = r.fixed(ID_LEN)
  return { txID, outputIndex: r.u32() }
}

export function writeUTXOID(w: CodecWriter, v: UTXOID): void {
  w.fixed(v.txID, ID_LEN).u32(v.outputIndex)
}

export function readTransferableInput(r: CodecReader): TransferableInput {
  const utxoID = readUTXOID(r)
  const assetID = r.fixed(ID_LEN)
  r.typeID(INTERFACES.transferableIn)
  return { utxoID, assetID, in: readTransferInput(r) }
}

export function writeTransferableInput(w: CodecWriter, v: TransferableInput): void {
  writeUTXOID(w, v.utxoID)
  w.fixed(v.assetID, ID_LEN).u32(TYPE_ID.TransferInput)
  writeTransferInput(w, v.in)
}

export function readTransferableOutput(r: CodecReader): TransferableOutput {
  const assetID = r.fixed(ID_LEN)
  r.typeID(INTERFACES.transferableOut)
  return { assetID, out: readTransferOutput(r) }
}

export function writeTransferableOutput(w: CodecWriter, v: TransferableOutput): void {
  w.fixed(v.assetID, ID_LEN).u32(TYPE_ID.TransferOutput)
  writeTransferOutput(w, v.out)
}

/** Decodes a UTXO's codec bytes (with the 2-byte version), as shared memory stores them. */
export function decodeUTXO(bytes: Uint8Array): UTXO {
  return unmarshal(bytes, (r) => {
    const utxoID = readUTXOID(r)
    const assetID = r.fixed(ID_LEN)
    r.typeID(INTERFACES.state)
    return { utxoID, assetID, out: readTransferOutput(r) }
  })
}

/** Encodes a UTXO with the 2-byte codec version, as avax.getUTXOs serves it. */
export function encodeUTXO(utxo: UTXO): Uint8Array {
  return marshal((w) => {
    writeUTXOID(w, utxo.utxoID)
    w.fixed(utxo.assetID, ID_LEN).u32(TYPE_ID.TransferOutput)
    writeTransferOutput(w, utxo.out)
  })
}

/** UTXOID.InputID: sha256(u64 outputIndex ‖ txID) (ids.ID.Prefix), the UTXO's shared-memory key and conflict key. */
export function utxoInputID(utxoID: UTXOID): Uint8Array {
  const packed = new Uint8Array(8 + ID_LEN)
  new DataView(packed.buffer).setBigUint64(0, BigInt(utxoID.outputIndex))
  packed.set(utxoID.txID, 8)
  return new Uint8Array(createHash('sha256').update(packed).digest())
}

/** `<txID cb58>:<index>`, as avalanchego prints a UTXOID. */
export function utxoIDToString(utxoID: UTXOID): string {
  return `${cb58Encode(utxoID.txID)}:${utxoID.outputIndex}`
}

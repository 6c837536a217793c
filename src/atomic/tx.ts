/** Codec of coreth's atomic txs (plugin/evm/atomic/{import_tx,export_tx,tx}.go) and their IDs (plugin/evm/atomic/metadata.go). */
import { ID_LEN, readTransferableInput, readTransferableOutput, writeTransferableInput, writeTransferableOutput } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { type CodecReader, type CodecWriter, CODEC_VERSION, INTERFACES, TYPE_ID, marshal, unmarshal } from '../avalanche/codec.js'
import { VerifyError } from '../avalanche/errors.js'
import { SHORT_ID_LEN, readVerifiable, writeVerifiable } from '../avalanche/secp256k1fx.js'
import { sha256 } from '../util/crypto.js'
import type { EVMInput, EVMOutput, Tx, UnsignedAtomicTx } from './types.js'

/** A decoded signed tx with the byte forms every later step needs. */
export interface AtomicTx {
  readonly tx: Tx
  /** codec bytes of the unsigned tx (version + type ID + fields): what gas counts and signatures sign */
  readonly unsignedBytes: Uint8Array
  /** codec bytes of the signed tx */
  readonly signedBytes: Uint8Array
  /** sha256(signedBytes) */
  readonly id: Uint8Array
}

function readEVMOutput(r: CodecReader): EVMOutput {
  const address = r.fixed(SHORT_ID_LEN)
  const amount = r.u64()
  return { address, amount, assetID: r.fixed(ID_LEN) }
}

function readEVMInput(r: CodecReader): EVMInput {
  const address = r.fixed(SHORT_ID_LEN)
  const amount = r.u64()
  const assetID = r.fixed(ID_LEN)
  return { address, amount, assetID, nonce: r.u64() }
}

function readUnsignedTx(r: CodecReader): UnsignedAtomicTx {
  const typeID = r.typeID(INTERFACES.unsignedAtomicTx)
  const networkID = r.u32()
  const blockchainID = r.fixed(ID_LEN)
  const peerChain = r.fixed(ID_LEN)
  if (typeID === TYPE_ID.ImportTx) {
    const importedInputs = r.slice(readTransferableInput)
    return { typeID, networkID, blockchainID, sourceChain: peerChain, importedInputs, outs: r.slice(readEVMOutput) }
  }
  const ins = r.slice(readEVMInput)
  return { typeID: TYPE_ID.ExportTx, networkID, blockchainID, destinationChain: peerChain, ins, exportedOutputs: r.slice(readTransferableOutput) }
}

function writeUnsignedTx(w: CodecWriter, utx: UnsignedAtomicTx): void {
  w.u32(utx.typeID).u32(utx.networkID).fixed(utx.blockchainID, ID_LEN)
  if (utx.typeID === TYPE_ID.ImportTx) {
    w.fixed(utx.sourceChain, ID_LEN)
    w.slice(utx.importedInputs, writeTransferableInput)
    w.slice(utx.outs, (e, o) => e.fixed(o.address, SHORT_ID_LEN).u64(o.amount).fixed(o.assetID, ID_LEN))
  } else {
    w.fixed(utx.destinationChain, ID_LEN)
    w.slice(utx.ins, (e, i) => e.fixed(i.address, SHORT_ID_LEN).u64(i.amount).fixed(i.assetID, ID_LEN).u64(i.nonce))
    w.slice(utx.exportedOutputs, writeTransferableOutput)
  }
}

function writeTx(w: CodecWriter, tx: Tx): void {
  writeUnsignedTx(w, tx.unsignedTx)
  w.slice(tx.creds, writeVerifiable)
}

// Reads one Tx struct and returns it with the offsets where its credentials and its end lie.
function readTx(r: CodecReader): { tx: Tx; credsAt: number } {
  const unsignedTx = readUnsignedTx(r)
  const credsAt = r.position
  return { tx: { unsignedTx, creds: r.slice(readVerifiable) }, credsAt }
}

/** Codec bytes of an unsigned tx (`Marshal(0, &tx.UnsignedAtomicTx)`). */
export function encodeUnsignedTx(utx: UnsignedAtomicTx): Uint8Array {
  return marshal((w) => writeUnsignedTx(w, utx))
}

/** Decodes an unsigned tx's codec bytes. */
export function decodeUnsignedTx(bytes: Uint8Array): UnsignedAtomicTx {
  return unmarshal(bytes, readUnsignedTx)
}

/** Codec bytes of a signed tx = unsigned bytes ‖ u32 count ‖ credentials. */
export function encodeTx(tx: Tx): Uint8Array {
  return marshal((w) => writeTx(w, tx))
}

/** Decodes a signed tx (as `avax.issueTx` does) and computes its unsigned bytes and ID. */
export function parseTx(signedBytes: Uint8Array): AtomicTx {
  const { tx, credsAt } = unmarshal(signedBytes, readTx)
  const bytes = signedBytes.slice()
  return { tx, unsignedBytes: bytes.slice(0, credsAt), signedBytes: bytes, id: sha256(bytes) }
}

/** Encodes a tx and derives its bytes and ID (coreth Tx.Sign with no new signers). */
export function toAtomicTx(tx: Tx): AtomicTx {
  const signedBytes = encodeTx(tx)
  return { tx, unsignedBytes: encodeUnsignedTx(tx.unsignedTx), signedBytes, id: sha256(signedBytes) }
}

/** txID = sha256(signed bytes). */
export function txID(signedBytes: Uint8Array): Uint8Array {
  return sha256(signedBytes)
}

/** The txID as CB58. */
export function txIDString(tx: AtomicTx): string {
  return cb58Encode(tx.id)
}

/** What each signature signs: sha256(unsigned bytes) (atomic/tx.go Tx.Sign). */
export function signingHash(unsignedBytes: Uint8Array): Uint8Array {
  return sha256(unsignedBytes)
}

/** AP5+ block extra data: `Marshal(0, []*Tx)` (coreth atomic/codec.go). */
export function encodeAtomicTxBatch(txs: readonly Tx[]): Uint8Array {
  return marshal((w) => w.slice(txs, writeTx))
}

/** Decodes AP5+ block extra data (ExtractAtomicTxsBatch); each tx's signed bytes get their own version prefix. */
export function decodeAtomicTxBatch(extData: Uint8Array): AtomicTx[] {
  if (extData.length === 0) return []
  let spans: { tx: Tx; start: number; credsAt: number; end: number }[]
  try {
    spans = unmarshal(extData, (r) =>
      r.slice((e) => {
        const start = e.position
        const { tx, credsAt } = readTx(e)
        return { tx, start, credsAt, end: e.position }
      }),
    )
  } catch (err) {
    throw new VerifyError(`failed to unmarshal atomic tx (AP5) due to ${(err as Error).message}`)
  }
  if (spans.length === 0) throw new VerifyError('cannot build a block with non-empty extra data and zero atomic transactions')
  return spans.map(({ tx, start, credsAt, end }) => {
    const signedBytes = withVersion(extData.subarray(start, end))
    return { tx, unsignedBytes: signedBytes.slice(0, credsAt - start + 2), signedBytes, id: sha256(signedBytes) }
  })
}

function withVersion(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 2)
  new DataView(out.buffer).setUint16(0, CODEC_VERSION)
  out.set(body, 2)
  return out
}

/**
 * The JSON avalanchego's `getTx` answers for `encoding: "json"`: Go's json.Marshal of the tx structs
 * (field order as declared, embedded structs flattened; uint64 as exact JSON numbers, so the text is
 * built here rather than by JSON.stringify). Components: avalanchego vms/components/avax
 * (base_tx.go, transferables.go, utxo_id.go), vms/secp256k1fx (transfer_output.go: its map, keys
 * sorted; credential.go: signatures in hexnc), vms/platformvm/stakeable (LockIn, LockOut),
 * vms/types/blob_data.go (memo in hexnc).
 */
import { cb58Encode } from './cb58.js'
import type { OutputOwners, TransferInput, TransferOutput, UTXOID } from './types.js'

/** An fx's ID: its name's ASCII bytes, zero-padded to 32 (avalanchego: vms/secp256k1fx/fx.go ID, nftfx, propertyfx). */
export function fxID(name: 'secp256k1fx' | 'nftfx' | 'propertyfx'): string {
  const bytes = new Uint8Array(32)
  bytes.set(Buffer.from(name, 'ascii'))
  return cb58Encode(bytes)
}

/** The fx every input and output here belongs to (each `fxID`). */
export const SECP256K1FX_ID = fxID('secp256k1fx')

/** Formats an owner address as OutputOwners.InitCtx's chain does (`X-local1…`). */
export type AddressFormatter = (addr: Uint8Array) => string

const str = (s: string): string => JSON.stringify(s)
const id = (bytes: Uint8Array): string => str(cb58Encode(bytes))
const hexnc = (bytes: Uint8Array): string => str('0x' + Buffer.from(bytes).toString('hex'))
/** A JSON object from [key, JSON text] pairs, in order. */
export const object = (fields: readonly (readonly [string, string])[]): string => '{' + fields.map(([k, v]) => str(k) + ':' + v).join(',') + '}'
export const array = (items: readonly string[]): string => '[' + items.join(',') + ']'

/** secp256k1fx.OutputOwners.MarshalJSON: its Fields(), a Go map (keys sorted). */
function outputOwnersJson(owners: OutputOwners, formatAddr: AddressFormatter): string {
  return object([
    ['addresses', array(owners.addrs.map((a) => str(formatAddr(a))))],
    ['locktime', owners.locktime.toString()],
    ['threshold', String(owners.threshold)],
  ])
}

/** secp256k1fx.TransferOutput.MarshalJSON: OutputOwners.Fields() plus amount, a Go map (keys sorted). */
function transferOutputJson(out: TransferOutput, formatAddr: AddressFormatter): string {
  return object([
    ['addresses', array(out.addrs.map((a) => str(formatAddr(a))))],
    ['amount', out.amount.toString()],
    ['locktime', out.locktime.toString()],
    ['threshold', String(out.threshold)],
  ])
}

/** secp256k1fx.TransferInput: amount, then the embedded Input's signatureIndices. */
function transferInputJson(input: TransferInput): string {
  return object([
    ['amount', input.amount.toString()],
    ['signatureIndices', array(input.sigIndices.map(String))],
  ])
}

/** avax.TransferableOutput: assetID, fxID, output (a stakeable.LockOut `{locktime, output}` when locked). */
export function transferableOutputJson(v: { assetID: Uint8Array; out: TransferOutput; locktime?: bigint }, formatAddr: AddressFormatter): string {
  const out = transferOutputJson(v.out, formatAddr)
  const wrapped =
    v.locktime === undefined
      ? out
      : object([
          ['locktime', v.locktime.toString()],
          ['output', out],
        ])
  return object([
    ['assetID', id(v.assetID)],
    ['fxID', str(SECP256K1FX_ID)],
    ['output', wrapped],
  ])
}

/** avax.TransferableInput: the UTXOID's txID and outputIndex, assetID, fxID, input (a stakeable.LockIn `{locktime, input}` when locked). */
export function transferableInputJson(v: { utxoID: UTXOID; assetID: Uint8Array; in: TransferInput; locktime?: bigint }): string {
  const input = transferInputJson(v.in)
  const wrapped =
    v.locktime === undefined
      ? input
      : object([
          ['locktime', v.locktime.toString()],
          ['input', input],
        ])
  return object([
    ['txID', id(v.utxoID.txID)],
    ['outputIndex', String(v.utxoID.outputIndex)],
    ['assetID', id(v.assetID)],
    ['fxID', str(SECP256K1FX_ID)],
    ['input', wrapped],
  ])
}

/** secp256k1fx.Credential.MarshalJSON: `{"signatures": [hexnc…]}`. */
export function credentialJson(sigs: readonly Uint8Array[]): string {
  return object([['signatures', array(sigs.map(hexnc))]])
}

type OutputJson = Parameters<typeof transferableOutputJson>[0]
type InputJson = Parameters<typeof transferableInputJson>[0]

/** What an unsigned tx adds to avax.BaseTx: an ImportTx its source and inputs, an ExportTx its destination and outputs. */
export type TxJsonExtra =
  | { sourceChain: Uint8Array; importedInputs: readonly InputJson[] }
  | { destinationChain: Uint8Array; exportedOutputs: readonly OutputJson[] }
  | { owner: OutputOwners }
  | undefined

/**
 * A signed tx: `{unsignedTx, credentials, id}`, the unsigned tx being avax.BaseTx's fields flattened
 * (networkID, blockchainID, outputs, inputs, memo) and then the ImportTx's or ExportTx's own.
 */
export function signedTxJson(
  tx: { networkID: number; blockchainID: Uint8Array; outs: readonly OutputJson[]; ins: readonly InputJson[]; memo: Uint8Array },
  extra: TxJsonExtra,
  credentials: readonly string[],
  txID: Uint8Array,
  formatAddr: AddressFormatter,
): string {
  const outputs = (outs: readonly OutputJson[]): string => array(outs.map((o) => transferableOutputJson(o, formatAddr)))
  const fields: [string, string][] = [
    ['networkID', String(tx.networkID)],
    ['blockchainID', id(tx.blockchainID)],
    ['outputs', outputs(tx.outs)],
    ['inputs', array(tx.ins.map(transferableInputJson))],
    ['memo', hexnc(tx.memo)],
  ]
  if (extra !== undefined && 'sourceChain' in extra) fields.push(['sourceChain', id(extra.sourceChain)], ['importedInputs', array(extra.importedInputs.map(transferableInputJson))])
  if (extra !== undefined && 'destinationChain' in extra) fields.push(['destinationChain', id(extra.destinationChain)], ['exportedOutputs', outputs(extra.exportedOutputs)])
  if (extra !== undefined && 'owner' in extra) fields.push(['owner', outputOwnersJson(extra.owner, formatAddr)])
  return object([
    ['unsignedTx', object(fields)],
    ['credentials', array(credentials)],
    ['id', id(txID)],
  ])
}

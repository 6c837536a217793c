/**
 * The atomic-tx data model, field for field as coreth serializes it (coreth: plugin/evm/atomic/tx.go,
 * import_tx.go, export_tx.go); the secp256k1fx and avax components are in src/avalanche/types.ts.
 */
import type { TYPE_ID } from '../avalanche/codec.js'
import type { TransferableInput, TransferableOutput, Verifiable } from '../avalanche/types.js'

/** atomic.EVMOutput (import credit), 60 bytes. */
export interface EVMOutput {
  /** DATA, 20 bytes */
  address: Uint8Array
  /** QUANTITY, nAVAX */
  amount: bigint
  assetID: Uint8Array
}

/** atomic.EVMInput (export debit), 68 bytes. */
export interface EVMInput {
  /** DATA, 20 bytes */
  address: Uint8Array
  /** QUANTITY, nAVAX */
  amount: bigint
  assetID: Uint8Array
  nonce: bigint
}

/** atomic.UnsignedImportTx (type 0). */
export interface UnsignedImportTx {
  typeID: typeof TYPE_ID.ImportTx
  networkID: number
  blockchainID: Uint8Array
  sourceChain: Uint8Array
  importedInputs: TransferableInput[]
  outs: EVMOutput[]
}

/** atomic.UnsignedExportTx (type 1). */
export interface UnsignedExportTx {
  typeID: typeof TYPE_ID.ExportTx
  networkID: number
  blockchainID: Uint8Array
  destinationChain: Uint8Array
  ins: EVMInput[]
  exportedOutputs: TransferableOutput[]
}

export type UnsignedAtomicTx = UnsignedImportTx | UnsignedExportTx

/** atomic.Tx: the unsigned tx (interface) and its credentials. */
export interface Tx {
  unsignedTx: UnsignedAtomicTx
  creds: Verifiable[]
}

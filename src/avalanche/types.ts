/**
 * The secp256k1fx and avax component types shared by the C-Chain's atomic txs and the X and P chains,
 * field for field as avalanchego serializes them (avalanchego: vms/secp256k1fx, vms/components/avax).
 * IDs are 32-byte, addresses 20-byte, signatures 65-byte Uint8Arrays; uint64 amounts are bigint.
 */
import type { TYPE_ID } from './codec.js'

/** secp256k1fx.Input: the owner indices whose signatures spend an output (strictly ascending). */
export interface Input {
  /** u32 indices into the consumed output's addresses */
  sigIndices: number[]
}

/** secp256k1fx.TransferInput (type 5): amount ‖ Input (inlined). */
export interface TransferInput extends Input {
  /** QUANTITY, nAVAX */
  amount: bigint
}

/** secp256k1fx.OutputOwners (type 11). */
export interface OutputOwners {
  /** unix seconds before which the output cannot be spent */
  locktime: bigint
  threshold: number
  /** 20-byte short addresses, sorted and unique */
  addrs: Uint8Array[]
}

/** secp256k1fx.TransferOutput (type 7): amount ‖ OutputOwners (inlined). */
export interface TransferOutput extends OutputOwners {
  /** QUANTITY, nAVAX */
  amount: bigint
}

/** secp256k1fx.Credential (type 9): 65-byte r ‖ s ‖ v signatures. */
export interface Credential {
  sigs: Uint8Array[]
}

/** What a tx's credential slot may hold: any registered type with `Verify() error` (verify.Verifiable). */
export type Verifiable =
  | ({ typeID: typeof TYPE_ID.Credential } & Credential)
  | ({ typeID: typeof TYPE_ID.TransferInput } & TransferInput)
  | ({ typeID: typeof TYPE_ID.TransferOutput } & TransferOutput)
  | ({ typeID: typeof TYPE_ID.Input } & Input)
  | ({ typeID: typeof TYPE_ID.OutputOwners } & OutputOwners)

/** avax.UTXOID: the producing tx and the output's index in it. */
export interface UTXOID {
  txID: Uint8Array
  outputIndex: number
}

/** avax.TransferableInput: UTXOID ‖ assetID ‖ in (type ID + TransferInput). */
export interface TransferableInput {
  utxoID: UTXOID
  assetID: Uint8Array
  in: TransferInput
}

/** avax.TransferableOutput: assetID ‖ out (type ID + TransferOutput). */
export interface TransferableOutput {
  assetID: Uint8Array
  out: TransferOutput
}

/** avax.UTXO: UTXOID ‖ assetID ‖ out (type ID + TransferOutput); stored with the codec version. */
export interface UTXO {
  utxoID: UTXOID
  assetID: Uint8Array
  out: TransferOutput
}

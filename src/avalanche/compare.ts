/**
 * The orders avalanchego sorts and checks avax components by (avalanchego: utils/sorting.go,
 * vms/components/avax/transferables.go): inputs by UTXO ID, outputs by asset then codec bytes.
 */
import { CodecWriter, TYPE_ID } from './codec.js'
import { writeTransferOutput } from './secp256k1fx.js'
import type { TransferableInput, TransferableOutput, TransferOutput } from './types.js'

/** bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b)
}

/** utils.IsSortedAndUnique / slices.IsSortedFunc over a comparator. */
export function isSorted<T>(items: readonly T[], compare: (a: T, b: T) => number, strict: boolean): boolean {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]!, items[i]!)
    if (c > 0 || (strict && c === 0)) return false
  }
  return true
}

/** TransferableInput.Compare: (txID bytes, outputIndex). */
export function compareTransferableInputs(a: TransferableInput, b: TransferableInput): number {
  return compareBytes(a.utxoID.txID, b.utxoID.txID) || a.utxoID.outputIndex - b.utxoID.outputIndex
}

function outputCodecBytes(out: TransferOutput): Uint8Array {
  const w = new CodecWriter().u32(TYPE_ID.TransferOutput)
  writeTransferOutput(w, out)
  return w.finish()
}

/** avax.SortTransferableOutputs order: assetID, then the codec bytes of the output (type ID included). */
export function compareTransferableOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(a.assetID, b.assetID) || compareBytes(outputCodecBytes(a.out), outputCodecBytes(b.out))
}

/** Sorts in place as the builders must (inputs by UTXOID, outputs by asset then bytes). */
export const sortTransferableInputs = (ins: TransferableInput[]): TransferableInput[] => ins.sort(compareTransferableInputs)
export const sortTransferableOutputs = (outs: TransferableOutput[]): TransferableOutput[] => outs.sort(compareTransferableOutputs)

/**
 * Syntactic checks of the secp256k1fx and avax components (avalanchego: vms/secp256k1fx/input.go,
 * output_owners.go, transfer_output.go; vms/components/avax/transferables.go Verify), with their texts.
 */
import { compareBytes, isSorted } from './compare.js'
import { VerifyError } from './errors.js'
import type { OutputOwners, TransferableInput, TransferableOutput, TransferInput, TransferOutput } from './types.js'

function fail(message: string): never {
  throw new VerifyError(message)
}

/** ids.Empty. */
export const isEmptyID = (id: Uint8Array): boolean => id.every((b) => b === 0)

/** secp256k1fx.Input.Verify (sig indices strictly ascending) inside TransferInput.Verify. */
export function verifyTransferInput(input: TransferInput): void {
  if (input.amount === 0n) fail('input has no value')
  if (!isSorted(input.sigIndices, (a, b) => a - b, true)) fail('address indices not sorted and unique')
}

/** secp256k1fx.OutputOwners.Verify. */
export function verifyOutputOwners(owners: OutputOwners): void {
  if (owners.threshold > owners.addrs.length) fail('output is unspendable')
  if (owners.threshold === 0 && owners.addrs.length > 0) fail('output representation should be optimized')
  if (!isSorted(owners.addrs, compareBytes, true)) fail('addresses not sorted and unique')
}

/** secp256k1fx.TransferOutput.Verify. */
export function verifyTransferOutput(out: TransferOutput): void {
  if (out.amount === 0n) fail('output has no value')
  verifyOutputOwners(out)
}

/** avax.TransferableOutput.Verify: asset, then the output. */
export function verifyTransferableOutput(out: TransferableOutput | undefined): void {
  if (out === undefined || out === null) fail('nil transferable output is not valid')
  if (out.out === undefined || out.out === null) fail('nil transferable feature extension output is not valid')
  if (isEmptyID(out.assetID)) fail('empty asset ID is not valid')
  verifyTransferOutput(out.out)
}

/** avax.TransferableInput.Verify: the input, then the asset. */
export function verifyTransferableInput(input: TransferableInput): void {
  if (input.in === undefined || input.in === null) fail('nil transferable feature extension input is not valid')
  if (isEmptyID(input.assetID)) fail('empty asset ID is not valid')
  verifyTransferInput(input.in)
}

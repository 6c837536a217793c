/**
 * secp256k1fx spending (avalanchego: vms/secp256k1fx/fx.go VerifyTransfer, VerifyCredentials): a UTXO's
 * output, the input that consumes it and the credential whose signatures authorize it.
 */
import { cb58Encode } from './cb58.js'
import { TYPE_ID } from './codec.js'
import { VerifyError } from './errors.js'
import { recoverSigner } from './signature.js'
import type { Input, OutputOwners, TransferInput, TransferOutput, Verifiable } from './types.js'
import { verifyTransferInput, verifyTransferOutput } from './verify.js'

function fail(message: string): never {
  throw new VerifyError(message)
}

/** secp256k1fx VerifyCredentials: time lock, signer counts, then each signature against the owners. */
export function verifyCredentials(signingHash: Uint8Array, input: Input, sigs: readonly Uint8Array[], owners: OutputOwners, nowUnix: bigint): void {
  const numSigs = input.sigIndices.length
  if (owners.locktime > nowUnix) fail('output is time locked')
  if (owners.threshold < numSigs) fail('input has more signers than expected')
  if (owners.threshold > numSigs) fail('input has less signers than expected')
  if (numSigs !== sigs.length) fail('input expected a different number of signers than provided in the credential')
  input.sigIndices.forEach((index, i) => {
    if (index >= owners.addrs.length) fail('input referenced a nonexistent address in the output')
    const got = recoverSigner(signingHash, sigs[i]!).shortAddress
    const expected = owners.addrs[index]!
    if (Buffer.compare(got, expected) !== 0) {
      fail(`wrong signature: expected signature from ${cb58Encode(expected)} but got from ${cb58Encode(got)}`)
    }
  })
}

/**
 * secp256k1fx VerifyTransfer of one input against the UTXO's output. Errors are bare; coreth wraps them
 * as `import tx transfer failed verification: <err>`. Signature errors surface as SignatureError.
 */
export function verifySpend(signingHash: Uint8Array, input: TransferInput, cred: Verifiable, utxoOut: TransferOutput, nowUnix: bigint): void {
  if (cred.typeID !== TYPE_ID.Credential) fail('wrong credential type')
  verifyTransferOutput(utxoOut)
  verifyTransferInput(input)
  if (utxoOut.amount !== input.amount) fail(`utxo amount and input amount are not equal: ${utxoOut.amount} != ${input.amount}`)
  verifyCredentials(signingHash, input, cred.sigs, utxoOut, nowUnix)
}

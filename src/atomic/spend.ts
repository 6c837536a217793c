/**
 * Building blocks of coreth's semantic verification (coreth: plugin/evm/atomic/vm/tx_semantic_verifier.go;
 * avalanchego: vms/components/avax/flow_checker.go): flow check, credential counts, EVM input signatures.
 * UTXO spends are secp256k1fx's (src/avalanche/spend.ts).
 */
import { TYPE_ID } from '../avalanche/codec.js'
import { FlowChecker } from '../avalanche/flowChecker.js'
import { VerifyError } from '../avalanche/errors.js'
import { recoverSigner } from '../avalanche/signature.js'
import type { Verifiable } from '../avalanche/types.js'
import type { EVMInput, UnsignedAtomicTx } from './types.js'

function fail(message: string): never {
  throw new VerifyError(message)
}

/**
 * The flow check: the tx must consume at least what it produces per asset, counting `feeNAVAX` of AVAX as produced.
 * Throws `import|export tx flow check failed due to: insufficient funds` (or `overflow`).
 */
export function verifyFlow(utx: UnsignedAtomicTx, avaxAssetID: Uint8Array, feeNAVAX: bigint): void {
  const flow = new FlowChecker()
  flow.produce(avaxAssetID, feeNAVAX)
  const kind = utx.typeID === TYPE_ID.ImportTx ? 'import' : 'export'
  if (utx.typeID === TYPE_ID.ImportTx) {
    for (const out of utx.outs) flow.produce(out.assetID, out.amount)
    for (const input of utx.importedInputs) flow.consume(input.assetID, input.in.amount)
  } else {
    for (const out of utx.exportedOutputs) flow.produce(out.assetID, out.out.amount)
    for (const input of utx.ins) flow.consume(input.assetID, input.amount)
  }
  const failure = flow.verify()
  if (failure !== undefined) fail(`${kind} tx flow check failed due to: ${failure}`)
}

/** The credential-count rule of each kind, with coreth's two wordings. */
export function verifyCredentialCount(utx: UnsignedAtomicTx, creds: readonly Verifiable[]): void {
  if (utx.typeID === TYPE_ID.ImportTx) {
    if (creds.length !== utx.importedInputs.length) {
      fail(`incorrect number of credentials: (${utx.importedInputs.length} vs. ${creds.length})`)
    }
  } else if (creds.length !== utx.ins.length) {
    fail(`export tx contained incorrect number of credentials want ${utx.ins.length} got ${creds.length}`)
  }
}

/** The export rule per EVMInput: one secp256k1fx credential with exactly one signature by the input's EVM address. */
export function verifyEVMInputCredential(signingHash: Uint8Array, input: EVMInput, cred: Verifiable): void {
  if (cred.typeID !== TYPE_ID.Credential) fail('expected *secp256k1fx.Credential but got *secp256k1fx.Credential')
  if (cred.sigs.length !== 1) fail(`incorrect number of signatures want 1 signature for EVM Input Credential, but got ${cred.sigs.length}`)
  const signer = recoverSigner(signingHash, cred.sigs[0]!)
  if (Buffer.compare(signer.ethAddress, input.address) !== 0) fail("signature doesn't match public key")
}

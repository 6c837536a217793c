/**
 * Building blocks of coreth's semantic verification (coreth: plugin/evm/atomic/vm/tx_semantic_verifier.go;
 * avalanchego: vms/components/avax/flow_checker.go): flow check, credential counts, EVM input signatures.
 * UTXO spends are secp256k1fx's (src/avalanche/spend.ts).
 */
import { TYPE_ID } from '../avalanche/codec.js'
import { VerifyError } from '../avalanche/errors.js'
import { recoverSigner } from '../avalanche/signature.js'
import type { Verifiable } from '../avalanche/types.js'
import type { EVMInput, UnsignedAtomicTx } from './types.js'

const UINT64_MAX = 0xffffffffffffffffn

function fail(message: string): never {
  throw new VerifyError(message)
}

/**
 * The flow check: the tx must consume at least what it produces per asset, counting `feeNAVAX` of AVAX as produced.
 * Throws `import|export tx flow check failed due to: insufficient funds` (or `overflow`).
 */
export function verifyFlow(utx: UnsignedAtomicTx, avaxAssetID: Uint8Array, feeNAVAX: bigint): void {
  const produced = new Map<string, bigint>()
  const consumed = new Map<string, bigint>()
  let overflow = false
  const add = (m: Map<string, bigint>, asset: Uint8Array, amount: bigint): void => {
    const key = Buffer.from(asset).toString('hex')
    const sum = (m.get(key) ?? 0n) + amount
    if (sum > UINT64_MAX) overflow = true
    m.set(key, sum > UINT64_MAX ? sum - UINT64_MAX - 1n : sum)
  }
  add(produced, avaxAssetID, feeNAVAX)
  const kind = utx.typeID === TYPE_ID.ImportTx ? 'import' : 'export'
  if (utx.typeID === TYPE_ID.ImportTx) {
    for (const out of utx.outs) add(produced, out.assetID, out.amount)
    for (const input of utx.importedInputs) add(consumed, input.assetID, input.in.amount)
  } else {
    for (const out of utx.exportedOutputs) add(produced, out.assetID, out.out.amount)
    for (const input of utx.ins) add(consumed, input.assetID, input.amount)
  }
  if (overflow) fail(`${kind} tx flow check failed due to: overflow`)
  for (const [asset, amount] of produced) {
    if (amount > (consumed.get(asset) ?? 0n)) fail(`${kind} tx flow check failed due to: insufficient funds`)
  }
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

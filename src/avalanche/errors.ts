/**
 * Domain errors of the Avalanche primitives (codec, text formats, signatures, secp256k1fx rules) and
 * the base of every Avalanche-side error (atomic, X-Chain, P-Chain). Messages copy avalanchego's
 * wording (clients match text); src/rpc/errors.ts maps them to codes.
 */
export class AvalancheError extends Error {
  override name = 'AvalancheError'
}

/** Malformed codec bytes (avalanchego: codec/manager.go, codec/reflectcodec, utils/wrappers/packing.go). */
export class CodecError extends AvalancheError {
  override name = 'CodecError'
}

/** A tx that breaks a syntactic or semantic rule (coreth: plugin/evm/atomic; avalanchego: vms/secp256k1fx). */
export class VerifyError extends AvalancheError {
  override name = 'VerifyError'
}

/** Bad text: CB58, API hex, bech32 addresses, chain aliases, private keys (avalanchego: utils/formatting, utils/cb58). */
export class FormatError extends AvalancheError {
  override name = 'FormatError'
}

/** A signature that cannot be recovered (avalanchego: utils/crypto/secp256k1). */
export class SignatureError extends AvalancheError {
  override name = 'SignatureError'
}

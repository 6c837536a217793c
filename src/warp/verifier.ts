import type { SignedMessage } from './message.js'
import { canonicalValidators, verifyWarpMessage } from './signature.js'

/** Warp's quorum (coreth warp config: WarpDefaultQuorumNumerator / WarpQuorumDenominator). */
const QUORUM_NUM = 67n
const QUORUM_DEN = 100n

/**
 * How the node verifies a predicate's signed message (coreth warp/config.go VerifyPredicate): the
 * source must be one of the node's chains or the P-Chain (GetSubnetID knows no other), and the
 * signature must carry 67/100 of the weight of the validator set that applies, which for every
 * subnet here is the node alone, with its BLS key (docs/WARP.md).
 */
export function nodeVerifier(networkID: number, publicKey: Uint8Array, chainIDs: readonly Uint8Array[]): (message: SignedMessage) => boolean {
  const known = new Set(chainIDs.map((id) => Buffer.from(id).toString('hex')))
  const set = canonicalValidators([{ publicKey, weight: 1n }])
  return (message) => {
    if (!known.has(Buffer.from(message.unsigned.sourceChainID).toString('hex'))) return false
    try {
      verifyWarpMessage(message, networkID, set, QUORUM_NUM, QUORUM_DEN)
      return true
    } catch {
      return false
    }
  }
}

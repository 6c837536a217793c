import { type SignedMessage, decodeSignedMessage } from './message.js'
import { decodePayload } from './payload.js'
import { PredicateError, unpackPredicate } from './predicate.js'
import { equalsBytes } from '@ethereumjs/util'
import { WARP_ADDRESS_BYTES, WARP_GAS } from './warpConstants.js'

/*
 * A transaction's Warp predicates (coreth core/state_transition.go accessListGas, core/predicate_check.go,
 * precompile/contracts/warp/config.go PredicateGas and VerifyPredicate): each access-list tuple for
 * the precompile's address is one predicate, a packed signed message; it is priced instead of
 * EIP-2930's tuple gas, a predicate that does not parse makes the transaction invalid, and one whose
 * signature does not verify sets its bit in the transaction's results (the transaction still runs).
 */

/** EIP-2930's gas per tuple and per storage key, which a predicate's gas replaces. */
const ACCESS_LIST_ADDRESS_GAS = 2400n
const ACCESS_LIST_STORAGE_KEY_GAS = 1900n

/** One predicate of a transaction: its 32-byte keys and the signed message they carry. */
export interface WarpPredicate {
  chunks: number
  message: SignedMessage
}

/** The storage keys of each tuple of `accessList` for the Warp precompile, in order. */
function warpTuples(accessList: readonly (readonly [Uint8Array, readonly Uint8Array[]])[] | undefined): (readonly Uint8Array[])[] {
  const out: (readonly Uint8Array[])[] = []
  for (const [address, keys] of accessList ?? []) if (equalsBytes(address, WARP_ADDRESS_BYTES)) out.push(keys)
  return out
}

/** The number of set bits of a BitSetSignature's signers. */
function signerCount(bits: Uint8Array): number {
  let n = 0
  for (let byte of bits) {
    while (byte !== 0) {
      n += byte & 1
      byte >>= 1
    }
  }
  return n
}

/**
 * The transaction's Warp predicates, parsed; throws PredicateError for one that does not parse (the
 * transaction is invalid: coreth's IntrinsicGas fails). Undefined when it has none.
 */
export function warpPredicates(accessList: readonly (readonly [Uint8Array, readonly Uint8Array[]])[] | undefined): WarpPredicate[] | undefined {
  const tuples = warpTuples(accessList)
  if (tuples.length === 0) return undefined
  // coreth warp/config.go PredicateGas: each step's failure in its words, wrapping the cause.
  const step = <T>(what: string, fn: () => T): T => {
    try {
      return fn()
    } catch (err) {
      throw new PredicateError(`${what}: ${(err as Error).message}`)
    }
  }
  return tuples.map((keys) => {
    const bytes = step('cannot unpack predicate bytes', () => unpackPredicate(keys))
    const message = step('cannot unpack warp message', () => decodeSignedMessage(bytes))
    step('cannot unpack warp message payload', () => decodePayload(message.unsigned.payload))
    const signers = message.signature.signers
    if (signers.length > 0 && signers[0] === 0) throw new PredicateError('cannot fetch num signers from warp message: bitset is invalid')
    return { chunks: keys.length, message }
  })
}

/** What the predicates change in the intrinsic gas: their predicate gas in place of EIP-2930's gas for their tuples. */
export function predicateGasAdjustment(predicates: readonly WarpPredicate[]): bigint {
  let delta = 0n
  for (const p of predicates) {
    const predicateGas = WARP_GAS.verifyPredicateBase + WARP_GAS.perWarpMessageChunk * BigInt(p.chunks) + WARP_GAS.perWarpSigner * BigInt(signerCount(p.message.signature.signers))
    delta += predicateGas - (ACCESS_LIST_ADDRESS_GAS + ACCESS_LIST_STORAGE_KEY_GAS * BigInt(p.chunks))
  }
  return delta
}

/** The transaction's results bitset (big-endian, minimal): bit i set = predicate i failed verification; empty when all verified. */
export function predicateResults(predicates: readonly WarpPredicate[], verifies: (message: SignedMessage) => boolean): Uint8Array {
  let bits = 0n
  predicates.forEach((p, i) => {
    if (!verifies(p.message)) bits |= 1n << BigInt(i)
  })
  if (bits === 0n) return new Uint8Array(0)
  const hex = bits.toString(16)
  return Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'))
}

/** Whether predicate `index` was verified: it exists and its bit is not set (contract_warp_handler.go). */
export function predicateValid(results: Uint8Array, index: number): boolean {
  const byte = results.length - 1 - Math.floor(index / 8)
  return byte < 0 || ((results[byte]! >> (index % 8)) & 1) === 0
}

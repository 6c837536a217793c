import type { BlockRef } from '../../engine/base/types.js'

/*
 * Where a forked chain answers a call about a block (docs/FORK.md, "What a fork serves from its
 * origin"): blocks up to the fork point N, their txs, receipts and logs, and the state before N are
 * the origin's; block N's state and everything after is the local chain's. Pure decisions, so each
 * rule is tested alone (test/unit/namespaces/fork/forkRoutes.test.ts).
 */

/** A block number or tag (geth rpc.BlockNumber), as the schemas parse it. */
export type NumberOrTag = Exclude<BlockRef, { blockHash: Uint8Array }>

/** Ask the origin: with the client's params (`at` undefined) or with the block position set to `at`. */
export interface ToOrigin {
  readonly origin: true
  readonly at?: bigint
}
export type Target = ToOrigin | { readonly origin: false }

const LOCAL: Target = Object.freeze({ origin: false })
const VERBATIM: Target = Object.freeze({ origin: true })

/**
 * A block looked up by number or tag: a number up to N and `earliest` are the origin's blocks; a tag
 * names the local head, which is block N itself until the fork builds a block, and block N's JSON is
 * the origin's (its Avalanche fields included), so a tag at N asks the origin for N by number.
 */
export function blockTarget(ref: NumberOrTag, point: bigint, head: bigint): Target {
  if (ref === 'earliest') return VERBATIM
  if (typeof ref === 'bigint') return ref <= point ? VERBATIM : LOCAL
  return head <= point ? { origin: true, at: point } : LOCAL
}

/**
 * A block looked up by hash, given the number of the local block with that hash (undefined: none):
 * the local chain answers for its own blocks after N; block N and any other hash are asked of the
 * origin, whose answer counts only if its block is at or before N (checked on the answer).
 */
export function hashTarget(localNumber: bigint | undefined, point: bigint): Target {
  return localNumber !== undefined && localNumber > point ? LOCAL : VERBATIM
}

/** State or execution at a block: local, the origin, or the origin once its block with this hash is known to be before N. */
export type StateTarget = 'local' | 'origin' | 'originByHash'

/**
 * State at a block: before N it is the origin's (the local chain holds no state before N); at N and
 * after, and at every tag, it is the local chain's (block N's state is fetched lazily from the origin
 * by the engine). A hash the local chain knows is local; another is the origin's if its block is
 * before N.
 */
export function stateTarget(ref: BlockRef | undefined, point: bigint, localNumberOfHash: (hash: Uint8Array) => bigint | undefined): StateTarget {
  if (ref === undefined) return 'local'
  if (ref === 'earliest') return 'origin'
  if (typeof ref === 'bigint') return ref < point ? 'origin' : 'local'
  if (typeof ref === 'string') return 'local'
  return localNumberOfHash(ref.blockHash) === undefined ? 'originByHash' : 'local'
}

/**
 * A transaction looked up by hash, given what the local chain knows of it: pooled, mined at a block
 * number, or unknown. Local txs (pooled, or mined after N) are local; any other is asked of the origin,
 * whose answer counts only if it was mined at or before N.
 */
export function txTarget(local: 'pooled' | bigint | undefined, point: bigint): Target {
  if (local === 'pooled') return LOCAL
  return local !== undefined && local > point ? LOCAL : VERBATIM
}

/** Whether an origin's `blockNumber`/`number` field (hex quantity; null while pending) names a block on the fork (at or before N). */
export function onFork(number: unknown, point: bigint): boolean {
  return typeof number === 'string' && /^0x[0-9a-fA-F]+$/.test(number) && BigInt(number) <= point
}

/** A log range split at N: the part the origin serves (up to N) and the part the local chain serves (after N). */
export interface LogSplit {
  readonly origin?: { readonly from: bigint; readonly to: bigint }
  readonly local?: { readonly from: bigint; readonly to: bigint }
}

/** Splits the block range from..to (from ≤ to) at the fork point N. */
export function splitLogRange(from: bigint, to: bigint, point: bigint): LogSplit {
  const out: { origin?: LogSplit['origin']; local?: LogSplit['local'] } = {}
  if (from <= point) out.origin = { from, to: to < point ? to : point }
  if (to > point) out.local = { from: from > point ? from : point + 1n, to }
  return out
}

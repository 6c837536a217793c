import type { OriginClient } from '../fork/originClient.js'

/** Where a fork starts: the origin's block N, its hash and state root, and the origin's chain ID. */
export interface ForkPoint {
  /** The origin's block the fork starts from (N): blocks up to it are the origin's, later ones this node's. */
  readonly number: bigint
  readonly hash: Uint8Array
  readonly stateRoot: Uint8Array
  readonly chainId: bigint
}

/** A forked chain's origin and fork point (docs/FORK.md); undefined on a chain of its own. */
export interface Fork {
  readonly origin: OriginClient
  readonly point: ForkPoint
}

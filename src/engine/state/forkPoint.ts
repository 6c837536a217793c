import type { OriginClient } from '../../fork/originClient.js'
import type { ForkRecord } from '../../store/forkRecord.js'

/** Where a fork starts: the origin's block N (number, hash, state root, its JSON) and the origin's chain ID. */
export type ForkPoint = ForkRecord

/** A forked chain's origin and fork point (docs/FORK.md); undefined on a chain of its own. */
export interface Fork {
  readonly origin: OriginClient
  readonly point: ForkPoint
}

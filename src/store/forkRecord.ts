import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import type { BatchOp, Database } from './db.js'
import { META_FORK, metaKey } from './keys.js'

/** Where a forked chain starts (src/engine/state/forkPoint.ts) and the origin's block there, as JSON text. */
export interface ForkRecord {
  number: bigint
  hash: Uint8Array
  stateRoot: Uint8Array
  chainId: bigint
  blockJson: string
}

/** The fork record of the database, if it holds a fork. */
export function readForkRecord(db: Database): ForkRecord | undefined {
  const bytes = db.getSync(metaKey(META_FORK))
  if (bytes === undefined || bytes === null) return undefined
  const [number, hash, stateRoot, chainId, json] = RLP.decode(bytes) as Uint8Array[]
  return { number: bytesToBigInt(number!), hash: hash!, stateRoot: stateRoot!, chainId: bytesToBigInt(chainId!), blockJson: new TextDecoder().decode(json) }
}

/** The op writing a fork record, for the batch that writes the fork's first block. */
export function forkRecordOp(r: ForkRecord): BatchOp {
  const value = RLP.encode([bigIntToUnpaddedBytes(r.number), r.hash, r.stateRoot, bigIntToUnpaddedBytes(r.chainId), new TextEncoder().encode(r.blockJson)])
  return { type: 'put', key: metaKey(META_FORK), value }
}

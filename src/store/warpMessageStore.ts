/**
 * The Warp messages a chain's accepted blocks sent: message ID -> (height, unsigned message bytes),
 * as coreth's warp database keeps them for warp_getMessage and signing (graft/coreth/warp/backend.go
 * AddMessage). Written in the batch of the block that sends them, so a revert of the block takes them back.
 */
import type { BatchOp, Database } from './db.js'
import { decodeHeightRecord, encodeHeightRecord } from './heightRecord.js'
import { PREFIX, prefixed } from './keys.js'

export interface StoredWarpMessage {
  /** Height of the block that sent it. */
  height: bigint
  unsigned: Uint8Array
}

export class WarpMessageStore {
  constructor(private readonly db: Database) {}

  get(messageID: Uint8Array): StoredWarpMessage | undefined {
    const v = this.db.getSync(prefixed(PREFIX.warpMessage, messageID))
    if (v === undefined || v === null) return undefined
    const { height, bytes } = decodeHeightRecord(v)
    return { height, unsigned: bytes }
  }

  /** The op that stores a message the block at `height` sent (for the block's batch). */
  putOp(messageID: Uint8Array, height: bigint, unsigned: Uint8Array): BatchOp {
    return { type: 'put', key: prefixed(PREFIX.warpMessage, messageID), value: encodeHeightRecord(height, unsigned) }
  }
}

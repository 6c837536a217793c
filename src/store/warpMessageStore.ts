/**
 * The Warp messages a chain's accepted blocks sent: message ID -> (height, unsigned message bytes),
 * as coreth's warp database keeps them for warp_getMessage and signing (graft/coreth/warp/backend.go
 * AddMessage). Written in the batch of the block that sends them, so a revert of the block takes them back.
 */
import type { BatchOp, Database } from './db.js'
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
    return { height: new DataView(v.buffer, v.byteOffset, 8).getBigUint64(0), unsigned: new Uint8Array(v.subarray(8)) }
  }

  /** The op that stores a message the block at `height` sent (for the block's batch). */
  putOp(messageID: Uint8Array, height: bigint, unsigned: Uint8Array): BatchOp {
    const value = new Uint8Array(8 + unsigned.length)
    new DataView(value.buffer).setBigUint64(0, height)
    value.set(unsigned, 8)
    return { type: 'put', key: prefixed(PREFIX.warpMessage, messageID), value }
  }
}

/**
 * Accepted atomic transactions: txID -> (height, signed tx bytes), as coreth's atomic repository
 * (plugin/evm/atomic/state/atomic_repository.go). Written in the batch of the block that accepts them.
 */
import type { BatchOp, Database } from './db.js'
import { decodeHeightRecord, encodeHeightRecord } from './heightRecord.js'
import { PREFIX, prefixed } from './keys.js'

/** An accepted atomic tx as stored. */
export interface StoredAtomicTx {
  /** height of the accepting block */
  height: bigint
  /** codec bytes of the signed tx (with the codec version) */
  signedBytes: Uint8Array
}

export class AtomicTxStore {
  constructor(private readonly db: Database) {}

  /** The accepted tx with this ID, if any. */
  get(txID: Uint8Array): StoredAtomicTx | undefined {
    const v = this.db.getSync(prefixed(PREFIX.atomicTx, txID))
    if (v === undefined || v === null) return undefined
    const { height, bytes } = decodeHeightRecord(v)
    return { height, signedBytes: bytes }
  }

  /** The op that records `txID` as accepted at `height` (for the block's batch). */
  putOp(txID: Uint8Array, height: bigint, signedBytes: Uint8Array): BatchOp {
    return { type: 'put', key: prefixed(PREFIX.atomicTx, txID), value: encodeHeightRecord(height, signedBytes) }
  }
}

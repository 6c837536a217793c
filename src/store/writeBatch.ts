import type { BatchOp } from './batchOp.js'
import type { Database } from './database.js'

export type { BatchOp } from './batchOp.js'
export type { Database } from './database.js'

/**
 * Writes a batch as one atomic write, without the snapshot journal (db.ts writeSynced adds it; the
 * journal's own writes come here): logged before it returns, so it outlives a crash of the process,
 * and read by every reader at once (src/store/database.ts). With `pause`, the block builder's pacer
 * runs between slices of a big batch first; a pause that throws writes nothing.
 */
export function writeBatch(db: Database, ops: readonly BatchOp[], pause?: () => Promise<void>): Promise<void> {
  return db.write(ops, { pause })
}

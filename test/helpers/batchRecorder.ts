import type { Database } from '../../src/store/db.js'

/** One atomic write to the database: the keys it put or deleted, in order, and how it was written. */
export interface RecordedBatch {
  keys: Uint8Array[]
  options: { sync?: boolean } | undefined
}

/**
 * Records every atomic write to `db` until `stop()`: every batch, put and delete of the store reaches
 * Database.write (src/store/database.ts). The writes go through.
 */
export function recordBatches(db: Database): { batches: RecordedBatch[]; stop(): void } {
  const batches: RecordedBatch[] = []
  const original = db.write.bind(db)
  const target = db as unknown as { write: Database['write'] }
  target.write = (ops, options) => {
    batches.push({ keys: ops.map((op) => op.key), options: options === undefined ? undefined : { sync: options.sync } })
    return original(ops, options)
  }
  return { batches, stop: () => (target.write = original) }
}

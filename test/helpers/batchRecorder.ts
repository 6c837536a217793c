import type { Database } from '../../src/store/db.js'

/** One batch written to the database: the keys it put or deleted, in order, and how it was written. */
export interface RecordedBatch {
  keys: Uint8Array[]
  options: { sync?: boolean } | undefined
}

interface Chained {
  put(key: Uint8Array, value: Uint8Array): unknown
  del(key: Uint8Array): unknown
  write(options?: { sync?: boolean }): Promise<void>
  close(): Promise<void>
}

/**
 * Records every batch written to `db` until `stop()`: store/db.ts writes chained batches (db.batch()
 * then put/del and write), other code the array form (db.batch(ops, options)). The writes go through.
 */
export function recordBatches(db: Database): { batches: RecordedBatch[]; stop(): void } {
  const batches: RecordedBatch[] = []
  const original = db.batch.bind(db) as unknown as (...args: unknown[]) => unknown
  const target = db as unknown as { batch: unknown }
  target.batch = (...args: unknown[]) => {
    if (args.length > 0) {
      const [ops, options] = args as [{ key: Uint8Array }[], { sync?: boolean } | undefined]
      batches.push({ keys: ops.map((op) => op.key), options })
      return original(...args)
    }
    const chained = original() as Chained
    const recorded: RecordedBatch = { keys: [], options: undefined }
    return {
      put(key: Uint8Array, value: Uint8Array) {
        recorded.keys.push(key)
        return chained.put(key, value)
      },
      del(key: Uint8Array) {
        recorded.keys.push(key)
        return chained.del(key)
      },
      write(options?: { sync?: boolean }) {
        recorded.options = options
        batches.push(recorded)
        return chained.write(options)
      },
      close: () => chained.close(),
    }
  }
  return { batches, stop: () => (target.batch = original) }
}

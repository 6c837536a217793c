import { mkdirSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { SnapshotJournal } from './snapshotJournal.js'
import { finishInterruptedReset } from './resetDatabase.js'
import { Database, type DatabaseOptions } from './database.js'
import { type BatchOp, writeBatch } from './writeBatch.js'

export type { BatchOp, Database } from './writeBatch.js'

/** Raised when another process holds the data directory (LevelDB LOCK). */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
}

/**
 * Opens (creating) `<dataDir>/chain` and its write-ahead log `<dataDir>/chain-wal`, replaying what a
 * crash left in the log only; a second process on the same dir fails fast with a clear message.
 */
export async function openDatabase(dataDir: string, opts: DatabaseOptions = { syncWrites: false }): Promise<Database> {
  const location = join(dataDir, 'chain')
  // Owner-only: the database holds the keystore's sealed keys too (docs/SECURITY.md, theft of the data directory).
  mkdirSync(location, { recursive: true, mode: 0o700 })
  let db: Database
  try {
    db = await Database.open(location, join(dataDir, 'chain-wal'), opts)
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause
    if ((err as { code?: string }).code === 'LEVEL_LOCKED' || cause?.code === 'LEVEL_LOCKED') {
      throw new DataDirLockedError(`data directory ${dataDir} is in use by another cchain-node process`)
    }
    throw err
  }
  await finishInterruptedReset(db)
  return db
}

/**
 * Writes a batch durably: every block and head move goes through here (docs/SECURITY.md, D-a), as
 * one atomic write in the write-ahead log before it returns (writeBatch.ts).
 */
export async function writeSynced(db: Database, ops: BatchOp[], pause?: () => Promise<void>): Promise<void> {
  // With development controls on, the batch also carries what it overwrites while a snapshot is live.
  const journal = SnapshotJournal.opened(db)
  if (journal !== undefined) return journal.write(ops, pause)
  return writeBatch(db, ops, pause)
}

/** Bytes the files of `<dataDir>/chain` take (LevelDB keeps a flat directory); for /ext/metrics. */
export async function databaseSize(dataDir: string): Promise<number> {
  const location = join(dataDir, 'chain')
  let total = 0
  for (const entry of await readdir(location, { withFileTypes: true })) {
    if (!entry.isFile()) continue
    try {
      total += (await stat(join(location, entry.name))).size
    } catch {
      // A table file compacted away between readdir and stat.
    }
  }
  return total
}

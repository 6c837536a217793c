import type { BatchOp, Database } from './writeBatch.js'
import { PREFIX, metaKey } from './keys.js'

/** Marks a reset under way: a node that stops in the middle finishes it when it opens the database again. */
const RESETTING = metaKey('resetting')

/** Prefixes a reset keeps: the keystore's users and keys are not chain state; the log's sequence number is the database's own. */
const KEPT = [PREFIX.keystoreData, PREFIX.keystoreUser, PREFIX.wal]
/**
 * A fork's reset also keeps the trie's nodes and code (content-addressed, they include the origin's,
 * fetched once) and the origin's cached answers (keyed by the fork point: true whatever it forks next).
 */
const KEPT_ON_FORK = [...KEPT, PREFIX.state, PREFIX.originCache]

/**
 * Empties the database for anvil_reset (every chain record: blocks, state, atomic txs, shared
 * memory, the X/P ledgers, snapshots), keeping the keystore. The metadata (head and genesis
 * pointers) goes last, in one synced batch with the marker, so a crash in between leaves the marker
 * and finishInterruptedReset() completes the reset at the next open.
 */
export async function resetDatabase(db: Database, fork = false): Promise<void> {
  await db.batch([{ type: 'put', key: RESETTING, value: Uint8Array.of(fork ? 2 : 1) }], { sync: true })
  let from = 0
  for (const kept of [...(fork ? KEPT_ON_FORK : KEPT), PREFIX.meta, 0x100].sort((a, b) => a - b)) {
    if (from < kept) await db.clear({ gte: Uint8Array.of(from), lt: kept === 0x100 ? Uint8Array.of(0xff, 0xff) : Uint8Array.of(kept) })
    from = kept + 1
  }
  const ops: BatchOp[] = []
  for await (const key of db.keys({ gte: Uint8Array.of(PREFIX.meta), lt: Uint8Array.of(PREFIX.meta + 1) })) ops.push({ type: 'del', key })
  await db.batch(ops, { sync: true })
}

/** Completes a reset a crash interrupted (called when the database opens). */
export async function finishInterruptedReset(db: Database): Promise<void> {
  const marker = db.getSync(RESETTING)
  if (marker !== undefined && marker !== null) await resetDatabase(db, marker[0] === 2)
}

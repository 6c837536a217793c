import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import { type Database, openDatabase } from '../store/db.js'

/** Opens a chain's database (src/store/db.ts) with the node's write policy, saying what its write-ahead log held. */
export async function openChainDatabase(dataDir: string, config: Pick<NodeConfig, 'syncWrites'>, log: Logger): Promise<Database> {
  const db = await openDatabase(dataDir, {
    syncWrites: config.syncWrites,
    onError: (err) => log.error({ err }, 'writing to LevelDB failed; the write-ahead log keeps every write, trying again'),
  })
  const { replayed, lost } = db.recovery
  if (replayed > 0) log.info({ writes: replayed }, 'write-ahead log replayed into LevelDB')
  if (lost > 0) log.warn({ writes: lost }, 'write-ahead log writes after a gap left out (a power loss without --sync-writes): the chain reopens at its last whole block')
  return db
}

import { type Database, writeSynced } from './db.js'
import { PREFIX } from './keys.js'
import type { SharedMemoryWrite } from './sharedMemory.js'

/**
 * Which (source chain, address) pairs a fork has fetched its origin's atomic UTXOs for (docs/FORK.md,
 * the atomic side). A mark is written in the one atomic write that puts the fetched UTXOs into shared
 * memory, so the two never part: a snapshot's revert or a reset drops both, and the next query fetches again.
 */
export class OriginUTXOMarks {
  constructor(private readonly db: Database) {}

  /** Whether the UTXOs `sourceChain` exported to this chain for `address` were fetched already. */
  has(sourceChain: Uint8Array, address: Uint8Array): boolean {
    return this.db.getSync(markKey(sourceChain, address)) !== undefined
  }

  /** Writes the shared-memory puts and the marks of `addresses` in one atomic write, then updates shared memory's index. */
  async commit(write: SharedMemoryWrite, sourceChain: Uint8Array, addresses: readonly Uint8Array[]): Promise<void> {
    const marks = addresses.map((a) => ({ type: 'put' as const, key: markKey(sourceChain, a), value: new Uint8Array(0) }))
    await writeSynced(this.db, [...write.ops, ...marks])
    write.applied()
  }
}

function markKey(sourceChain: Uint8Array, address: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + 32 + 20)
  out[0] = PREFIX.originUTXOsFetched
  out.set(sourceChain, 1)
  out.set(address, 33)
  return out
}

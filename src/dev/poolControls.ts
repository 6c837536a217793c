import { hexToBytes } from '@ethereumjs/util'
import type { Engine } from '../engine/engine.js'

/** anvil_dropTransaction and anvil_dropAllTransactions: the pool edited with block building held. */
export class PoolControls {
  constructor(private readonly engine: Engine) {}

  /** Drops a pooled transaction (pending or queued); whether the pool held it. */
  drop(hash: string): Promise<boolean> {
    return this.engine.dev.exclusive(async () => this.engine.dev.pool.drop(hash.toLowerCase()) !== undefined)
  }

  /** Empties the pool. */
  dropAll(): Promise<void> {
    return this.engine.dev.exclusive(async () => this.engine.dev.pool.clear())
  }

  /** Whether the transaction is in a block (hardhat refuses to drop a mined one). */
  mined(hash: string): boolean {
    return this.engine.txLocation(hexToBytes(hash as `0x${string}`)) !== undefined
  }
}

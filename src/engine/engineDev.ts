import type { Block } from './block.js'
import type { BlockBuilder } from './blockBuilder.js'
import type { BlockClock } from './blockClock.js'
import type { BlockOverrides } from './blockOverrides.js'
import type { Chain } from './chain.js'
import { OverlayState } from './overlayState.js'
import { writeChanges } from './stateWriter.js'
import type { TxPool } from './txPool.js'

/**
 * What the development controls (src/dev/) reach inside the engine: block building held while
 * they work, edits of the head's state without a block, the pool, and a reload of everything from
 * the database after a revert or reset put it back.
 */
export class EngineDev {
  constructor(
    private readonly chain: Chain,
    readonly pool: TxPool,
    readonly builder: BlockBuilder,
  ) {}

  /** The time of the next blocks (evm_increaseTime and the like). */
  get clock(): BlockClock {
    return this.builder.clock
  }

  /** Header fields of the next blocks (anvil_setCoinbase and the like). */
  get overrides(): BlockOverrides {
    return this.builder.overrides
  }

  /** Mines one block now, whatever the mining mode, with the executable transactions that fit (evm_mine). Call it inside exclusive(). */
  async mineOne(): Promise<Block> {
    const block = await this.builder.buildOnce(true, true)
    if (block === undefined) throw new Error('no block was built')
    return block
  }

  /** Runs `fn` with no block being built meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.builder.exclusive(fn)
  }

  /**
   * Edits the head's state as anvil_setBalance and the like do: `edit` writes on an overlay of the
   * head's state, and its changes land in one synced batch with the new root (Chain.stateRootOf reads it).
   * Call it inside exclusive().
   */
  async editHeadState(edit: (state: OverlayState) => Promise<void>): Promise<void> {
    const { chain } = this
    const state = new OverlayState(chain.headView(), chain.codeSource)
    await edit(state)
    const head = chain.head
    const { root, flat } = await writeChanges(chain.trieNodes, chain.headStateRoot, (addrHash) => chain.flat.account(addrHash), state.changes())
    const staged = await chain.flat.stage(flat, head.header.number, root)
    const trieOps = chain.trieDb.drain()
    try {
      await chain.store.writeHeadState(head.hash, root, [...trieOps, ...staged.ops])
    } catch (err) {
      chain.flat.unstage(staged, true)
      throw err
    }
    chain.trieDb.commitDrained(trieOps)
    chain.headStateRoot = root
    chain.events.emit('state')
  }

  /** The database was put back (a revert or a reset): read the chain again; the pool starts empty. Call it inside exclusive(). */
  async reload(): Promise<void> {
    await this.chain.load()
    this.pool.clear()
    this.chain.events.emit('state')
  }
}

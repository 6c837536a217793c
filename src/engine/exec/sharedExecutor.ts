import type { Block } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { type CallRunner, Executor } from './executor.js'
import type { StateReader } from '../state/flatView.js'
import type { OwnEvm } from './ownEvm.js'

/**
 * One executor, made on first use and moved to each run's block (Executor.bound): the VM is built
 * once, not per block. forget() makes every block's state seen so far stale (the head's state
 * changed without a block: a development edit, a revert).
 */
export class SharedExecutor {
  private made: Promise<Executor> | undefined
  private generation = 0

  constructor(
    private readonly chain: Chain,
    /** The node's interpreter where it serves this chain's calls. */
    private readonly own?: OwnEvm,
  ) {}

  /** Runs at `block` on `state`; `key` names the block and its context. */
  at(key: string, block: Block, state: () => StateReader): Promise<CallRunner> {
    if (this.made === undefined) {
      const made = Executor.create(this.chain, block, state(), {}, this.own)
      made.catch(() => {
        if (this.made === made) this.made = undefined
      })
      this.made = made
    }
    const target = { key: `${key}:${this.generation}`, block, state }
    return this.made.then((ex) => ex.bound(target))
  }

  forget(): void {
    this.generation++
  }
}

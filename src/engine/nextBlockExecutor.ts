import { bytesToHex } from '@ethereumjs/util'
import { planNextBlock } from './blockAssembly.js'
import type { BlockClock } from './blockClock.js'
import type { BlockOverrides } from './blockOverrides.js'
import type { Chain } from './chain.js'
import { overriddenBlock } from './callOverrides.js'
import { type CallRunner, Executor } from './executor.js'

/**
 * Calls in the next block's context on the head's state: what a development chain runs calls and
 * estimates at 'pending' on, as anvil and hardhat do (docs/DEV.md). Its number, time, base fee, gas
 * limit and coinbase are the builder's for the next block. One VM of its own, moved to each
 * context as it comes (Executor.bound).
 */
export class NextBlockExecutor {
  private shared: Promise<Executor> | undefined
  /** Counts changes of the head's state without a block (forget()). */
  private generation = 0

  constructor(
    private readonly chain: Chain,
    private readonly next: { clock: BlockClock; overrides: BlockOverrides },
  ) {}

  get(): Promise<CallRunner> {
    const { chain } = this
    const head = chain.head
    const plan = planNextBlock(chain, this.next.clock, this.next.overrides)
    const fields = { number: plan.number, time: plan.timeMs / 1000n, gasLimit: plan.gasLimit, feeRecipient: plan.coinbase, baseFeePerGas: plan.baseFee }
    const block = overriddenBlock(head, fields)
    const key = `${bytesToHex(head.hash)}:${fields.time}:${fields.baseFeePerGas}:${fields.gasLimit}:${bytesToHex(fields.feeRecipient)}:${this.generation}`
    if (this.shared === undefined) {
      const made = Executor.create(chain, block, chain.stateReader(head))
      made.catch(() => {
        if (this.shared === made) this.shared = undefined
      })
      this.shared = made
    }
    return this.shared.then((ex) => ex.bound({ key, block, state: () => chain.stateReader(head) }))
  }

  /** The head's state changed without a block (a development edit, a revert). */
  forget(): void {
    this.generation++
  }
}

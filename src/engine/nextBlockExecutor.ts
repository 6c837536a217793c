import { bytesToHex } from '@ethereumjs/util'
import { planNextBlock } from './blockAssembly.js'
import type { BlockClock } from './blockClock.js'
import type { BlockOverrides } from './blockOverrides.js'
import type { Chain } from './chain.js'
import { overriddenExecutor } from './callOverrides.js'
import type { Executor } from './executor.js'

/**
 * The executor of the next block's context on the head's state: what a development chain runs
 * calls and estimates at 'pending' on, as anvil and hardhat do (docs/DEV.md). Its number, time,
 * base fee, gas limit and coinbase are the builder's for the next block; one is kept while they hold.
 */
export class NextBlockExecutor {
  private kept: { key: string; ex: Promise<Executor> } | undefined

  constructor(
    private readonly chain: Chain,
    private readonly next: { clock: BlockClock; overrides: BlockOverrides },
  ) {}

  get(): Promise<Executor> {
    const head = this.chain.head
    const plan = planNextBlock(this.chain, this.next.clock, this.next.overrides)
    const block = { number: plan.number, time: plan.timeMs / 1000n, gasLimit: plan.gasLimit, feeRecipient: plan.coinbase, baseFeePerGas: plan.baseFee }
    const key = `${bytesToHex(head.hash)}:${block.time}:${block.baseFeePerGas}:${block.gasLimit}:${bytesToHex(block.feeRecipient)}`
    if (this.kept?.key !== key) {
      const ex = overriddenExecutor(this.chain, head, block)
      ex.catch(() => {
        if (this.kept?.ex === ex) this.kept = undefined
      })
      this.kept = { key, ex }
    }
    return this.kept.ex
  }

  /** The head's state changed without a block (a development edit, a revert). */
  forget(): void {
    this.kept = undefined
  }
}

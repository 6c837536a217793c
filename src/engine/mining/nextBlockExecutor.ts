import { bytesToHex } from '@ethereumjs/util'
import { planNextBlock } from './blockAssembly.js'
import type { BlockClock } from '../rules/blockClock.js'
import type { BlockOverrides } from '../chain/blockOverrides.js'
import type { Chain } from '../chain/chain.js'
import { overriddenBlock } from '../exec/callOverrides.js'
import type { CallRunner } from '../exec/executor.js'
import { SharedExecutor } from '../exec/sharedExecutor.js'
import type { OwnEvm } from '../exec/ownEvm.js'

/**
 * Calls in the next block's context on the head's state: what a development chain runs calls and
 * estimates at 'pending' on, as anvil and hardhat do (docs/DEV.md). Its number, time, base fee, gas
 * limit and coinbase are the builder's for the next block. One VM of its own, moved to each
 * context as it comes (sharedExecutor.ts).
 */
export class NextBlockExecutor {
  private readonly shared: SharedExecutor

  constructor(
    private readonly chain: Chain,
    private readonly next: { clock: BlockClock; overrides: BlockOverrides },
    own?: OwnEvm,
  ) {
    this.shared = new SharedExecutor(chain, own)
  }

  get(): Promise<CallRunner> {
    const { chain } = this
    const head = chain.head
    const plan = planNextBlock(chain, this.next.clock, this.next.overrides)
    const fields = { number: plan.number, time: plan.timeMs / 1000n, gasLimit: plan.gasLimit, feeRecipient: plan.coinbase, baseFeePerGas: plan.baseFee }
    const block = overriddenBlock(head, fields)
    const key = `${bytesToHex(head.hash)}:${fields.time}:${fields.baseFeePerGas}:${fields.gasLimit}:${bytesToHex(fields.feeRecipient)}`
    return this.shared.at(key, block, () => chain.stateReader(head))
  }

  /** The head's state changed without a block (a development edit, a revert). */
  forget(): void {
    this.shared.forget()
  }
}

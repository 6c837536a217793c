import type { SubnetEvmHeadRules, SubnetEvmRules } from '../rules/subnetEvmRules.js'
import type { StateReader } from '../state/flatView.js'
import { precompileReader, precompileState } from '../state/precompileState.js'
import type { StateManagerInterface } from '@ethereumjs/common'
import { applyPrecompileActivations } from '../../subnetevm/precompiles/activation.js'
import { applyStateUpgrades } from '../../subnetevm/stateUpgrades.js'
import { type NextBlockFees, nextBlockFees } from '../../subnetevm/fees/nextBlockFees.js'
import type { ParentHeader } from '../../subnetevm/fees/parentHeader.js'
import type { Block } from './block.js'

/**
 * A subnet-evm chain's rules for the block after the head (its fee config and fee recipient, which
 * the fee manager and reward manager keep in state): read again whenever the head's state changes
 * (a block, a revert, a development edit), so the builder and the fee oracle read them without waiting.
 */
export class SubnetEvmHead {
  private current: SubnetEvmHeadRules | undefined

  constructor(readonly rules: SubnetEvmRules) {}

  /** The rules after the head; refresh() has run since the chain opened. */
  get next(): SubnetEvmHeadRules {
    if (this.current === undefined) throw new Error('subnet-evm head rules read before the chain loaded')
    return this.current
  }

  async refresh(head: StateReader, headTime: bigint): Promise<void> {
    this.current = await this.rules.headRules(precompileReader(head), headTime)
  }

  /** The header fields the rules give a child of the head at `timeMs`; `delayExcess`: the ACP-226 excess the chain steers from (chain.delayExcessOf). */
  nextFees(head: Block, delayExcess: bigint, timeMs: bigint): { fees: NextBlockFees; parent: ParentHeader } {
    const h = head.header
    const parent: ParentHeader = {
      number: h.number,
      timestamp: h.timestamp,
      timeMilliseconds: h.timeMilliseconds,
      gasLimit: h.gasLimit,
      gasUsed: h.gasUsed,
      baseFee: h.baseFee,
      extraData: h.extraData,
      blockGasCost: h.blockGasCost,
      minDelayExcess: delayExcess,
    }
    return { fees: nextBlockFees(this.rules.config.upgrades, this.next.fee.feeConfig, parent, timeMs), parent }
  }
}

/**
 * Before the block's transactions (subnet-evm core/state_processor_ext.go ApplyUpgrades): the
 * precompiles whose configs take effect between the parent's time and the block's, then the state upgrades.
 */
export async function applyActivations(rules: SubnetEvmRules, sm: StateManagerInterface, parentTime: bigint, number: bigint, time: bigint): Promise<void> {
  const { feeConfig, allowFeeRecipients } = rules.config
  const state = precompileState(sm)
  await applyPrecompileActivations(rules.schedule, parentTime, time, state, { blockNumber: number, feeConfig, allowFeeRecipients })
  await applyStateUpgrades(rules.stateUpgrades, parentTime, time, state)
}

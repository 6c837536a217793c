import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import type { Header } from '../chain/block.js'
import type { BlockOverrides } from '../chain/blockOverrides.js'
import type { Chain } from '../chain/chain.js'
import { nextMinDelayExcess } from '../rules/feeState.js'
import type { SubnetEvmRules } from '../rules/subnetEvmRules.js'
import type { OverlayState } from '../state/overlayState.js'
import { precompileState } from '../state/precompileState.js'
import { builderCoinbase } from '../../subnetevm/coinbaseAt.js'
import { builtExtra } from '../../subnetevm/fees/extra.js'
import type { NextBlockFees } from '../../subnetevm/fees/nextBlockFees.js'
import type { ParentHeader } from '../../subnetevm/fees/parentHeader.js'
import { isTxAllowed, txNotAllowedError } from '../../subnetevm/precompiles/allowListGates.js'
import { type BlockPredicateResults, encodePredicateResults } from '../../warp/predicateResults.js'

/*
 * A subnet-evm chain's next block (docs/L1.md): its fee window, base fee, block gas cost and gas
 * limit from the fee config at the parent (subnet-evm miner/worker.go commitNewWork), the coinbase
 * its rules allow, the precompiles that turn on or off before its transactions, and its header in
 * subnet-evm's layout.
 */

const ZERO32 = new Uint8Array(32)

/** What a subnet-evm block's plan adds: the header fields the rules give it, and whether the fees stay with its coinbase. */
export interface SubnetEvmPlan {
  rules: SubnetEvmRules
  fees: NextBlockFees
  /** The parent as the rules read it (the fee window, the ACP-226 excess the chain steers from). */
  parent: ParentHeader
  /** The coinbase is the rules' (a reward address or a fee recipient): the fees stay there; a development override burns them. */
  keepFees: boolean
}

/** The plan's fee fields for a block at `timeMs` on the head: base fee, gas limit, coinbase. */
export function planSubnetEvm(chain: Chain, parent: Chain['head'], timeMs: bigint, overrides: BlockOverrides): { baseFee: bigint; gasLimit: bigint; coinbase: Uint8Array; subnetEvm: SubnetEvmPlan } {
  const head = chain.subnetEvm!
  const { fees, parent: p } = head.nextFees(parent, chain.delayExcessOf(parent), timeMs)
  const coinbase = overrides.coinbase ?? builderCoinbase(head.next.coinbase, head.rules.etherbase)
  return {
    baseFee: overrides.baseFee ?? fees.baseFee ?? 0n,
    gasLimit: overrides.gasLimit ?? fees.gasLimit,
    coinbase,
    subnetEvm: { rules: head.rules, fees, parent: p, keepFees: overrides.coinbase === undefined },
  }
}

/** The transaction allow list at execution (subnet-evm core/state_transition.go preCheck): the text a refused sender's transaction is dropped with. */
export async function txAllowListRefusal(rules: SubnetEvmRules, sm: OverlayState, time: bigint, sender: Uint8Array): Promise<string | undefined> {
  if (!rules.isEnabled('txAllowListConfig', time)) return undefined
  return (await isTxAllowed(precompileState(sm), sender)) ? undefined : txNotAllowedError(sender)
}

/** What the seal needs: the block's roots, bloom, gas and predicate results. */
export interface SubnetEvmSeal {
  parent: Chain['head']
  number: bigint
  timeMs: bigint
  coinbase: Uint8Array
  baseFee: bigint
  gasLimit: bigint
  stateRoot: Uint8Array
  txRoot: Uint8Array
  receiptRoot: Uint8Array
  bloom: Uint8Array
  gasUsed: bigint
  desiredDelay: bigint
  predicateResults?: BlockPredicateResults
}

/** The block's header in subnet-evm's layout (subnet-evm plugin/evm/customtypes/header_ext.go). */
export function sealSubnetEvmHeader(plan: SubnetEvmPlan, s: SubnetEvmSeal): Header {
  const { fees, rules } = plan
  const timestamp = s.timeMs / 1000n
  const results = s.predicateResults === undefined ? undefined : encodePredicateResults(s.predicateResults)
  return {
    parentHash: s.parent.hash,
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: s.coinbase,
    stateRoot: s.stateRoot,
    txRoot: s.txRoot,
    receiptRoot: s.receiptRoot,
    bloom: s.bloom,
    difficulty: 1n,
    number: s.number,
    gasLimit: s.gasLimit,
    gasUsed: s.gasUsed,
    timestamp,
    extraData: builtExtra(rules.config.upgrades, plan.parent, timestamp, results),
    mixHash: ZERO32,
    nonce: new Uint8Array(8),
    extDataHash: ZERO32,
    baseFee: s.baseFee,
    extDataGasUsed: 0n,
    blockGasCost: fees.blockGasCost ?? 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: ZERO32,
    timeMilliseconds: s.timeMs,
    minDelayExcess: fees.minDelayExcess === undefined ? 0n : nextMinDelayExcess(plan.parent.minDelayExcess!, s.desiredDelay),
    subnetEvmFields: rules.headerFieldCount(s.number, timestamp),
  }
}

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import type { Block, Header } from '../chain/block.js'
import { EMPTY_EXT_DATA_HASH, type Chain } from '../chain/chain.js'
import { type Execution, priceExponentOf, targetExponentOf } from '../chain/settlement.js'
import type { GasClock } from '../rules/gasClock.js'
import { desiredDelayExcess, desiredTargetExcess } from '../rules/feeState.js'
import { TAU_MS, desiredPriceExponent, gasConfigAfter, nextPriceExponent, nextTargetExponent, safeMaxBlockSize } from '../rules/helicon.js'
import { type BlockPredicateResults, encodePredicateResults } from '../../warp/predicateResults.js'

/*
 * A block as Helicon builds it (avalanchego v1.15 `vms/saevm/sae/block_builder.go` buildWithTxs,
 * `vms/saevm/cchain/hooks.go` BuildHeader/BuildBlock, `vms/saevm/saexec/execution.go` Execute): the
 * header settles what finished executing Tau before the block's time and carries the worst-case
 * base fee and gas limit; the block's transactions run at once, at the executed base fee.
 */

const ZERO32 = new Uint8Array(32)

/** What a Helicon block is planned with besides the Granite plan's time, number and coinbase. */
export interface HeliconPlan {
  /** The last block this one settles. */
  lastSettled: Block
  targetExponent: bigint
  minPriceExponent: bigint
  /** The header's base fee: the worst case over the blocks not yet settled. */
  worstBaseFee: bigint
  /** The header's gas limit: 20·T at the worst-case clock's rate. */
  gasLimit: bigint
  /** The execution clock at the block's time, before its gas: its price is the base fee transactions run at. */
  clock: GasClock
}

/** The desired exponents this node votes for (chain config `gas-target`, `min-price-target`; none keeps the parent's). */
export interface HeliconVotes {
  targetExponent?: bigint
  priceExponent?: bigint
  /** ACP-226's delay excess (`min-delay-target` above 0): then the delay is also kept, as Helicon's builder does. */
  delayExcess?: bigint
}

/** The votes of a builder's options: none unless a target is set (`min-delay-target` 0 is no vote). */
export function heliconVotes(opts: { gasTarget?: number; minDelayTarget: number; minPriceTarget?: number }): HeliconVotes {
  return {
    targetExponent: opts.gasTarget === undefined ? undefined : desiredTargetExcess(BigInt(opts.gasTarget)),
    priceExponent: opts.minPriceTarget === undefined ? undefined : desiredPriceExponent(BigInt(opts.minPriceTarget)),
    delayExcess: opts.minDelayTarget > 0 ? desiredDelayExcess(BigInt(opts.minDelayTarget)) : undefined,
  }
}

export function planHelicon(chain: Chain, parent: Block, timeMs: bigint, votes: HeliconVotes): HeliconPlan {
  const lastSettled = chain.executions.lastToSettle(parent, timeMs - TAU_MS)
  const targetExponent = nextTargetExponent(targetExponentOf(chain, parent), votes.targetExponent)
  const minPriceExponent = nextPriceExponent(priceExponentOf(parent), votes.priceExponent)
  const worst = chain.executions.worstCaseClock(lastSettled, parent, timeMs)
  const clock = chain.executions.clockAfter(parent)
  clock.beforeBlock(timeMs)
  return { lastSettled, targetExponent, minPriceExponent, worstBaseFee: worst.price(), gasLimit: safeMaxBlockSize(worst.rate), clock }
}

/** What sealing a Helicon header needs of the block's run. */
export interface HeliconSeal {
  parent: Block
  number: bigint
  timeMs: bigint
  coinbase: Uint8Array
  txRoot: Uint8Array
  /** Σ the transactions' gas limits and the atomic txs' gas (worst case: the header's gasUsed). */
  worstGasUsed: bigint
  extData: Uint8Array
  minDelayExcess: bigint
  predicateResults?: BlockPredicateResults
}

export function sealHeliconHeader(chain: Chain, plan: HeliconPlan, s: HeliconSeal): Header {
  const settled = chain.executions.of(plan.lastSettled)
  const { receiptRoot, bloom } = chain.executions.settledReceipts(chain.executions.settledHeightOf(s.parent), plan.lastSettled.header.number)
  return {
    parentHash: s.parent.hash,
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: s.coinbase,
    stateRoot: settled.root,
    txRoot: s.txRoot,
    receiptRoot,
    bloom,
    difficulty: 1n,
    number: s.number,
    gasLimit: plan.gasLimit,
    gasUsed: s.worstGasUsed,
    timestamp: s.timeMs / 1000n,
    // Only the Warp predicate results: Helicon's header has no ACP-176 fee state.
    extraData: encodePredicateResults(s.predicateResults ?? new Map()),
    mixHash: ZERO32,
    nonce: new Uint8Array(8),
    extDataHash: s.extData.length === 0 ? EMPTY_EXT_DATA_HASH : keccak256(RLP.encode(s.extData)),
    baseFee: plan.worstBaseFee,
    extDataGasUsed: 0n,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: ZERO32,
    timeMilliseconds: s.timeMs,
    minDelayExcess: s.minDelayExcess,
    helicon: {
      targetExponent: plan.targetExponent,
      minPriceExponent: plan.minPriceExponent,
      settledHeight: plan.lastSettled.header.number,
      settledGasUnix: settled.clock.seconds,
      settledGasNumerator: settled.clock.fraction,
      settledExcess: settled.clock.excess,
    },
  }
}

/** The block's execution record: its own post-state root, the base fee it ran at, the clock after its charged gas. */
export function heliconExecution(plan: HeliconPlan, root: Uint8Array, baseFee: bigint, chargedGas: bigint): Execution {
  const clock = plan.clock.clone()
  const { target, cfg } = gasConfigAfter(plan.targetExponent, plan.minPriceExponent)
  clock.afterBlock(chargedGas, target, cfg)
  return { root, baseFee, clock: clock.state() }
}

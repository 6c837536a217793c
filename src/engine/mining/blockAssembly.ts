import { RLP } from '@ethereumjs/rlp'
import type { Block as EnvBlock } from '@ethereumjs/block'
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import { ForkError } from '../../fork/errors.js'
import type { Header } from '../chain/block.js'
import type { BlockClock } from '../rules/blockClock.js'
import { type BlockOverrides, burnTip } from '../chain/blockOverrides.js'
import { BLACKHOLE, EMPTY_EXT_DATA_HASH, type Chain } from '../chain/chain.js'
import { consumeGas, encodeFeeState, type FeeState, feeStateBeforeBlock, gasPrice, maxCapacity, minDelayMs, nextMinDelayExcess, updateTargetExcess } from '../rules/feeState.js'
import type { BlockTxOutcome, BlockTxRunner } from '../exec/blockTx.js'
import type { OverlayState } from '../state/overlayState.js'
import { encodeConsensusReceipt, knowBloom, type Receipt } from '../chain/receipt.js'
import type { TxFailure } from './hardhatFailure.js'
import type { PoolTx } from '../pool/txPool.js'
import { type BlockPredicateResults, encodePredicateResults } from '../../warp/predicateResults.js'
import { WARP_ADDRESS } from '../../warp/warpConstants.js'
import { type SubnetEvmPlan, planSubnetEvm, sealSubnetEvmHeader, txAllowListRefusal } from './subnetEvmBlock.js'
import { applyActivations } from '../chain/subnetEvmHead.js'
import { type HeliconPlan, type HeliconVotes, planHelicon, sealHeliconHeader } from './heliconBlock.js'

/*
 * The parts of making the next block that the block builder (which commits it) and the pending
 * block (which only shows it: src/engine/mining/pendingBlock.ts) share: its header fields before any
 * transaction, running the pool's transactions into it, and the sealed header.
 */

const ZERO32 = new Uint8Array(32)

/** The next block on the head before its transactions: time, ACP-176 fee state, base fee, gas limit, miner. */
export interface NextBlockPlan {
  parent: Chain['head']
  number: bigint
  /** The clock's proposal, and the earliest time ACP-226 allows after the parent (ms). */
  proposed: { ms: bigint; running: boolean }
  earliest: bigint
  minDelay: bigint
  /** The block's time (ms): the proposal, at least the earliest. */
  timeMs: bigint
  /** Granite's ACP-176 fee state before the block (none under Helicon). */
  before: FeeState | undefined
  /** The base fee transactions run at (Helicon: the executed one). */
  baseFee: bigint
  /** The fee cap a transaction needs: the base fee, Helicon's worst-case one. */
  feeFloor: bigint
  gasLimit: bigint
  /** Gas the block's transactions may use: the capacity (or a set gas limit); Helicon counts their gas limits against it. */
  available: bigint
  coinbase: Uint8Array
  helicon?: HeliconPlan
  /** Helicon: the header's minimum delay excess. */
  minDelayExcess?: bigint
  /** A subnet-evm chain's block (subnetEvmBlock.ts). */
  subnetEvm?: SubnetEvmPlan
}

/** The next block's plan on the chain's head, with the clock and the development controls' header overrides. */
export function planNextBlock(chain: Chain, clock: BlockClock, overrides: BlockOverrides, votes: HeliconVotes = {}): NextBlockPlan {
  const parent = chain.head
  const helicon = chain.opts.helicon
  // Helicon keeps ACP-226's delay only when this node votes for one: a development chain does not wait 2 s (docs/EVM.md "Helicon").
  const minDelay = !helicon ? minDelayMs(chain.delayExcessOf(parent)) : votes.delayExcess === undefined ? 0n : minDelayMs(parent.header.minDelayExcess)
  const parentMs = parent.header.timeMilliseconds
  const earliest = parentMs + minDelay
  const proposed = clock.propose(parent.header)
  const timeMs = proposed.ms < earliest ? earliest : proposed.ms
  const timing = { parent, number: parent.header.number + 1n, proposed, earliest, minDelay, timeMs, coinbase: overrides.coinbase ?? BLACKHOLE }
  if (helicon) return planHeliconBlock(chain, timing, overrides, votes)
  if (chain.subnetEvm !== undefined) {
    const fees = planSubnetEvm(chain, parent, timeMs, overrides)
    return { ...timing, ...fees, before: undefined, feeFloor: fees.baseFee, available: fees.gasLimit }
  }
  const before = feeStateBeforeBlock(chain.feeStateOf(parent), parentMs, timeMs)
  const baseFee = overrides.baseFee ?? gasPrice(before)
  return {
    ...timing,
    before,
    baseFee,
    feeFloor: baseFee,
    gasLimit: overrides.gasLimit ?? maxCapacity(before.targetExcess),
    available: overrides.gasLimit ?? before.capacity,
  }
}

/** Helicon's plan on the block's time: the settlement, the worst-case and executed base fees. */
function planHeliconBlock(chain: Chain, timing: Omit<NextBlockPlan, 'before' | 'baseFee' | 'feeFloor' | 'gasLimit' | 'available'>, overrides: BlockOverrides, votes: HeliconVotes): NextBlockPlan {
  const { parent, timeMs } = timing
  const helicon = planHelicon(chain, parent, timeMs, votes)
  const gasLimit = overrides.gasLimit ?? helicon.gasLimit
  return {
    ...timing,
    before: undefined,
    baseFee: overrides.baseFee ?? helicon.clock.price(),
    feeFloor: overrides.baseFee ?? helicon.worstBaseFee,
    gasLimit,
    available: gasLimit,
    helicon: overrides.baseFee === undefined ? helicon : { ...helicon, worstBaseFee: overrides.baseFee },
    minDelayExcess: nextMinDelayExcess(parent.header.minDelayExcess, votes.delayExcess),
  }
}

/** What running the candidates left: included transactions with their receipts, and those no longer valid. */
export interface RunOutcome {
  included: PoolTx[]
  dropped: PoolTx[]
  receipts: Receipt[]
  /** Consensus encodings for the receipt root, made as each tx runs (paced) rather than all at the end. */
  receiptBytes: Uint8Array[]
  gasUsed: bigint
  /** Σ the included transactions' gas limits (what Helicon counts in a block). */
  limitGas: bigint
  /** How each included transaction that failed (status 0) failed, by hash. */
  failures: Map<string, TxFailure>
  /** The Warp predicate results of the included transactions that carry predicates, by hash: the header's (sealHeader). */
  predicateResults: Map<string, Map<string, Uint8Array>>
}

/**
 * Runs the pool's executable transactions, in the pool's order, into a block as geth's miner does:
 * a sender whose transaction does not fit (fee cap under the base fee, gas over what is left) or
 * no longer runs (balance spent by an earlier one) is skipped from then on; a fork's origin out of
 * reach stops the block (ForkError).
 */
export async function runCandidates(
  txs: BlockTxRunner,
  sm: OverlayState,
  env: EnvBlock,
  candidates: readonly PoolTx[],
  plan: Pick<NextBlockPlan, 'baseFee' | 'feeFloor' | 'available' | 'coinbase' | 'helicon' | 'subnetEvm' | 'parent' | 'number' | 'timeMs'>,
  pause: () => Promise<void>,
  onDrop: (ptx: PoolTx, err: Error) => void,
): Promise<RunOutcome> {
  const { baseFee, feeFloor, available, coinbase } = plan
  const subnetEvm = plan.subnetEvm && { rules: plan.subnetEvm.rules, time: plan.timeMs / 1000n }
  if (subnetEvm !== undefined) await applyActivations(subnetEvm.rules, sm, plan.parent.header.timestamp, plan.number, subnetEvm.time)
  const byLimit = plan.helicon !== undefined
  const out: RunOutcome = { included: [], dropped: [], receipts: [], receiptBytes: [], gasUsed: 0n, limitGas: 0n, failures: new Map(), predicateResults: new Map() }
  const skipped = new Set<string>()
  for (const ptx of candidates) {
    await pause()
    if (skipped.has(ptx.senderHex)) continue
    if (ptx.feeCap < feeFloor || (byLimit ? out.limitGas : out.gasUsed) + ptx.tx.gasLimit > available) {
      skipped.add(ptx.senderHex)
      continue
    }
    let result: BlockTxOutcome
    try {
      const refused = subnetEvm && (await txAllowListRefusal(subnetEvm.rules, sm, subnetEvm.time, ptx.sender.bytes))
      if (refused) throw new Error(refused)
      result = await txs.run(ptx.tx, ptx.sender, env, out.gasUsed)
    } catch (err) {
      // A fork's origin did not answer: the transaction is not at fault, the block waits (it stays pooled).
      if (err instanceof ForkError) throw err
      onDrop(ptx, err as Error)
      out.dropped.push(ptx)
      skipped.add(ptx.senderHex)
      continue
    }
    if (coinbase !== BLACKHOLE && plan.subnetEvm?.keepFees !== true) await burnTip(sm, coinbase, result.minerValue)
    out.gasUsed += result.gasUsed
    out.limitGas += ptx.tx.gasLimit
    out.included.push(ptx)
    if (result.error !== undefined) out.failures.set(ptx.hash, { error: result.error, returnData: result.returnData })
    if (result.predicateResults !== undefined) out.predicateResults.set(ptx.hash, new Map([[WARP_ADDRESS, result.predicateResults]]))
    const receipt: Receipt = {
      txType: ptx.tx.type,
      status: result.error === undefined ? 1 : 0,
      cumulativeGasUsed: out.gasUsed,
      gasUsed: result.gasUsed,
      effectiveGasPrice: ptx.feeCap < baseFee + ptx.tipCap ? ptx.feeCap : baseFee + ptx.tipCap,
      contractAddress: result.createdAddress,
      logs: result.logs,
    }
    if (result.bloom !== undefined) knowBloom(receipt, result.bloom)
    out.receipts.push(receipt)
    out.receiptBytes.push(encodeConsensusReceipt(receipt))
  }
  return out
}

/** What sealing needs besides the plan: roots, bloom, gas used, the atomic txs' extData and gas. */
export interface SealInput {
  stateRoot: Uint8Array
  txRoot: Uint8Array
  receiptRoot: Uint8Array
  bloom: Uint8Array
  gasUsed: bigint
  extData: Uint8Array
  extDataGasUsed: bigint
  /** ACP-176 gas target the fee state steers toward (undefined: keep the current one). */
  gasTarget: bigint | undefined
  /** ACP-226 delay excess the chain steers toward. */
  desiredDelay: bigint
  /** The block's Warp predicate results (RunOutcome.predicateResults); none = the empty results. */
  predicateResults?: BlockPredicateResults
  /** Helicon: Σ the transactions' gas limits (the header counts them, and the atomic txs' gas). */
  limitGas?: bigint
}

/** The header of the planned block: coreth's fields, the fee state after its gas in extraData. */
export function sealHeader(chain: Chain, plan: NextBlockPlan, s: SealInput): Header {
  if (plan.subnetEvm !== undefined) return sealSubnetEvmHeader(plan.subnetEvm, { ...plan, ...s })
  if (plan.helicon !== undefined) {
    const { parent, number, timeMs, coinbase } = plan
    const worstGasUsed = (s.limitGas ?? 0n) + s.extDataGasUsed
    return sealHeliconHeader(
      chain,
      { ...plan.helicon, gasLimit: plan.gasLimit },
      {
        parent,
        number,
        timeMs,
        coinbase,
        txRoot: s.txRoot,
        worstGasUsed,
        extData: s.extData,
        minDelayExcess: plan.minDelayExcess!,
        predicateResults: s.predicateResults,
      },
    )
  }
  const before = plan.before!
  // A gas limit set by evm_setBlockGasLimit may exceed the capacity: the fee state then counts the excess, its capacity at 0.
  const used = s.gasUsed + s.extDataGasUsed
  const consumable = used > before.capacity ? { ...before, capacity: used } : before
  const after = updateTargetExcess(consumeGas(consumable, s.gasUsed, s.extDataGasUsed), s.gasTarget)
  // After Durango the predicate results follow the fee state (coreth miner/worker.go), an empty map when no transaction has predicates.
  const results = encodePredicateResults(s.predicateResults ?? new Map())
  const extraData = new Uint8Array(24 + results.length)
  extraData.set(encodeFeeState(after), 0)
  extraData.set(results, 24)
  return {
    parentHash: plan.parent.hash,
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: plan.coinbase,
    stateRoot: s.stateRoot,
    txRoot: s.txRoot,
    receiptRoot: s.receiptRoot,
    bloom: s.bloom,
    difficulty: 1n,
    number: plan.number,
    gasLimit: plan.gasLimit,
    gasUsed: s.gasUsed,
    timestamp: plan.timeMs / 1000n,
    extraData,
    mixHash: ZERO32,
    nonce: new Uint8Array(8),
    extDataHash: s.extData.length === 0 ? EMPTY_EXT_DATA_HASH : keccak256(RLP.encode(s.extData)),
    baseFee: plan.baseFee,
    extDataGasUsed: s.extDataGasUsed,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: ZERO32,
    timeMilliseconds: plan.timeMs,
    minDelayExcess: nextMinDelayExcess(chain.delayExcessOf(plan.parent), s.desiredDelay),
  }
}

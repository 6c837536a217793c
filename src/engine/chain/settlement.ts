import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex } from '@ethereumjs/util'
import type { Block } from './block.js'
import type { ChainStore } from '../../store/chainStore.js'
import { FEE_STATE_SIZE, type FeeState } from '../rules/feeState.js'
import type { ForkRecord } from '../../store/forkRecord.js'
import { GasClock, type GasClockState, compareGasTimeMs } from '../rules/gasClock.js'
import { TAU_MS, gasConfigAfter, safeMaxBlockSize } from '../rules/helicon.js'
import { encodeConsensusReceipt, blockBloom, type Receipt } from './receipt.js'
import { orderedTrieRoot } from './orderedTrieRoot.js'

/*
 * Helicon's streaming asynchronous execution (ACP-194) as the node keeps it: a block is accepted, then
 * executed (here at once, in the same build), and settled by a later block once its execution
 * finished, in gas time, at least Tau before that block's time (avalanchego v1.15
 * `vms/saevm/blocks/settlement.go` LastToSettleAt, `vms/saevm/sae/block_builder.go`). A header carries
 * the last settled block's post-execution root and the receipts of the blocks it settles; its own
 * execution (post-state root, executed base fee, gas clock after it) is kept beside it.
 */

/** What executing a block left: its own post-state root, the base fee it ran at, the gas clock after it. */
export interface Execution {
  root: Uint8Array
  baseFee: bigint
  clock: GasClockState
}

/** What the settlement rules read of the chain. */
export interface SettlementChain {
  readonly store: ChainStore
  readonly opts: { readonly fork?: Pick<ForkRecord, 'stateRoot'> }
  blockByNumber(number: bigint): Block | undefined
  receipts(block: Pick<Block, 'hash'>): Receipt[]
  /** The ACP-176 fee state a pre-Helicon block's extraData holds. */
  feeStateOf(block: Block): FeeState
  isForkBase(block: Block): boolean
}

/** Whether a header marks its block as executed asynchronously (all zero marks a synchronous one: hook.Synchronous). */
function asyncHeader(block: Block): boolean {
  const h = block.header.helicon
  return h !== undefined && (h.settledHeight !== 0n || h.settledGasUnix !== 0n || h.settledGasNumerator !== 0n || h.settledExcess !== 0n)
}

/**
 * ACP-176's target exponent of a block (cchain hooks targetExponent): its header's, a pre-Helicon
 * block's target excess, 0 at genesis and for a fork's first block without a fee state (an
 * Ethereum origin's), as for a new chain.
 */
export function targetExponentOf(chain: SettlementChain, block: Block): bigint {
  const { header } = block
  if (header.helicon !== undefined) return header.helicon.targetExponent
  return header.number === 0n || (chain.isForkBase(block) && header.extraData.length < FEE_STATE_SIZE) ? 0n : chain.feeStateOf(block).targetExcess
}

/** ACP-283's price exponent of a block (0 before Helicon). */
export function priceExponentOf(block: Block): bigint {
  return block.header.helicon?.minPriceExponent ?? 0n
}

export function encodeExecution(e: Execution): Uint8Array {
  const c = e.clock
  return RLP.encode([e.root, ...[e.baseFee, c.seconds, c.fraction, c.rate, c.excess, c.minPrice].map(bigIntToUnpaddedBytes)])
}

function decodeExecution(bytes: Uint8Array): Execution {
  const f = RLP.decode(bytes) as Uint8Array[]
  const n = (i: number) => bytesToBigInt(f[i]!)
  return { root: f[0]!, baseFee: n(1), clock: { seconds: n(2), fraction: n(3), rate: n(4), excess: n(5), minPrice: n(6) } }
}

const CACHED = 256

/** Blocks' executions: stored ones read once and kept for the recent blocks; a synchronous block's derived from its header. */
export class Executions {
  private readonly cache = new Map<string, Execution>()

  constructor(private readonly chain: SettlementChain) {}

  /**
   * Whether a block executed asynchronously: a Helicon header with a settlement marker. A fork's
   * first block counts as synchronous (its header and the origin's state at it are all the node
   * has of it), like the last block before Helicon (saevm's transition).
   */
  isAsync(block: Block): boolean {
    return asyncHeader(block) && !this.chain.isForkBase(block)
  }

  /** The height of the last block settled when `block` was accepted: itself for a synchronous one. */
  settledHeightOf(block: Block): bigint {
    return this.isAsync(block) ? block.header.helicon!.settledHeight : block.header.number
  }

  /**
   * The base fee a block's transactions ran at, what calls and traces on its state see (saevm's
   * stateful RPCs fake the header with it): a Helicon header holds the worst case. A block not
   * stored (the pending block) has its header's.
   */
  baseFeeOf(block: Block): bigint {
    if (block.executedBaseFee !== undefined) return block.executedBaseFee
    return (this.isAsync(block) ? this.find(block) : undefined)?.baseFee ?? block.header.baseFee
  }

  /** A block's own post-state root, without a synchronous block's clock. */
  rootOf(block: Block): Uint8Array {
    return this.isAsync(block) ? this.of(block).root : this.syncStateRoot(block)
  }

  /** A block's execution; a synchronous block's is derived once (its clock inverts the base fee: a search). */
  of(block: Block): Execution {
    const e = this.find(block)
    if (e === undefined) throw new Error(`block ${block.header.number} has no execution record`)
    return e
  }

  /** A block's execution from the cache, the store or (synchronous) its header; none for an asynchronous block not stored. */
  private find(block: Block): Execution | undefined {
    const key = bytesToHex(block.hash)
    let e = this.cache.get(key)
    if (e === undefined) {
      const stored = this.isAsync(block) ? this.chain.store.readExecution(block.hash) : undefined
      if (this.isAsync(block) && stored === undefined) return undefined
      e = stored === undefined ? this.synchronous(block) : decodeExecution(stored)
      this.remember(key, e)
    }
    return e
  }

  /** A block just executed (before its batch is written: the record goes in it). */
  remember(hashHex: string, e: Execution): void {
    if (this.cache.size >= CACHED) this.cache.delete(this.cache.keys().next().value!)
    this.cache.set(hashHex, e)
  }

  forget(): void {
    this.cache.clear()
  }

  /** A synchronous block's execution is its header (blocks.synchronousExecutionResults; the clock from its base fee). */
  private synchronous(block: Block): Execution {
    const { header } = block
    const { target, cfg } = gasConfigAfter(targetExponentOf(this.chain, block), priceExponentOf(block))
    const clock = GasClock.synchronous(header.timeMilliseconds, target, header.baseFee, cfg).state()
    return { root: this.syncStateRoot(block), baseFee: header.baseFee, clock }
  }

  /** A synchronous block's state root: its header's, a fork's first block's the origin's. */
  private syncStateRoot(block: Block): Uint8Array {
    return this.chain.isForkBase(block) ? this.chain.opts.fork!.stateRoot : block.header.stateRoot
  }

  /**
   * The last block a child of `parent` at `settleAtMs` + Tau settles (blocks.LastToSettleAt): walking
   * back from the parent, the first whose execution finished by then; never before the parent's own.
   */
  lastToSettle(parent: Block, settleAtMs: bigint): Block {
    const floor = this.settledHeightOf(parent)
    let block = parent
    while (block.header.number > floor) {
      if (block.header.timeMilliseconds <= settleAtMs && compareGasTimeMs(this.of(block).clock, settleAtMs) <= 0) return block
      block = this.chain.blockByNumber(block.header.number - 1n)!
    }
    return block
  }

  /**
   * eth_baseFee and the next gas limit under Helicon: the worst-case clock at the end of the head
   * (saevm rpc estimateNextBaseFee: an upper bound, as time only lowers it); a synchronous head's own base fee.
   */
  nextBounds(head: Block): { baseFee: bigint; gasLimit: bigint } {
    if (!this.isAsync(head)) return { baseFee: head.header.baseFee, gasLimit: safeMaxBlockSize(this.clockAfter(head).rate) }
    const clock = this.worstCaseClock(this.chain.blockByNumber(this.settledHeightOf(head))!, head)
    return { baseFee: clock.price(), gasLimit: safeMaxBlockSize(clock.rate) }
  }

  /** The worst-case base fee of a child of `parent` at `timeMs`: what its transactions' fee caps must reach. */
  worstBaseFeeAt(parent: Block, timeMs: bigint): bigint {
    return this.worstCaseClock(this.lastToSettle(parent, timeMs - TAU_MS), parent, timeMs).price()
  }

  /** The gas clock after a block's execution. */
  clockAfter(block: Block): GasClock {
    return GasClock.from(this.of(block).clock)
  }

  /**
   * The worst-case gas clock at a new block's time (worstcase.State): from the last settled block's
   * executed clock, each unsettled block counted at its header's gas (the sum of its gas limits).
   */
  worstCaseClock(lastSettled: Block, parent: Block, timeMs?: bigint): GasClock {
    const clock = GasClock.from(this.of(lastSettled).clock)
    for (let n = lastSettled.header.number + 1n; n <= parent.header.number; n++) {
      const u = this.chain.blockByNumber(n)!
      clock.beforeBlock(u.header.timeMilliseconds)
      const { target, cfg } = gasConfigAfter(targetExponentOf(this.chain, u), priceExponentOf(u))
      clock.afterBlock(u.header.gasUsed, target, cfg)
    }
    if (timeMs !== undefined) clock.beforeBlock(timeMs)
    return clock
  }

  /** The receipts root and bloom over the receipts of the blocks in (from, to] (what a block settling them carries). */
  settledReceipts(from: bigint, to: bigint): { receiptRoot: Uint8Array; bloom: Uint8Array } {
    const receipts: Receipt[] = []
    for (let n = from + 1n; n <= to; n++) receipts.push(...this.chain.receipts(this.chain.blockByNumber(n)!))
    return { receiptRoot: orderedTrieRoot(receipts.map(encodeConsensusReceipt)), bloom: blockBloom(receipts) }
  }
}

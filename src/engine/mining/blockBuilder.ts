import type { StateManagerInterface } from '@ethereumjs/common'
import type { Logger } from 'pino'
import type { BlockTxRunner } from '../exec/blockTx.js'
import type { BatchOp } from '../../store/db.js'
import { type Block, makeBlock } from '../chain/block.js'
import { BlockClock } from '../rules/blockClock.js'
import { BlockOverrides } from '../chain/blockOverrides.js'
import { type NextBlockPlan, planNextBlock, type RunOutcome, runCandidates, sealHeader } from './blockAssembly.js'
import { type HeliconVotes, heliconExecution, heliconVotes } from './heliconBlock.js'
import type { Chain } from '../chain/chain.js'
import { desiredDelayExcess, minBuildableCapacity } from '../rules/feeState.js'
import { orderedTrieRoot, txRoot } from '../chain/orderedTrieRoot.js'
import { blockBloom } from '../chain/receipt.js'
import type { TxFailure } from './hardhatFailure.js'
import type { PoolTx, TxPool } from '../pool/txPool.js'
import type { OverlayState } from '../state/overlayState.js'
import { writeChanges } from '../state/stateWriter.js'
import { pacer, sleep } from './pacer.js'
import { ForkError } from '../../fork/errors.js'

/** A build this recent means transactions are streaming in. */
const BUSY_MS = 20
/**
 * How long a busy builder gathers transactions before the next block at most: it stops once as
 * many wait as the last block answered (their senders send next). Sends are answered with their
 * block, so a block holds at most one transaction per sender in flight; waiting for them all
 * shares the block's cost (state root, the write) among more (docs/PERFORMANCE.md).
 */
const GATHER_MS = 10
/** Node's longest timer. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** What a block's atomic txs add: extData, their gas, the store ops of their acceptance. */
export interface AtomicBatch {
  /** coreth codec v0 of []*Tx; empty when there are no atomic txs */
  extData: Uint8Array
  /** Σ GasUsed of the txs (header extDataGasUsed) */
  gasUsed: bigint
  count: number
  /** shared-memory and repository writes, committed in the block's batch */
  ops: BatchOp[]
  /** The block is on disk: the txs leave the mempool, shared memory's index moves. */
  accepted(height: bigint): void
  /** The block was not written: the txs go back to Pending. */
  cancelled(): void
}

/**
 * The atomic mempool as the builder sees it (coreth's onFinalizeAndAssemble callback): after the
 * block's EVM txs, picks atomic txs and applies their EVM effects on the block's state.
 */
export interface AtomicBlockSource {
  /** Whether atomic txs wait: a block may hold only atomic txs. */
  hasPending(): boolean
  assemble(env: { number: bigint; baseFee: bigint; atomicGasLimit: bigint; sm: StateManagerInterface }): Promise<AtomicBatch | undefined>
}

export interface BlockBuilderOptions {
  /** ms between blocks; 0 = build as soon as transactions wait (automine). */
  blockInterval: number
  gasTarget?: number
  minDelayTarget: number
  /** Helicon: ACP-283's minimum price in wei this node votes for. */
  minPriceTarget?: number
  /** Each block at least a second after its parent (a development chain: BlockClock). */
  distinctSeconds: boolean
  log: Logger
}

/** When blocks are built: as transactions arrive (automine), every `intervalMs` (empty blocks too), or only when asked. */
export interface MiningMode {
  automine: boolean
  /** ms between blocks; 0 = no interval mining. */
  intervalMs: number
}

/**
 * Builds blocks from the pool on the chain's head: all executable transactions that fit go into
 * one block, so concurrent senders share blocks. Runs one build at a time.
 */
export class BlockBuilder {
  private running: Promise<void> | undefined
  private again = false
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private mode: MiningMode
  /** Atomic txs (set once by the composition root). */
  atomic: AtomicBlockSource | undefined
  /** ACP-226 delay excess the chain steers toward: a search over the price function, so found once, not per block. */
  private readonly desiredDelay: bigint
  /** Helicon's votes: the exponents this node steers toward (heliconVotes). */
  readonly votes: HeliconVotes
  /** The time of the next blocks (the fee oracle reads it too). */
  readonly clock: BlockClock
  /** Header fields the development controls set for the next blocks. */
  readonly overrides = new BlockOverrides()

  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    /** Runs the block's transactions on `sm`. */
    private readonly txs: BlockTxRunner,
    /** The block's state: an overlay over the head's flat state, reset after each block. */
    private readonly sm: OverlayState,
    private readonly opts: BlockBuilderOptions,
  ) {
    this.desiredDelay = desiredDelayExcess(BigInt(opts.minDelayTarget))
    this.votes = heliconVotes(opts)
    this.clock = new BlockClock(Date.now, opts.distinctSeconds)
    this.mode = BlockBuilder.defaultMode(opts.blockInterval)
    this.setMining(this.mode)
  }

  /** The mode the `block-interval` flag asks for: automine at 0, else interval mining. */
  static defaultMode(blockInterval: number): MiningMode {
    return { automine: blockInterval === 0, intervalMs: blockInterval }
  }

  get mining(): MiningMode {
    return { ...this.mode }
  }

  /** Back to the mode of the `block-interval` flag (anvil_reset). */
  resetMining(): void {
    this.setMining(BlockBuilder.defaultMode(this.opts.blockInterval))
  }

  /** Switches the mining mode (evm_setAutomine, evm_setIntervalMining); waiting transactions stay until the next trigger. */
  setMining(mode: MiningMode): void {
    this.mode = { ...mode }
    // Sends waiting for their block are answered: without automine none is coming for them.
    if (!mode.automine) this.settleAll()
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    // setInterval takes at most 2^31 - 1 ms (longer ones would fire every ms).
    if (mode.intervalMs > 0 && !this.closed) this.timer = setInterval(() => this.trigger(), Math.min(mode.intervalMs, MAX_TIMER_MS))
  }

  /** Asks for a build; coalesces requests that arrive while one runs (or while exclusive() holds the chain). */
  trigger(): void {
    // With neither automine nor interval mining, blocks are built only by a mine call (buildOnce).
    if (this.closed || this.manual) return
    if (this.running !== undefined || this.held) {
      this.again = true
      return
    }
    this.running = this.loop().finally(() => {
      this.running = undefined
    })
  }

  /** Neither automine nor interval mining. */
  private get manual(): boolean {
    return !this.mode.automine && this.mode.intervalMs === 0
  }

  /** Called when a transaction becomes executable. */
  onPending(): void {
    if (this.mode.automine) this.trigger()
    if (this.gathering !== undefined && this.pool.size.pending >= this.gathering.want) this.gathering.done()
  }

  /** The wait for a block's transactions to arrive (loop()): done once `want` are executable. */
  private gathering: { want: number; done: () => void } | undefined
  /** Sends the last build answered: their senders are about to send again. */
  private lastAnswered = 0

  /** Waits up to GATHER_MS for `want` executable transactions. */
  private gather(want: number): Promise<void> {
    if (this.pool.size.pending >= want) return new Promise((r) => setImmediate(r))
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.gathering = undefined
        resolve()
      }
      const timer = setTimeout(done, GATHER_MS)
      this.gathering = { want, done }
    })
  }

  /** A build that could not proceed tries again shortly (trigger() does nothing while blocks are only built when asked). */
  private retrySoon(): void {
    setTimeout(() => this.trigger(), 100).unref()
  }

  private async loop(): Promise<void> {
    while (!this.closed && !this.manual) {
      this.again = false
      // Under a stream of transactions from several senders (the last block is only just built
      // and carried more than one), wait a moment so the next block carries what is arriving:
      // bigger blocks pay the per-block cost (state root, the write) fewer times. With sends
      // answered once their block is committed, the senders the last block answered send next:
      // the wait ends as soon as as many more wait. An idle chain, or one sender waiting for each
      // receipt (newHeads latency, W8), builds at once.
      const busy = this.lastTxs > 1 && performance.now() - this.lastBuilt < BUSY_MS
      await (busy ? this.gather(this.pool.size.pending + this.lastAnswered) : new Promise<void>((r) => setImmediate(r)))
      if (this.manual) return
      try {
        this.lastTxs = (await this.buildOnce(!this.mode.automine))?.txs.length ?? 0
      } catch (err) {
        this.opts.log.error({ err }, 'block build failed')
        this.progress = false
        // A fork's origin out of reach: try again in a while, not at once.
        if (err instanceof ForkError) setTimeout(() => this.trigger(), 2_000).unref()
      }
      this.lastBuilt = performance.now()
      // Keep building while the last build moved the pool and executable transactions remain.
      const more = this.mode.automine && this.progress && (this.pool.size.pending > 0 || this.atomic?.hasPending() === true)
      if (!this.again && !more) {
        // Atomic txs that did not fit the remaining capacity wait for it to refill.
        if (this.mode.automine && !this.progress && this.atomic?.hasPending() === true) this.retrySoon()
        return
      }
    }
  }

  private held = false
  private exclusiveTail: Promise<unknown> = Promise.resolve()

  /**
   * Runs `fn` with no block being built meanwhile (development edits of the head's state, a
   * revert): waits for a running build, holds new ones until `fn` is done, then builds what waits.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.exclusiveTail.then(async () => {
      this.held = true
      try {
        while (this.running !== undefined) await this.running
        return await fn()
      } finally {
        this.held = false
        if (this.again) this.trigger()
      }
    })
    this.exclusiveTail = run.catch(() => {})
    return run
  }

  private lastBuilt = -Infinity
  /** Transactions in the last block built (0 when the last build made none). */
  private lastTxs = 0

  /** Whether the last build included or dropped anything. */
  private progress = false

  /** Waits for any running build and stops the interval timer. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearInterval(this.timer)
    await this.running
    this.settleAll()
  }

  /** Builds that have taken the pool's candidates so far. */
  private considered = 0
  /** Sends waiting for a build that takes the candidates after they joined the pool. */
  private waiters: { after: number; hash: string; resolve: (failure: TxFailure | undefined) => void }[] = []

  /**
   * With automine, resolves once a build that takes the pool's candidates from now on has finished:
   * the transaction `hash`, made executable just before, is then in a committed block (or was left
   * out of it, as one whose fee cap is under the base fee); with how it failed, if it did. Anvil
   * and hardhat answer a send in automine mode only once its block is mined, and clients read the
   * receipt and the state right after. Without automine, at once.
   */
  nextBuild(hash: string): Promise<TxFailure | undefined> {
    if (!this.mode.automine || this.closed) return Promise.resolve(undefined)
    return new Promise((resolve) => this.waiters.push({ after: this.considered, hash, resolve }))
  }

  /** Answers every waiting send (automine stopped, the pool was put back, the node closes). */
  settleAll(): void {
    const waiting = this.waiters
    this.waiters = []
    for (const w of waiting) w.resolve(undefined)
  }

  /** Answers the sends that build `id` covered (those that were waiting before it took the candidates), with how the ones in its block failed. */
  private settle(id: number, failures: ReadonlyMap<string, TxFailure> | undefined): void {
    this.lastAnswered = 0
    if (this.waiters.length === 0) return
    const still: typeof this.waiters = []
    for (const w of this.waiters) {
      if (w.after < id) w.resolve(failures?.get(w.hash))
      else still.push(w)
    }
    this.lastAnswered = this.waiters.length - still.length
    this.waiters = still
  }

  /**
   * Builds and commits one block from the pool; returns it, or undefined when there was nothing to
   * do. `forced` (evm_mine, anvil_mine): a block is built whatever the ACP-176 capacity, with what fits.
   */
  async buildOnce(allowEmpty = false, forced = false): Promise<Block | undefined> {
    const exact = this.clock.pendingExact
    const plan = planNextBlock(this.chain, this.clock, this.overrides, this.votes)
    const { proposed, earliest, minDelay, before, feeFloor, gasLimit } = plan
    // ACP-226: a block comes at least the minimum delay after its parent. The running clock waits
    // for it; a set timestamp, a clock moved behind the head or a forced build takes the earliest time.
    if (proposed.ms < earliest && proposed.running && !forced && earliest - proposed.ms <= minDelay) await sleep(Number(earliest - proposed.ms))
    if (!forced && before !== undefined && before.capacity < minBuildableCapacity(gasLimit)) {
      // Not enough capacity refilled yet (miner/worker.go): try again shortly.
      this.progress = false
      this.retrySoon()
      return undefined
    }
    const candidates = this.pool.executable(feeFloor)
    const id = ++this.considered
    let built: { block: Block; failures: ReadonlyMap<string, TxFailure> } | undefined
    try {
      built = await this.assemble(plan, candidates, exact, allowEmpty)
      return built?.block
    } finally {
      this.settle(id, built?.failures)
    }
  }

  /** Runs the candidates into a block on the plan and commits it (buildOnce after the plan and the pool's pick); with how its failed transactions failed. */
  private async assemble(
    plan: NextBlockPlan,
    candidates: PoolTx[],
    exact: { seconds: bigint } | undefined,
    allowEmpty: boolean,
  ): Promise<{ block: Block; failures: ReadonlyMap<string, TxFailure> } | undefined> {
    const { baseFee, feeFloor, gasLimit, available, number, coinbase } = plan
    const timeMs = plan.timeMs
    if (candidates.length === 0 && !allowEmpty && this.atomic?.hasPending() !== true) {
      this.progress = false
      return undefined
    }

    const env = this.chain.envBlock({ number, timestamp: timeMs / 1000n, gasLimit, baseFee, coinbase })
    let run: RunOutcome
    let atomic: AtomicBatch | undefined
    const pause = pacer()
    await this.sm.checkpoint()
    try {
      run = await runCandidates(this.txs, this.sm, env, candidates, plan, pause, (ptx, err) => this.opts.log.debug({ tx: ptx.hash, err: err.message }, 'dropping transaction'))
      // coreth applies atomic txs after the EVM txs (onFinalizeAndAssemble), within what the block's ACP-176 capacity
      // leaves (customheader.RemainingAtomicGasCapacity); Helicon: their fee against the worst-case base fee, their gas against the limits'.
      const used = plan.helicon === undefined ? run.gasUsed : run.limitGas
      atomic = await this.atomic?.assemble({ number, baseFee: feeFloor, atomicGasLimit: available > used ? available - used : 0n, sm: this.sm })
      await this.sm.commit()
    } catch (err) {
      atomic?.cancelled()
      this.sm.reset()
      throw err
    }
    const { included, dropped, receipts, receiptBytes, gasUsed } = run
    const atomicCount = atomic?.count ?? 0
    this.progress = included.length > 0 || dropped.length > 0 || atomicCount > 0
    if (included.length === 0 && atomicCount === 0 && !allowEmpty) {
      this.sm.reset()
      await this.pool.onNewHead(undefined, dropped)
      return undefined
    }
    let block: Block
    try {
      // The trie sees the block once, with only what it changed; the flat state gets the same changes in the block's batch.
      const { root: stateRoot, flat } = await writeChanges(
        this.chain.trieNodes,
        this.chain.headStateRoot,
        (addrHash) => this.chain.flat.account(addrHash),
        this.sm.changes(),
        pause,
        this.chain.forkState,
      )
      const txs = included.map((p) => p.tx)
      const txRootHash = txRoot(txs)
      await pause()
      const receiptRootHash = orderedTrieRoot(receiptBytes)
      await pause()
      const bloom = blockBloom(receipts)
      await pause()
      const extData = atomicCount > 0 ? atomic!.extData : new Uint8Array()
      const extDataGasUsed = atomicCount > 0 ? atomic!.gasUsed : 0n
      const gasTarget = this.opts.gasTarget === undefined ? undefined : BigInt(this.opts.gasTarget)
      const { predicateResults } = run
      const seal = { stateRoot, txRoot: txRootHash, receiptRoot: receiptRootHash, bloom, gasUsed, extData, extDataGasUsed, gasTarget, predicateResults, limitGas: run.limitGas }
      const header = sealHeader(this.chain, plan, { ...seal, desiredDelay: this.desiredDelay })
      block = makeBlock(header, txs, extData)
      await pause()
      const execution = plan.helicon && heliconExecution(plan.helicon, stateRoot, baseFee, gasUsed + extDataGasUsed)
      await this.chain.commit(block, receipts, atomicCount > 0 ? atomic!.ops : [], flat, pause, execution)
    } catch (err) {
      // Not on disk: the next build starts clean on the head, and the atomic txs go back to Pending.
      atomic?.cancelled()
      this.sm.reset()
      throw err
    }
    this.sm.reset()
    this.clock.committed(timeMs / 1000n, exact)
    this.overrides.baseFee = undefined
    atomic?.accepted(number)
    await this.pool.onNewHead(included, dropped)
    return { block, failures: run.failures }
  }
}

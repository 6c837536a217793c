import { EventEmitter } from 'node:events'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, bytesToHex, setLengthLeft } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import type { Database } from '../store/db.js'
import { chainVM } from './exec/chainVm.js'
import { createAccessList, type AccessListResult } from './exec/accessList.js'
import type { Block } from './chain/block.js'
import { BlockBuilder, type AtomicBlockSource } from './mining/blockBuilder.js'
import { Chain } from './chain/chain.js'
import type { EngineOptions } from './engineOptions.js'
import { NotFoundError } from './base/errors.js'
import { CallMemo, callKey } from './exec/callMemo.js'
import { EngineDev } from './engineDev.js'
import { PendingBlocks } from './mining/pendingBlock.js'
import { estimateGas } from './exec/estimateGas.js'
import { FilterManager } from './logs/filters.js'
import { LogIndex, type FoundLog } from './logs/logIndex.js'
import { queryLogs, type LogQuery } from './logs/logQuery.js'
import { NextBlockExecutor } from './mining/nextBlockExecutor.js'
import { TxSubmission } from './mining/txSubmission.js'
import { type CallOutcome, type CallRunner, callPrecheckError, executionError } from './exec/executor.js'
import { SharedExecutor } from './exec/sharedExecutor.js'
import { OwnEvm, chainHost } from './exec/ownEvm.js'
import { BlockTxRunner } from './exec/blockTx.js'
import { EngineWarp } from './engineWarp.js'
import { type CallBlockOverrides, overriddenExecutor } from './exec/callOverrides.js'
import { FlatView, type StateReader } from './state/flatView.js'
import { forkGenesis, openForkRecord } from './chain/forkBase.js'
import type { ForkState } from './state/forkState.js'
import { OverlayState } from './state/overlayState.js'
import type { Cancellation, RunLimit } from './exec/evmGuard.js'
import { FeeOracle } from './prices/feeOracle.js'
import { UNSCHEDULED_TIME } from './rules/genesis.js'
import { gasForSize } from './exec/txSizeBound.js'
import { minChargeDivisor } from '../evm/evmRules.js'
import { accountProof, type AccountProof } from './chain/proof.js'
import type { Receipt } from './chain/receipt.js'
import type { PruneResult } from './state/statePruner.js'
import { TxPool, type PoolTx } from './pool/txPool.js'
import { simulate } from './exec/simulate.js'
import { checkSimulateSize, type SimBlockResult, type SimulateOptions } from './exec/simulateOptions.js'
import { type AdmissionRules, admitRawTransaction } from './pool/txValidation.js'
import type { BlockRef, CallRequest, StateOverride } from './base/types.js'
import { traceBlock, traceCall, traceTransaction, type TraceCallOptions, type TxTraceResult } from './tracing/trace.js'
import type { TraceOptions } from './tracing/config.js'

const RECENT_EXECUTORS = 8

/**
 * The EVM chain engine: reads at any block, calls and estimates, the pool and the builder.
 * Everything the eth/net/web3 namespaces need goes through here; its chain and pool stay private.
 */
export class Engine {
  /** 'pendingTx' (PoolTx): a transaction became executable in the pool. New blocks are on headEvents. */
  readonly events = new EventEmitter()
  readonly fees: FeeOracle
  /** eth_getLogs over the bloom index. */
  readonly logs: LogIndex
  /** Polling filters (eth_newFilter & co.). */
  readonly filters: FilterManager
  /** The VM every call at a block runs on (executorAt). */
  private readonly calls: SharedExecutor
  /** Trie readers of blocks older than the flat state covers. */
  private readonly readers = new Map<string, MerkleStateManager>()
  private readonly submission: TxSubmission
  private readonly nextBlock: NextBlockExecutor
  private readonly callCache = new CallMemo()
  private devAccess: EngineDev | undefined
  private pendingBlocks: PendingBlocks | undefined
  /** rpc-evm-timeout in ms (0 = none): the wall time of one RPC execution (docs/SECURITY.md, E2). */
  readonly evmTimeoutMs: number

  private constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly builder: BlockBuilder,
    private readonly opts: EngineOptions,
    /** The node's interpreter where it serves this chain's calls (exec/ownEvm.ts), with its counts. */
    readonly own: OwnEvm | undefined,
    /** What the warp_ API reads (engineWarp.ts). */
    readonly warp: EngineWarp,
  ) {
    this.fees = new FeeOracle(chain, builder, { minTip: opts.admission.minTip, ...opts.feeHistory })
    this.evmTimeoutMs = opts.evmTimeoutMs
    this.submission = new TxSubmission({ chain, pool, builder, fees: this.fees, events: this.events, headState: () => this.headState(), opts })
    this.calls = new SharedExecutor(chain, this.own)
    this.nextBlock = new NextBlockExecutor(chain, builder, this.own)
    this.logs = new LogIndex(chain)
    this.filters = new FilterManager(this.logs, { chain: chain.events, pool: this.events }, opts.filters, opts.now)
    chain.events.on('head', () => this.callCache.clear())
    // The head's state changed without a block (development edits) or the chain was read back (a revert).
    chain.events.on('state', () => this.forgetState())
    this.events.setMaxListeners(0)
  }

  static async create(db: Database, opts: EngineOptions): Promise<Engine> {
    const { log, stateHistory, stateCache, gasTarget, minDelayTarget, minPriceTarget, heliconTime, subnetEvm } = opts
    const warp = subnetEvm === undefined || subnetEvm.everEnables('warpConfig') ? opts.warp : undefined // a subnet-evm chain's config enables Warp
    const fork = await openForkRecord(db, opts.fork)
    const helicon = heliconTime < UNSCHEDULED_TIME
    const origin = opts.fork?.origin
    const chain = await Chain.open(db, { genesis: forkGenesis(opts.genesis, fork), log, stateHistory, stateCache, gasTarget, minDelayTarget, fork, origin, warp, helicon, heliconTime, subnetEvm })
    const sm = new OverlayState(chain.headView(), chain.codeSource)
    const vm = await chainVM(chain, sm, { sharedCommon: true })
    const engineRef: { engine?: Engine } = {}
    const pool = new TxPool(opts.pool, async (sender) => (await engineRef.engine!.headState().getAccount(sender))?.nonce ?? 0n)
    const own = OwnEvm.for(chain, opts.evm, opts.log)
    const txs = new BlockTxRunner(vm, sm, own, chainHost(chain), chain.warp)
    const builder = new BlockBuilder(chain, pool, txs, sm, { blockInterval: opts.blockInterval, gasTarget, minDelayTarget, minPriceTarget, distinctSeconds: opts.devChain, log })
    const engine = new Engine(chain, pool, builder, opts, own, new EngineWarp(chain))
    engineRef.engine = engine
    return engine
  }

  get chainId(): bigint {
    return this.chain.chainId
  }

  get head(): Block {
    return this.chain.head
  }

  /** 'head' (block, receipts, its own logs bloom): a block was accepted. */
  get headEvents(): EventEmitter {
    return this.chain.events
  }

  /** The chain's configured rules: its genesis, when Helicon starts (seconds; UNSCHEDULED_TIME at Granite), a subnet-evm chain's (docs/L1.md). */
  get rules(): Pick<EngineOptions, 'genesis' | 'heliconTime' | 'subnetEvm'> {
    return this.opts
  }

  /** A fork's origin, fork point and state fetcher (docs/FORK.md); undefined on a chain of its own. */
  get fork(): ForkState | undefined {
    return this.chain.forkState
  }

  /** The Common every transaction object of this chain shares (set up once). */
  get txCommon(): Common {
    return this.chain.txCommon
  }

  /** A block's receipts, in transaction order. */
  receipts = (block: Block): Receipt[] => this.chain.receipts(block)

  /** The pending block (geth's miner pending block: src/engine/mining/pendingBlock.ts): the head's next block with the pool's executable txs, kept nowhere. */
  pendingBlock(): Promise<Block> {
    return (this.pendingBlocks ??= new PendingBlocks(this.chain, this.pool, this.builder, this.opts, this.own)).block()
  }

  /** Whether the head block reads back from the database (the health check). */
  headStored = (): boolean => this.chain.store.readBlock(this.chain.head.hash) !== undefined

  async close(): Promise<void> {
    this.filters.close()
    await this.builder.close()
  }

  /** Resolves a block reference; unknown blocks are geth's "header not found" errors. */
  resolveBlock(ref: BlockRef): Block {
    const block = this.findBlock(ref)
    if (block === undefined) throw new NotFoundError(typeof ref === 'object' ? 'header for hash not found' : 'header not found')
    return block
  }

  /** Like resolveBlock, but undefined for a block that does not exist (eth_getBlockBy* answer null). */
  findBlock(ref: BlockRef): Block | undefined {
    if (typeof ref === 'bigint') return this.chain.blockByNumber(ref)
    if (typeof ref === 'object') {
      const block = this.chain.blockByHash(ref.blockHash)
      if (block !== undefined && ref.requireCanonical === true && !this.chain.isCanonical(block)) {
        throw new NotFoundError(`hash ${bytesToHex(ref.blockHash)} is not currently canonical`)
      }
      return block
    }
    if (ref === 'earliest') return this.chain.genesisBlock
    // Helicon: safe and finalized the last settled block, latest and pending the last executed (saevm blocks.ResolveRPCNumber); before, the last accepted.
    if ((ref === 'safe' || ref === 'finalized') && this.chain.opts.helicon) return this.chain.lastSettled()
    return this.chain.head
  }

  /** An executor (state + EVM) at a block: one VM for every block's calls, moved to the block for each run (sharedExecutor.ts). */
  executorAt(block: Block): Promise<CallRunner> {
    this.chain.requireState(block)
    return this.calls.at(bytesToHex(block.hash), block, () => this.chain.stateReader(block))
  }

  /** A read-only state view at a block (Chain.stateReader), apart from the executors' overlays whose writes it must never see. */
  readerAt(block: Block): StateReader {
    this.chain.requireState(block)
    return this.chain.stateReader(block, () => this.trieAt(block))
  }

  /** The trie at a block's root (eth_getProof, and reads older than the flat state covers). */
  trieAt(block: Block): MerkleStateManager {
    this.chain.requireState(block)
    const key = bytesToHex(block.hash)
    let sm = this.readers.get(key)
    if (sm === undefined) {
      sm = this.chain.newStateManager(this.chain.stateRootOf(block))
      this.readers.set(key, sm)
      if (this.readers.size > RECENT_EXECUTORS) this.readers.delete(this.readers.keys().next().value!)
    }
    return sm
  }

  headState = (): StateReader => this.readerAt(this.chain.head)

  stateAt(ref: BlockRef): StateReader {
    return this.readerAt(this.resolveBlock(ref))
  }

  /** eth_getBalance without a promise when the flat state holds the answer (docs/PERFORMANCE.md); else undefined. */
  balanceNow(address: Uint8Array, ref: BlockRef): bigint | undefined {
    const reader = this.stateAt(ref)
    if (!(reader instanceof FlatView)) return undefined
    const account = reader.accountNow(address)
    return account === null ? undefined : (account?.balance ?? 0n)
  }

  async balance(address: Uint8Array, ref: BlockRef): Promise<bigint> {
    const account = await this.stateAt(ref).getAccount(new Address(address))
    return account?.balance ?? 0n
  }

  async nonce(address: Uint8Array, ref: BlockRef): Promise<bigint> {
    if (ref === 'pending') {
      const sender = new Address(address)
      this.submission.pendingNonceRead(sender.toString())
      return this.pool.nextNonce(sender)
    }
    const account = await this.stateAt(ref).getAccount(new Address(address))
    return account?.nonce ?? 0n
  }

  async code(address: Uint8Array, ref: BlockRef): Promise<Uint8Array> {
    return this.stateAt(ref).getCode(new Address(address))
  }

  async storage(address: Uint8Array, slot: Uint8Array, ref: BlockRef): Promise<Uint8Array> {
    const value = await this.stateAt(ref).getStorage(new Address(address), setLengthLeft(slot, 32))
    return setLengthLeft(value, 32)
  }

  /** The limit of one RPC execution: rpc-evm-timeout, and the request's cancellation. */
  evmLimit(cancel?: Cancellation): RunLimit {
    return { timeoutMs: this.evmTimeoutMs, cancel }
  }

  /** eth_call: the return data, or geth's revert / execution error (block overrides: callOverrides.ts). Results at 'latest' are memoised per head. */
  async call(req: CallRequest, ref: BlockRef, overrides?: StateOverride, cancel?: Cancellation, blockOverrides?: CallBlockOverrides): Promise<Uint8Array> {
    const block = this.resolveBlock(ref)
    const cacheKey = overrides === undefined && blockOverrides === undefined && ref !== 'pending' ? callKey(block, req) : undefined
    const hit = cacheKey === undefined ? undefined : this.callCache.get(cacheKey)
    if (hit !== undefined) return hit
    const outcome = await this.callOutcome(req, ref, overrides, cancel, blockOverrides, block)
    if (outcome.error !== undefined) throw executionError(outcome)
    if (cacheKey !== undefined && this.chain.head === block) this.callCache.set(cacheKey, outcome.returnData)
    return outcome.returnData
  }

  /** A call's whole outcome, a revert or an exceptional halt included (eth_call, eth_callDetailed). */
  async callOutcome(req: CallRequest, ref: BlockRef, overrides?: StateOverride, cancel?: Cancellation, blockOverrides?: CallBlockOverrides, block = this.resolveBlock(ref)): Promise<CallOutcome> {
    const ex = await (blockOverrides === undefined ? this.executorFor(ref, block) : overriddenExecutor(this.chain, block, blockOverrides, this.own))
    const gas = this.callGas(req.gas)
    return ex.exclusive(this.evmLimit(cancel), () => ex.run(req, gas, overrides)).catch((err: unknown) => Promise.reject(callPrecheckError(err, gas)))
  }

  /** Gas for a call: the request's, else rpc-gas-cap; larger values are capped (geth CallDefaults). */
  callGas(gas: bigint | undefined): bigint {
    const cap = this.opts.rpcGasCap
    if (gas === undefined) return cap === 0n ? (1n << 63n) - 1n : cap
    return cap !== 0n && gas > cap ? cap : gas
  }

  /**
   * eth_estimateGas (src/engine/exec/estimateGas.ts), raised to Helicon's gas-per-byte minimum; rpc-evm-timeout bounds all probes
   * together. Without a block: 'latest' (geth, coreth), or 'pending' on a development chain (anvil, hardhat).
   */
  async estimateGas(req: CallRequest, ref: BlockRef | undefined, overrides?: StateOverride, cancel?: Cancellation): Promise<bigint> {
    const at = ref ?? (this.opts.devChain ? 'pending' : 'latest')
    const ex = await this.executorFor(at, this.resolveBlock(at))
    const gas = await estimateGas(ex, ex.block, req, this.opts.rpcGasCap, this.evmLimit(cancel), overrides, this.opts.devChain)
    return this.chain.opts.helicon ? gasForSize(gas, req, this.chainId, this.fees.nextGasLimit()) : gas
  }

  /** eth_createAccessList (src/engine/exec/accessList.ts). */
  async createAccessList(req: CallRequest, ref: BlockRef, cancel?: Cancellation): Promise<AccessListResult> {
    return createAccessList(await this.executorFor(ref, this.resolveBlock(ref)), req, this.callGas(req.gas), this.evmLimit(cancel), minChargeDivisor(this.chain.common))
  }

  /** The executor a call at `ref` runs on: `block`'s, or at 'pending' on a development chain the next block's context (nextBlockExecutor.ts). */
  private executorFor(ref: BlockRef, block: Block): Promise<CallRunner> {
    return ref === 'pending' && this.opts.devChain ? this.nextBlock.get() : this.executorAt(block)
  }

  /** eth_getProof (src/engine/chain/proof.ts): within the historical window of an archival node, or the kept states of a pruning one. */
  getProof(address: Uint8Array, storageKeys: readonly string[], ref: BlockRef): Promise<AccountProof> {
    const window = this.opts.stateHistory === undefined ? { archive: true, blocks: this.opts.proofWindow } : { archive: false, blocks: this.opts.stateHistory }
    return accountProof(this, window, address, storageKeys, ref)
  }

  /** debug_traceTransaction (src/engine/tracing/trace.ts). */
  traceTransaction(hash: Uint8Array, opts: TraceOptions, cancel?: Cancellation): Promise<unknown> {
    return traceTransaction(this, this.chain, hash, opts, cancel)
  }

  /** debug_traceBlockByNumber / debug_traceBlockByHash. */
  traceBlock(block: Block, opts: TraceOptions, cancel?: Cancellation): Promise<TxTraceResult[]> {
    return traceBlock(this, this.chain, block, opts, cancel)
  }

  /** debug_traceCall. */
  traceCall(req: CallRequest, ref: BlockRef, opts: TraceCallOptions, cancel?: Cancellation): Promise<unknown> {
    return traceCall(this, this.chain, req, ref, opts, cancel)
  }

  /** eth_simulateV1 (geth SimulateV1): blocks of calls on top of a block, on a state that is thrown away. */
  async simulate(opts: SimulateOptions, ref: BlockRef, cancel?: Cancellation): Promise<SimBlockResult[]> {
    checkSimulateSize(opts)
    const { gasTarget } = this.opts
    return simulate(this.chain, this.resolveBlock(ref), opts, {
      gasCap: this.opts.rpcGasCap,
      gasTarget: gasTarget === undefined ? undefined : BigInt(gasTarget),
      run: this.evmLimit(cancel),
    })
  }

  /** eth_sendRawTransaction: admit to the pool (geth's checks and wording), wake the builder and, with automine, answer once its block is committed. */
  sendRawTransaction(raw: Uint8Array): Promise<string> {
    return this.submit((rules, arrival) => admitRawTransaction(raw, rules, arrival))
  }

  /** Admits the transaction `admit` checks against the next block's rules (a raw one, or an impersonated sender's: src/dev/impersonation.ts). */
  submit(admit: (rules: AdmissionRules, arrival: number) => PoolTx): Promise<string> {
    return this.submission.submit(admit)
  }

  /** eth_getLogs (src/engine/logs/logQuery.ts). */
  getLogs(q: LogQuery, cancel?: Cancellation): Promise<FoundLog[]> {
    return queryLogs(this.chain, this.logs, q, this.opts.logs, cancel)
  }

  /** Where a mined transaction is: its block and index (receipt polling asks for pending ones again and again: the pool answers those). */
  txLocation(hash: Uint8Array): { block: Block; index: number } | undefined {
    return this.chain.txLocation(hash, (hashHex) => this.pool.has(hashHex))
  }

  /** The pool's next nonce for a sender, without the pending-nonce guard (that one is for clients' caches). */
  poolNonce(sender: Uint8Array): Promise<bigint> {
    return this.pool.nextNonce(new Address(sender))
  }

  /** The pool's transactions: executable (pending) and nonce-gapped (queued). */
  poolContent(): { pending: PoolTx[]; queued: PoolTx[] } {
    return this.pool.all()
  }

  /** How many transactions the pool holds. */
  poolSize = (): { pending: number; queued: number } => this.pool.size

  /** A transaction by hash: mined (with its block) or waiting in the pool. */
  transaction(hash: Uint8Array): { mined: { block: Block; index: number; receipt: Receipt } } | { pooled: PoolTx } | undefined {
    const loc = this.chain.txLocation(hash)
    if (loc !== undefined) return { mined: { ...loc, receipt: this.chain.receipts(loc.block)[loc.index]! } }
    const pooled = this.pool.get(bytesToHex(hash))
    return pooled === undefined ? undefined : { pooled }
  }

  /** Runs a state garbage collection now (pruning nodes; undefined on an archival node). */
  prune = (): Promise<PruneResult> | undefined => this.chain.pruner?.prune()

  /** Plugs the atomic mempool into block building (coreth's onFinalizeAndAssemble); set once by node.ts. */
  setAtomicSource(source: AtomicBlockSource): void {
    this.builder.atomic = source
  }

  /** Asks for a block soon (an atomic tx arrived); with a fixed interval the next tick builds it. */
  wakeBuilder = (): void => this.builder.onPending()

  /** What the development controls reach inside the engine (src/dev/): held block building, state edits, reloads. */
  get dev(): EngineDev {
    return (this.devAccess ??= new EngineDev(this.chain, this.pool, this.builder))
  }

  private forgetState(): void {
    this.calls.forget()
    this.nextBlock.forget()
    this.readers.clear()
    this.callCache.clear()
  }

  /** Builds one block now from whatever is pending (tests and a fixed block interval use this). */
  buildBlock = (): Promise<Block | undefined> => this.builder.buildOnce(true)
}

import { EventEmitter } from 'node:events'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { createVM } from '@ethereumjs/vm'
import { Address, bytesToHex, setLengthLeft } from '@ethereumjs/util'
import type { Logger } from 'pino'
import type { ChainConfigFile } from '../config.js'
import { configDurationMs } from '../util/goDuration.js'
import type { Database } from '../store/db.js'
import type { Block } from './block.js'
import { BlockBuilder } from './blockBuilder.js'
import type { AtomicBlockSource } from './blockBuilder.js'
import { Chain } from './chain.js'
import { EngineError, ExecutionAbortedError, ExecutionFailedError, InvalidParamsError, NotFoundError, RequestTimeoutError, TxRejectedError } from './errors.js'
import { FilterManager } from './filters.js'
import type { LogCriteria } from './logFilter.js'
import { LogIndex } from './logIndex.js'
import type { FoundLog } from './logIndex.js'
import { Executor, executionError } from './executor.js'
import type { Cancellation, RunLimit } from './evmGuard.js'
import { FeeOracle } from './feeOracle.js'
import type { Genesis } from './genesis.js'
import type { Receipt } from './receipt.js'
import type { PruneResult } from './statePruner.js'
import { TxPool } from './txPool.js'
import { checkSimulateSize, simulate } from './simulate.js'
import type { SimBlockResult, SimulateOptions } from './simulate.js'
import type { PoolTx } from './txPool.js'
import { admitRawTransaction } from './txValidation.js'
import type { BlockRef, CallRequest, StateOverride } from './types.js'

export interface EngineOptions {
  genesis: Genesis
  chain: ChainConfigFile
  blockInterval: number
  /**
   * ms after answering a sender's `pending` nonce during which a transaction from that sender
   * is mined at once but answered only when the window ends (0 = off). See pendingNonceGuard.
   */
  pendingNonceGuardMs: number
  log: Logger
}

/** A mined transaction with where it is. */
export interface TxInBlock {
  block: Block
  index: number
  receipt: Receipt
}

const RECENT_EXECUTORS = 8
const CALL_CACHE_SIZE = 4096
const TX_GAS = 21000n
/** eth_getLogs stops scanning after this many ms (docs/SECURITY.md, E4), then -32002. */
const LOG_QUERY_TIMEOUT_MS = 5000

/** A log query after parsing: one block by hash, or a range of numbers/tags. */
export interface LogQuery {
  blockHash?: Uint8Array
  fromBlock?: Exclude<BlockRef, { blockHash: Uint8Array }>
  toBlock?: Exclude<BlockRef, { blockHash: Uint8Array }>
  criteria: LogCriteria
}

/**
 * The EVM chain engine: reads at any block, calls and estimates, the pool and the builder.
 * Everything the eth/net/web3 namespaces need goes through here.
 */
export class Engine {
  /**
   * 'pendingTx' (PoolTx): a transaction became executable in the pool. New blocks are on
   * chain.events as 'head' (block, receipts).
   */
  readonly events = new EventEmitter()
  readonly fees: FeeOracle
  /** eth_getLogs over the bloom index. */
  readonly logs: LogIndex
  /** Polling filters (eth_newFilter & co.). */
  readonly filters: FilterManager
  private readonly executors = new Map<string, Promise<Executor>>()
  private readonly readers = new Map<string, MerkleStateManager>()
  /** When each sender's `pending` nonce was last answered (pendingNonceGuard). */
  private readonly nonceAnswered = new Map<string, number>()
  private callCache = new Map<string, Uint8Array>()
  private arrivals = 0
  /** rpc-evm-timeout in ms (0 = none): the wall time of one RPC execution (docs/SECURITY.md, E2). */
  readonly evmTimeoutMs: number

  private constructor(
    readonly chain: Chain,
    readonly pool: TxPool,
    private readonly builder: BlockBuilder,
    private readonly opts: EngineOptions,
  ) {
    this.fees = new FeeOracle(chain, opts.chain)
    this.evmTimeoutMs = Math.max(0, configDurationMs(opts.chain['rpc-evm-timeout']))
    this.logs = new LogIndex(chain)
    this.filters = new FilterManager(this.logs, { chain: chain.events, pool: this.events }, {
      timeoutMs: Math.max(0, configDurationMs(opts.chain['filter-timeout'])), maxCount: opts.chain['filter-max-count'], maxBuffered: opts.chain['filter-max-buffered'],
    })
    chain.events.on('head', () => { this.callCache = new Map() })
    this.events.setMaxListeners(0)
  }

  static async create(db: Database, opts: EngineOptions): Promise<Engine> {
    const chain = await Chain.open(db, { genesis: opts.genesis, chain: opts.chain, log: opts.log })
    const sm = chain.newStateManager(chain.head.header.stateRoot)
    const vm = await createVM({ common: chain.common, stateManager: sm, blockchain: chain.blockHashes as never })
    const engineRef: { engine?: Engine } = {}
    const pool = new TxPool({
      priceBump: BigInt(opts.chain['tx-pool-price-bump']), accountSlots: opts.chain['tx-pool-account-slots'],
      globalSlots: opts.chain['tx-pool-global-slots'], accountQueue: opts.chain['tx-pool-account-queue'],
      globalQueue: opts.chain['tx-pool-global-queue'],
    }, async (sender) => engineRef.engine!.headState().getAccount(sender).then((a) => a?.nonce ?? 0n))
    const builder = new BlockBuilder(chain, pool, vm, sm, {
      blockInterval: opts.blockInterval, gasTarget: opts.chain['gas-target'], minDelayTarget: opts.chain['min-delay-target'], log: opts.log,
    })
    const engine = new Engine(chain, pool, builder, opts)
    engineRef.engine = engine
    return engine
  }

  get chainId(): bigint {
    return this.chain.chainId
  }

  get head(): Block {
    return this.chain.head
  }

  async close(): Promise<void> {
    this.filters.close()
    await this.builder.close()
  }

  /** Resolves a block reference; unknown blocks are geth's "header not found" errors. */
  resolveBlock(ref: BlockRef): Block {
    const block = this.findBlock(ref)
    if (block === undefined) {
      if (typeof ref === 'object') throw new NotFoundError(`header for hash not found`)
      throw new NotFoundError('header not found')
    }
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
    // pending, safe and finalized are the last accepted block on Avalanche (coreth api_backend.go).
    return this.chain.head
  }

  /** An executor (state + EVM) at a block: the head's is kept, a few recent others are cached. */
  executorAt(block: Block): Promise<Executor> {
    this.chain.requireState(block)
    const key = bytesToHex(block.hash)
    let ex = this.executors.get(key)
    if (ex === undefined) {
      ex = Executor.create(this.chain, block, this.chain.newStateManager(block.header.stateRoot))
      ex.catch(() => this.executors.delete(key))
      this.executors.set(key, ex)
      if (this.executors.size > RECENT_EXECUTORS) this.executors.delete(this.executors.keys().next().value!)
    }
    return ex
  }

  /**
   * A read-only state view at a block. Kept apart from the executors' state, whose checkpointed
   * writes during a call must never be seen by a concurrent read.
   */
  readerAt(block: Block): MerkleStateManager {
    this.chain.requireState(block)
    const key = bytesToHex(block.hash)
    let sm = this.readers.get(key)
    if (sm === undefined) {
      sm = this.chain.newStateManager(block.header.stateRoot)
      this.readers.set(key, sm)
      if (this.readers.size > RECENT_EXECUTORS) this.readers.delete(this.readers.keys().next().value!)
    }
    return sm
  }

  headState(): MerkleStateManager {
    return this.readerAt(this.chain.head)
  }

  stateAt(ref: BlockRef): MerkleStateManager {
    return this.readerAt(this.resolveBlock(ref))
  }

  async balance(address: Uint8Array, ref: BlockRef): Promise<bigint> {
    const account = await this.stateAt(ref).getAccount(new Address(address))
    return account?.balance ?? 0n
  }

  async nonce(address: Uint8Array, ref: BlockRef): Promise<bigint> {
    if (ref === 'pending') {
      const sender = new Address(address)
      if (this.opts.pendingNonceGuardMs > 0) {
        if (this.nonceAnswered.size > 10_000) this.nonceAnswered.clear()
        this.nonceAnswered.set(sender.toString(), performance.now())
      }
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

  /** eth_call: the return data, or geth's revert / execution error. Results at 'latest' are memoised per head. */
  async call(req: CallRequest, ref: BlockRef, overrides?: StateOverride, cancel?: Cancellation): Promise<Uint8Array> {
    const block = this.resolveBlock(ref)
    const cacheKey = overrides === undefined && ref !== 'pending' ? callKey(block, req) : undefined
    if (cacheKey !== undefined) {
      const hit = this.callCache.get(cacheKey)
      if (hit !== undefined) return hit
    }
    const ex = await this.executorAt(block)
    const gas = this.callGas(req.gas)
    const outcome = await ex.exclusive(this.evmLimit(cancel), () => ex.run(req, gas, overrides))
    if (outcome.error !== undefined) throw executionError(outcome)
    if (cacheKey !== undefined && this.chain.head === block) {
      if (this.callCache.size >= CALL_CACHE_SIZE) this.callCache.clear()
      this.callCache.set(cacheKey, outcome.returnData)
    }
    return outcome.returnData
  }

  /** Gas for a call: the request's, else rpc-gas-cap; larger values are capped (geth CallDefaults). */
  private callGas(gas: bigint | undefined): bigint {
    const cap = BigInt(this.opts.chain['rpc-gas-cap'])
    if (gas === undefined) return cap === 0n ? (1n << 63n) - 1n : cap
    return cap !== 0n && gas > cap ? cap : gas
  }

  /**
   * eth_estimateGas: geth's gasestimator binary search (eth/gasestimator/gasestimator.go). geth
   * bounds it only by the request's deadline; here rpc-evm-timeout bounds all probes together too.
   */
  async estimateGas(req: CallRequest, ref: BlockRef, overrides?: StateOverride, cancel?: Cancellation): Promise<bigint> {
    const block = this.resolveBlock(ref)
    const ex = await this.executorAt(block)
    return ex.exclusive(this.evmLimit(cancel), async () => {
      // Overrides apply once, inside this exclusive section, before every probe.
      let hi = req.gas !== undefined && req.gas >= TX_GAS ? req.gas : block.header.gasLimit
      const cap = BigInt(this.opts.chain['rpc-gas-cap'])
      if (cap !== 0n && hi > cap) hi = cap
      const feeCap = req.gasPrice ?? req.maxFeePerGas ?? 0n
      if (feeCap > 0n) {
        const account = await ex.sm.getAccount(new Address(req.from ?? new Uint8Array(20)))
        let available = account?.balance ?? 0n
        const value = req.value ?? 0n
        if (value > available) throw new ExecutionFailedError('insufficient funds for transfer')
        available -= value
        const allowance = available / feeCap
        if (hi > allowance) hi = allowance
      }
      const probe = async (gas: bigint) => {
        await ex.sm.checkpoint()
        try {
          return await ex.run(req, gas, overrides)
        } finally {
          await ex.sm.revert()
        }
      }
      // A plain transfer to an account without code needs exactly 21000.
      if ((req.input === undefined || req.input.length === 0) && req.to) {
        const code = await ex.sm.getCode(new Address(req.to))
        if (code.length === 0 && overrides?.[bytesToHex(req.to)]?.code === undefined) {
          const r = await probeSafe(probe, TX_GAS)
          if (r !== undefined && r.error === undefined) return TX_GAS
        }
      }
      const top = await probeSafe(probe, hi, true)
      if (top === undefined || top.error !== undefined) {
        if (top !== undefined && top.reverted) throw executionError(top)
        if (top !== undefined && top.error !== 'out of gas') throw executionError(top)
        throw new ExecutionFailedError(`gas required exceeds allowance (${hi})`)
      }
      let lo = top.gasUsed - 1n
      const refundAndStipend = (top.result.execResult.gasRefund ?? 0n) + 2300n
      const optimistic = ((top.gasUsed + refundAndStipend) * 64n) / 63n
      if (optimistic < hi) {
        const r = await probeSafe(probe, optimistic)
        if (r !== undefined && r.error === undefined) hi = optimistic
        else lo = optimistic
      }
      while (lo + 1n < hi) {
        if (((hi - lo) * 1000n) / hi < 15n) break // estimateGasErrorRatio 0.015
        let mid = (hi + lo) / 2n
        if (mid > lo * 2n) mid = lo * 2n
        const r = await probeSafe(probe, mid)
        if (r !== undefined && r.error === undefined) hi = mid
        else lo = mid
      }
      return hi
    })
  }

  /** eth_createAccessList: run with access-list reporting until the list is stable (geth AccessList). */
  async createAccessList(req: CallRequest, ref: BlockRef, cancel?: Cancellation): Promise<{ accessList: { address: string; storageKeys: string[] }[]; gasUsed: bigint; error?: string }> {
    const block = this.resolveBlock(ref)
    const ex = await this.executorAt(block)
    return ex.exclusive(this.evmLimit(cancel), async () => {
      const gas = this.callGas(req.gas)
      let list = req.accessList ?? []
      for (let i = 0; i < 8; i++) {
        await ex.sm.checkpoint()
        let outcome
        try {
          outcome = await ex.run({ ...req, accessList: list }, gas, undefined, true)
        } finally {
          await ex.sm.revert()
        }
        const reported = (outcome.result.accessList ?? []).map((item) => ({
          address: item.address.toLowerCase(), storageKeys: item.storageKeys.map((k) => k.toLowerCase()),
        }))
        const exclude = new Set<string>([bytesToHex(req.from ?? new Uint8Array(20)), ...(req.to ? [bytesToHex(req.to)] : [])])
        const next = reported.filter((i) => !exclude.has(i.address) || i.storageKeys.length > 0)
        const same = JSON.stringify(next) === JSON.stringify(list.map((i) => ({ address: bytesToHex(i.address), storageKeys: i.storageKeys.map((k) => bytesToHex(k)) })))
        if (same || i === 7) {
          const result: { accessList: typeof next; gasUsed: bigint; error?: string } = { accessList: next, gasUsed: outcome.gasUsed }
          if (outcome.error !== undefined) result.error = outcome.reverted ? 'execution reverted' : outcome.error
          return result
        }
        list = next.map((i) => ({ address: hexBytes(i.address), storageKeys: i.storageKeys.map(hexBytes) }))
      }
      throw new ExecutionFailedError('access list did not converge')
    })
  }

  /** eth_simulateV1 (geth SimulateV1): blocks of calls on top of a block, on a state that is thrown away. */
  async simulate(opts: SimulateOptions, ref: BlockRef, cancel?: Cancellation): Promise<SimBlockResult[]> {
    checkSimulateSize(opts)
    const gasTarget = this.opts.chain['gas-target']
    return simulate(this.chain, this.resolveBlock(ref), opts, {
      gasCap: BigInt(this.opts.chain['rpc-gas-cap']), gasTarget: gasTarget === undefined ? undefined : BigInt(gasTarget),
      run: this.evmLimit(cancel),
    })
  }

  /** eth_sendRawTransaction: admit to the pool (geth's checks and wording) and wake the builder. */
  async sendRawTransaction(raw: Uint8Array): Promise<string> {
    const ptx = admitRawTransaction(raw, {
      common: this.chain.txCommon, chainId: this.chain.chainId, allowUnprotected: this.opts.chain['allow-unprotected-txs'],
      txFeeCap: this.opts.chain['rpc-tx-fee-cap'], blockGasLimit: this.fees.nextGasLimit(),
      minTip: BigInt(this.opts.chain['tx-pool-price-limit']), nextBaseFee: this.fees.nextBaseFee(),
      maxSize: this.opts.chain['tx-max-size'],
    }, this.arrivals++)
    // geth: only a tx still in the pool is "already known"; a mined one fails the nonce check.
    if (this.pool.has(ptx.hash)) {
      throw new TxRejectedError('already known')
    }
    // geth ValidateTransactionWithState: nonce first, then balance.
    const account = await this.headState().getAccount(ptx.sender)
    const nonce = account?.nonce ?? 0n
    if (ptx.nonce < nonce) throw new TxRejectedError(`nonce too low: next nonce ${nonce}, tx nonce ${ptx.nonce}`)
    const balance = account?.balance ?? 0n
    const cost = ptx.feeCap * ptx.tx.gasLimit + ptx.tx.value
    if (balance < cost) {
      throw new TxRejectedError(`insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`)
    }
    const executable = await this.pool.add(ptx)
    if (executable) {
      this.events.emit('pendingTx', ptx)
      this.builder.onPending()
    }
    await this.pendingNonceGuard(ptx.senderHex)
    return ptx.hash
  }

  /**
   * ethers v6 answers an identical request from its cache for 250 ms (AbstractProvider
   * cacheTimeout). Blocks here are mined at once, so a wallet's next send within 250 ms of its
   * last `pending` nonce query would reuse that stale nonce and fail. The transaction is already
   * in the pool (and usually mined); only the answer waits until the client's cached nonce
   * has expired. Pre-signed streams never ask for a nonce and are never held.
   */
  private async pendingNonceGuard(sender: string): Promise<void> {
    const answered = this.nonceAnswered.get(sender)
    if (answered === undefined) return
    this.nonceAnswered.delete(sender)
    const wait = answered + this.opts.pendingNonceGuardMs - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }

  /** A block reference of a log query as a number: tags follow the head (coreth: pending = latest). */
  blockNumberOf(ref: Exclude<BlockRef, { blockHash: Uint8Array }> | undefined): bigint {
    if (ref === undefined || typeof ref === 'string') return ref === 'earliest' ? 0n : this.chain.head.header.number
    return ref
  }

  /** eth_getLogs (geth filters.GetLogs, coreth's api-max-blocks-per-request); a scan stops after 5 s (docs/SECURITY.md, E4). */
  async getLogs(q: LogQuery, cancel?: Cancellation): Promise<FoundLog[]> {
    if (q.blockHash !== undefined) {
      const block = this.chain.blockByHash(q.blockHash)
      if (block === undefined) throw new NotFoundError('unknown block')
      return this.logs.inBlock(q.criteria, block)
    }
    const from = this.blockNumberOf(q.fromBlock)
    const to = this.blockNumberOf(q.toBlock)
    if (from > to) throw new InvalidParamsError('invalid block range params')
    if (to > this.chain.head.header.number) throw new InvalidParamsError('block range extends beyond current head block')
    const max = BigInt(this.opts.chain['api-max-blocks-per-request'])
    if (max > 0n && to - from >= max) {
      throw new EngineError(`requested too many blocks from ${from} to ${to}, maximum is set to ${max}`)
    }
    const deadline = performance.now() + LOG_QUERY_TIMEOUT_MS
    return this.logs.find(q.criteria, from, to, this.opts.chain['logs-max-results'], () => {
      if (performance.now() > deadline || cancel?.aborted === true) throw new RequestTimeoutError()
    })
  }

  /** A transaction by hash: mined (with its block) or waiting in the pool. */
  transaction(hash: Uint8Array): { mined: TxInBlock } | { pooled: PoolTx } | undefined {
    const loc = this.chain.txLocation(hash)
    if (loc !== undefined) return { mined: { ...loc, receipt: this.chain.receipts(loc.block)[loc.index]! } }
    const pooled = this.pool.get(bytesToHex(hash))
    return pooled === undefined ? undefined : { pooled }
  }

  /** Runs a state garbage collection now (pruning nodes; undefined on an archival node). */
  prune(): Promise<PruneResult> | undefined {
    return this.chain.pruner?.prune()
  }

  /** Plugs the atomic mempool into block building (coreth's onFinalizeAndAssemble); set once by node.ts. */
  setAtomicSource(source: AtomicBlockSource): void {
    this.builder.atomic = source
  }

  /** Asks for a block soon (an atomic tx arrived); with a fixed interval the next tick builds it. */
  wakeBuilder(): void {
    this.builder.onPending()
  }

  /** Builds one block now from whatever is pending (tests and a fixed block interval use this). */
  buildBlock(): Promise<Block | undefined> {
    return this.builder.buildOnce(true)
  }

  /** Validation for requests that carry both `data` and `input` (geth TransactionArgs.data). */
  static checkInputData(input?: Uint8Array, data?: Uint8Array): Uint8Array | undefined {
    if (input !== undefined && data !== undefined && bytesToHex(input) !== bytesToHex(data)) {
      throw new InvalidParamsError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
    }
    return input ?? data
  }
}

function hexBytes(h: string): Uint8Array {
  return Buffer.from(h.slice(2), 'hex')
}

async function probeSafe<T>(probe: (gas: bigint) => Promise<T>, gas: bigint, rethrow = false): Promise<T | undefined> {
  try {
    return await probe(gas)
  } catch (err) {
    if (rethrow || err instanceof ExecutionAbortedError) throw err
    return undefined
  }
}

function callKey(block: Block, req: CallRequest): string {
  let key = bytesToHex(block.hash)
  for (const [k, v] of Object.entries(req)) {
    if (v === undefined) continue
    key += '|' + k + '=' + (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'bigint' ? v.toString(16) : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString(16) : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x)))
  }
  return key
}

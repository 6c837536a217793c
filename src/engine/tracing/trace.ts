import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { runBlockTxWithPredicates, warpTxOf } from '../exec/warpPrecompile.js'
import type { Block } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import { EngineError, ExecutionAbortedError, ExecutionFailedError, NotFoundError } from '../base/errors.js'
import { EvmGuard, type Cancellation, type RunLimit } from '../exec/evmGuard.js'
import { Executor, type CallOutcome } from '../exec/executor.js'
import { applyActivations } from '../chain/subnetEvmHead.js'
import { chainVM } from '../exec/chainVm.js'
import { type CallBlockOverrides, callEnv, overriddenBlock } from '../exec/callOverrides.js'
import { OverlayState } from '../state/overlayState.js'
import type { BlockRef, CallRequest, StateOverride } from '../base/types.js'
import { createTracer, traceTimeoutMs, type TraceOptions } from './config.js'
import { attachTracer } from './evmHooks.js'
import type { TxStart } from './types.js'

/** What tracing reads of the engine (src/engine/engine.ts serves it): limits, blocks and mined transactions. */
export interface TraceHost {
  readonly evmTimeoutMs: number
  evmLimit(cancel?: Cancellation): RunLimit
  callGas(gas: bigint | undefined): bigint
  findBlock(ref: BlockRef): Block | undefined
  transaction(hash: Uint8Array): { mined: { block: Block; index: number } } | { pooled: unknown } | undefined
}

/*
 * geth's tracing API (eth/tracers/api.go): a mined transaction or block is re-executed from its
 * parent's state with the block's own environment, as the block builder ran it; a call runs on
 * the state of a block like eth_call. Every run gets a fresh state and EVM, so a trace never
 * disturbs the executors serving eth_call.
 */

/** debug_traceCall's TraceCallConfig. */
export interface TraceCallOptions extends TraceOptions {
  stateOverrides?: StateOverride
  blockOverrides?: CallBlockOverrides
}

/** One entry of debug_traceBlockBy* (geth txTraceResult). */
export interface TxTraceResult {
  txHash: string
  result: unknown
}

/**
 * The limit of one traced execution. The tracer's own timeout (geth's, default 5s, "execution
 * timeout") and rpc-evm-timeout (docs/SECURITY.md, E2, "execution aborted (timeout = …)") both hold: the
 * shorter one stops the run with its own error (the tracer's on a tie).
 */
export function traceLimit(engine: TraceHost, opts: TraceOptions, cancel?: Cancellation): RunLimit {
  const tracerMs = traceTimeoutMs(opts.timeout)
  const evmMs = engine.evmTimeoutMs
  if (tracerMs > 0 && (evmMs === 0 || tracerMs <= evmMs)) {
    return { timeoutMs: tracerMs, cancel, expired: () => new ExecutionAbortedError('execution timeout') }
  }
  return engine.evmLimit(cancel)
}

/** debug_traceTransaction. */
export async function traceTransaction(engine: TraceHost, chain: Chain, hash: Uint8Array, opts: TraceOptions, cancel?: Cancellation): Promise<unknown> {
  const found = engine.transaction(hash)
  if (found === undefined || !('mined' in found)) throw new NotFoundError('transaction not found')
  const { block, index } = found.mined
  const replay = await Replay.start(chain, block)
  for (let i = 0; i < index; i++) await replay.run(block.txs[i]!, engine.evmLimit(cancel))
  return replay.trace(block.txs[index]!, opts, traceLimit(engine, opts, cancel))
}

/** debug_traceBlockByNumber / debug_traceBlockByHash: each transaction has its own limit, as geth's tracer timeout. */
export async function traceBlock(engine: TraceHost, chain: Chain, block: Block, opts: TraceOptions, cancel?: Cancellation): Promise<TxTraceResult[]> {
  const replay = await Replay.start(chain, block)
  const results: TxTraceResult[] = []
  for (const tx of block.txs) results.push({ txHash: bytesToHex(tx.hash()), result: await replay.trace(tx, opts, traceLimit(engine, opts, cancel)) })
  return results
}

/** debug_traceCall: the call on top of a block's state, with state and block overrides. */
export async function traceCall(engine: TraceHost, chain: Chain, req: CallRequest, ref: BlockRef, opts: TraceCallOptions, cancel?: Cancellation): Promise<unknown> {
  if (ref === 'pending') throw new EngineError('tracing on top of pending is not supported')
  const block = findTraceBlock(engine, ref)
  chain.requireState(block)
  const o = opts.blockOverrides ?? {}
  const env = overriddenBlock(block, o)
  const ex = await Executor.create(chain, env, chain.stateReader(block), callEnv(o))
  const tracer = createTracer(opts)
  const timeout = traceTimeoutMs(opts.timeout)
  const gas = engine.callGas(req.gas)
  let attached: ReturnType<typeof attachTracer> | undefined
  const beforeRun = async (tx: TypedTransaction) => {
    await tracer.onTxStart?.({ from: req.from ?? new Uint8Array(20), to: tx.to?.bytes, gasLimit: gas, coinbase: env.header.coinbase, state: ex.sm })
    attached = attachTracer(ex.evm, tracer, { deadline: Date.now() + timeout, logIndexBase: 0 })
  }
  let outcome: CallOutcome
  try {
    outcome = await ex.guard.run(traceLimit(engine, opts, cancel), () => ex.run(req, gas, opts.stateOverrides, false, beforeRun))
  } catch (err) {
    if (err instanceof ExecutionFailedError) throw new ExecutionFailedError(`tracing failed: ${err.message}`)
    throw err
  } finally {
    attached?.detach()
  }
  if (attached?.failure !== undefined) throw attached.failure
  if (attached?.timedOut === true) throw new EngineError('execution timeout')
  await tracer.onTxEnd?.({ gasUsed: outcome.gasUsed, state: ex.sm })
  return tracer.result()
}

function findTraceBlock(engine: TraceHost, ref: BlockRef): Block {
  const block = engine.findBlock(ref)
  if (block !== undefined) return block
  if (typeof ref === 'object') throw new NotFoundError(`block ${bytesToHex(ref.blockHash)} not found`)
  throw new NotFoundError(`block #${typeof ref === 'bigint' ? ref : ref} not found`)
}

/** A block being re-executed from its parent's state, one transaction after another. */
class Replay {
  private gasUsed = 0n
  private logs = 0

  private constructor(
    private readonly block: Block,
    private readonly vm: VM,
    private readonly sm: OverlayState,
    private readonly guard: EvmGuard,
    /** The chain's identity to Warp: transactions' predicates are priced and read as when the block was built. */
    private readonly warp: Chain['warp'],
  ) {}

  static async start(chain: Chain, block: Block): Promise<Replay> {
    if (block.header.number === 0n) throw new EngineError('genesis is not traceable')
    const parent = chain.blockByHash(block.header.parentHash)
    if (parent === undefined) throw new NotFoundError(`block #${block.header.number - 1n} not found`)
    chain.requireState(parent)
    const sm = new OverlayState(chain.stateReader(parent), chain.codeSource)
    // A subnet-evm block's precompile activations and state upgrades ran before its transactions.
    if (chain.subnetEvm !== undefined) await applyActivations(chain.subnetEvm.rules, sm, parent.header.timestamp, block.header.number, block.header.timestamp)
    const guard = new EvmGuard()
    const vm = await chainVM(chain, sm, { guard })
    const replay = new Replay(block, vm, sm, guard, chain.warp)
    replay.env = chain.envBlock({
      number: block.header.number,
      timestamp: block.header.timestamp,
      gasLimit: block.header.gasLimit,
      baseFee: chain.executions.baseFeeOf(block),
      coinbase: block.header.coinbase,
    })
    return replay
  }

  private env!: ReturnType<Chain['envBlock']>

  /** The block's next transaction on ethereumjs, its Warp predicates (verified again: the same key, the same answer) included. */
  private runTx(tx: TypedTransaction): Promise<RunTxResult> {
    return runBlockTxWithPredicates(this.vm, warpTxOf(this.warp, tx), { tx, block: this.env, skipHardForkValidation: true, blockGasUsed: this.gasUsed })
  }

  /** Runs one transaction untraced (those before the traced one). */
  async run(tx: TypedTransaction, limit: RunLimit): Promise<void> {
    const result = await this.guard.run(limit, () => this.runTx(tx))
    this.gasUsed += result.totalGasSpent
    this.logs += result.execResult.logs?.length ?? 0
  }

  /** Runs one transaction under the tracer `opts` names and returns the tracer's result. */
  async trace(tx: TypedTransaction, opts: TraceOptions, limit: RunLimit): Promise<unknown> {
    const tracer = createTracer(opts)
    const timeout = traceTimeoutMs(opts.timeout)
    const start: TxStart = { from: tx.getSenderAddress().bytes, to: tx.to?.bytes, gasLimit: tx.gasLimit, coinbase: this.block.header.coinbase, state: this.sm }
    await tracer.onTxStart?.(start)
    const attached = attachTracer(this.vm.evm, tracer, { deadline: Date.now() + timeout, logIndexBase: this.logs })
    let result: RunTxResult
    try {
      result = await this.guard.run(limit, () => this.runTx(tx))
    } catch (err) {
      if (err instanceof ExecutionAbortedError) throw err
      throw new ExecutionFailedError(`tracing failed: ${err instanceof Error ? err.message : String(err)}`)
    } finally {
      attached.detach()
    }
    if (attached.failure !== undefined) throw attached.failure
    if (attached.timedOut) throw new EngineError('execution timeout')
    this.gasUsed += result.totalGasSpent
    this.logs += result.execResult.logs?.length ?? 0
    await tracer.onTxEnd?.({ gasUsed: result.totalGasSpent, state: this.sm })
    return tracer.result()
  }
}

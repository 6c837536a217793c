import type { Block as EnvBlock } from '@ethereumjs/block'
import { type Address, bytesToHex, setLengthLeft } from '@ethereumjs/util'
import type { RunTxResult } from '@ethereumjs/vm'
import type { Logger } from 'pino'
import { type PriorState, compareResults, readPrior } from '../../evm/compareResults.js'
import { type EvmRules, evmRules } from '../../evm/evmRules.js'
import { runMessage } from '../../evm/runMessage.js'
import { type EvmTransactionResult, runTransaction } from '../../evm/runTransaction.js'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { isImpersonatedTx } from './impersonatedTx.js'
import type { ChainPrecompile, EvmBlock, EvmHost, EvmResult, EvmState, EvmStateChanges } from '../../evm/types.js'
import type { GasLedger } from '../../evm/gasLedger.js'
import { chainPrecompiles } from './warpPrecompile.js'
import { haltOf } from './gethVmError.js'
import { ExecutionFailedError } from '../base/errors.js'
import type { Chain } from '../chain/chain.js'
import type { CallMessage, CallResult } from './directCall.js'

/** Which EVM runs a chain's calls (the `evm-interpreter` and `evm-oracle` flags). */
export interface OwnEvmOptions {
  interpreter: 'ethereumjs' | 'own'
  /** Run ethereumjs too on what the interpreter serves, answer ethereumjs's result, log and count differences. */
  oracle: boolean
}

/** Differences and failures kept for recent. */
const RECENT = 5

/** Gas the interpreter counts in numbers: a message with more goes to ethereumjs (decided before it runs). */
const MAX_GAS = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The node's own interpreter (src/evm/) for one chain's rules, serving the plain calls of eth_call and
 * eth_estimateGas that src/engine/exec/directCall.ts runs on ethereumjs's message entry otherwise:
 * the intrinsic gas check and charge, the message, the refund cap, all as runDirectCall does them;
 * and the transactions of the blocks the node builds, as runTx runs them (exec/blockTx.ts).
 * With the oracle on, ethereumjs runs each one too and its answer is the one given.
 */
export class OwnEvm {
  /** Messages and transactions the interpreter ran; of those, compared with ethereumjs; of those, with a difference. */
  readonly counts = { served: 0, compared: 0, differing: 0, failed: 0 }
  /** The last few differences and failures, each with its call (the log has them all). */
  readonly recent: string[] = []
  private readonly blocks = new WeakMap<EnvBlock, EvmBlock>()

  private constructor(
    readonly rules: EvmRules,
    readonly oracle: boolean,
    private readonly log: Logger,
    /** The chain's own precompiles (Warp), given with every message. */
    private readonly precompiles: ReadonlyMap<string, ChainPrecompile> | undefined,
  ) {}

  /** The interpreter for `common`'s rules, or undefined: off, or rules it does not cover (ethereumjs serves every call then). */
  static for(chain: Pick<Chain, 'common' | 'warp' | 'subnetEvm'>, opts: OwnEvmOptions, log: Logger): OwnEvm | undefined {
    // subnet-evm's stateful precompiles read and write state, which the interpreter's ChainPrecompile cannot: ethereumjs runs those chains.
    const rules = opts.interpreter === 'own' && chain.subnetEvm === undefined ? evmRules(chain.common) : undefined
    // Said once per chain at start: which EVM serves what.
    const calls = rules !== undefined ? (opts.oracle ? "the node's interpreter, checked against ethereumjs" : "the node's interpreter") : 'ethereumjs'
    const why = opts.interpreter === 'own' && rules === undefined ? " (the chain's rules are not all the interpreter's)" : ''
    log.info({ 'calls, estimates, blocks': calls + why, 'access lists, traces, simulations': 'ethereumjs' }, "EVM: eth_call, eth_estimateGas and blocks' transactions run on %s", calls)
    return rules === undefined ? undefined : new OwnEvm(rules, opts.oracle, log, chainPrecompiles(chain.warp))
  }

  /** Whether this call's message is the interpreter's to run (it counts gas in numbers). */
  serves(tx: CallMessage): boolean {
    return tx.gasLimit <= MAX_GAS
  }

  /** Whether a block's transaction is the interpreter's to run: the types the C-Chain takes (no blobs), with gas it counts. */
  servesTx(tx: TypedTransaction): boolean {
    return tx.type <= TransactionType.FeeMarketEIP1559 && tx.gasLimit <= MAX_GAS
  }

  /**
   * runTx's work for a block's transaction on the interpreter: `state` is read, never written (the
   * caller applies the result's changes); throws InvalidTransactionError for one the block cannot take.
   */
  transaction(
    state: EvmState,
    host: EvmHost,
    tx: TypedTransaction,
    sender: Address,
    env: EnvBlock,
    /** A transaction with Warp predicates: the precompiles that read them, and what they change in its intrinsic gas. */
    warp?: { precompiles: ReadonlyMap<string, ChainPrecompile> | undefined; intrinsicGasAdjustment: bigint },
  ): Promise<EvmTransactionResult> {
    const fees = 'maxFeePerGas' in tx ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas } : { gasPrice: tx.gasPrice }
    return runTransaction(this.rules, state, host, {
      from: sender.bytes,
      nonce: tx.nonce,
      to: tx.to?.bytes,
      value: tx.value,
      data: tx.data,
      gasLimit: tx.gasLimit,
      ...fees,
      accessList: 'accessList' in tx ? tx.accessList : undefined,
      block: this.blockOf(env),
      senderMayHaveCode: isImpersonatedTx(tx),
      chainPrecompiles: warp?.precompiles ?? this.precompiles,
      intrinsicGasAdjustment: warp?.intrinsicGasAdjustment,
    })
  }

  /** runDirectCall's work on the interpreter: `state` is read, never written (the caller's state is reverted after a call anyway). */
  async call(
    state: EvmState,
    host: EvmHost,
    tx: CallMessage,
    caller: Address,
    env: EnvBlock,
    onJumpdest?: () => Promise<void> | undefined,
    /** The chain's precompiles for this call (a call with Warp predicates reads them); the chain's own when absent. */
    precompiles?: ReadonlyMap<string, ChainPrecompile>,
    /** Kept when given (evm/gasLedger.ts). */
    gasLedger?: GasLedger,
  ): Promise<{ result: CallResult; evm: EvmResult }> {
    const intrinsic = tx.getIntrinsicGas()
    // runDirectCall's check, in its words (geth's), its figures printed as Numbers as runTx does.
    if (tx.gasLimit < intrinsic) throw new ExecutionFailedError(`intrinsic gas too low: have ${Number(tx.gasLimit)}, want ${Number(intrinsic)}`)
    const evm = await runMessage(this.rules, state, host, {
      caller: caller.bytes,
      to: tx.to?.bytes,
      value: tx.value,
      data: tx.data,
      gasLimit: tx.gasLimit - intrinsic,
      gasPrice: 0n,
      block: this.blockOf(env),
      accessList: tx.accessList,
      skipNonceIncrement: tx.to !== undefined,
      chainPrecompiles: precompiles ?? this.precompiles,
      onJumpdest,
      gasLedger,
    })
    this.counts.served++
    let totalGasSpent = evm.executionGasUsed + intrinsic
    const cap = totalGasSpent / this.rules.refundQuotient
    const gasRefund = evm.gasRefund < cap ? evm.gasRefund : cap
    totalGasSpent -= gasRefund
    const execResult = {
      returnValue: evm.returnData,
      executionGasUsed: evm.executionGasUsed,
      gasRefund: evm.gasRefund,
      logs: evm.logs.map((l) => [l.address, l.topics, l.data]),
      exceptionError: evm.error === undefined ? undefined : { error: evm.error, errorType: 'EVMError', fault: evm.fault },
    } as unknown as RunTxResult['execResult']
    return { result: { execResult, totalGasSpent, gasRefund }, evm }
  }

  /**
   * Compares the interpreter's result with ethereumjs's for the same message on the same state
   * (`changes`: what ethereumjs wrote; `state`: the state before it), and logs and counts a difference;
   * `also`: differences the caller found around the message (a transaction's gas and fee).
   */
  async compare(ours: EvmResult, theirs: CallResult, changes: EvmStateChanges, state: EvmState, what: () => string, also: string[] = []): Promise<void> {
    const exec = theirs.execResult
    const created = exec.createdAddresses ?? new Set<string>()
    // runTx deletes what self-destructed in the transaction that created it (EIP-6780); runDirectCall leaves it to the revert.
    for (const [address] of exec.selfdestruct ?? []) if (created.has(address)) changes.accounts.set(address.slice(2), null)
    const theirsResult: EvmResult = {
      returnData: exec.returnValue,
      executionGasUsed: exec.executionGasUsed,
      gasRefund: exec.gasRefund ?? 0n,
      logs: (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
      error: exec.exceptionError?.error,
      fault: haltOf(exec.exceptionError)?.fault,
      createdAddress: theirs.createdAddress?.bytes,
      changes,
      // eth_call reports no access list: the interpreter's stands for both.
      accessed: ours.accessed,
    }
    const prior: PriorState = await readPrior(state, ours, theirsResult)
    this.record([...also, ...compareResults(ours, theirsResult, prior)], what)
  }

  /** Counts one comparison with ethereumjs, and logs its differences if there are any. */
  record(differences: string[], what: () => string): void {
    this.counts.compared++
    if (differences.length === 0) return
    this.counts.differing++
    this.remember(`${what()}: ${differences.join('; ')}`)
    this.log.warn({ call: what(), differences }, 'evm oracle: the interpreter and ethereumjs differ')
  }

  /** The interpreter threw where ethereumjs answers (a fault of its own): logged and counted; ethereumjs serves the call. */
  failed(err: unknown, what: () => string): void {
    this.counts.failed++
    this.remember(`${what()}: failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    this.log.warn({ call: what(), err }, 'evm: the interpreter failed; ethereumjs answers')
  }

  private remember(line: string): void {
    if (this.recent.length >= RECENT) this.recent.shift()
    this.recent.push(line)
  }

  /** The interpreter's view of an environment block, made once per block (the executor caches its blocks). */
  private blockOf(env: EnvBlock): EvmBlock {
    let block = this.blocks.get(env)
    if (block === undefined) {
      const h = env.header
      block = {
        number: h.number,
        timestamp: h.timestamp,
        coinbase: h.coinbase.bytes,
        gasLimit: h.gasLimit,
        baseFee: h.baseFeePerGas ?? 0n,
        prevRandao: setLengthLeft(h.mixHash, 32),
        blobBaseFee: h.getBlobGasPrice(),
      }
      this.blocks.set(env, block)
    }
    return block
  }
}

/** BLOCKHASH for the interpreter: the chain's canonical hashes (a fork's older ones from its origin). */
export function chainHost(chain: Pick<Chain, 'blockHashes'>): EvmHost {
  return { blockHash: async (n) => (await chain.blockHashes.getBlock(Number(n))).hash() }
}

/** A short description of a call for the oracle's log line. */
export function describeCall(tx: CallMessage, caller: Address): string {
  return `from ${caller.toString()} to ${tx.to?.toString() ?? '(creation)'} value ${tx.value} gas ${tx.gasLimit} data ${bytesToHex(tx.data.subarray(0, 36))}${tx.data.length > 36 ? '...' : ''}`
}

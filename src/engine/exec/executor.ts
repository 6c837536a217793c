import type { Block as EnvBlock } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, bytesToHex, hexToBytes, setLengthLeft, toChecksumAddress, unpadBytes } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import { type CallMessage, type CallResult, directCallSupported, messageCall, runDirectCall } from './directCall.js'
import { type OwnEvm, chainHost, describeCall } from './ownEvm.js'
import type { ChainPrecompile, EvmFault, EvmHost } from '../../evm/types.js'
import { gethVmError, haltName, haltOf } from './gethVmError.js'
import type { GasLedger } from '../../evm/gasLedger.js'
import { chainPrecompiles, setWarpTx, type WarpTx, warpCallOf, withIntrinsicGas } from './warpPrecompile.js'
import { EvmGuard, type RunLimit } from './evmGuard.js'
import { chainVM } from './chainVm.js'
import { withBlobBaseFee } from '../chain/envBlock.js'
import { runTxFromContract } from './impersonatedTx.js'
// Process-wide: every EVM (calls, the block builder, tracing) runs with ethereumjs's per-call costs cut.
import './evmPatches.js'
import type { Chain } from '../chain/chain.js'
import { EngineError, ExecutionFailedError, ExecutionRevertedError, InvalidParamsError } from '../base/errors.js'
import { ForkError } from '../../fork/errors.js'
import type { StateReader } from '../state/flatView.js'
import { OverlayState } from '../state/overlayState.js'
import type { AccessListItem, CallRequest, StateOverride } from '../base/types.js'

const ZERO_ADDRESS = new Address(new Uint8Array(20))
type Precompiles = ReadonlyMap<string, ChainPrecompile>
const MAX_UINT256 = (1n << 256n) - 1n
const EMPTY = new Uint8Array(0)

/** What a call's EVM environment takes besides its block's header (block overrides: src/engine/exec/callOverrides.ts). */
export interface CallEnv {
  /** PREVRANDAO / DIFFICULTY (else coreth's difficulty 1). */
  mixHash?: Uint8Array
  /** BLOBBASEFEE (else the header's, 1). */
  blobBaseFee?: bigint
}

/** What one execution produced (eth_call, estimate, access list). */
export interface CallOutcome {
  result: CallResult
  returnData: Uint8Array
  gasUsed: bigint
  reverted: boolean
  error?: string
  /** Where the top-level frame halted (geth's texts name the opcode and the stack). */
  fault?: EvmFault
  /** The gas ledger asked for, when the node's interpreter ran the message and kept it whole (evm/gasLedger.ts). */
  ledger?: GasLedger
}

/** What one run of an executor is for: a block and its state, named by `key` (the block and its state's generation). */
export interface ExecTarget {
  key: string
  block: Block
  state(): StateReader
}

/** What estimates, access lists and calls need of an executor: its block, its state, its queue and a run. */
export type CallRunner = Pick<Executor, 'block' | 'sm' | 'exclusive' | 'run' | 'oracle'>

/**
 * Runs calls against the state of a block. Executions on one state manager are serialised
 * (the state is checkpointed and reverted around each), so concurrent requests never see each
 * other's writes. One executor serves any block (bound()): a run moves its state and environment to
 * its block first, inside the queue, so the VM (about 0.4 ms to build) is made once, not per block.
 */
export class Executor {
  private queue: Promise<unknown> = Promise.resolve()
  private targetKey: string | undefined

  private constructor(
    private current: Block,
    readonly sm: OverlayState,
    private readonly vm: VM,
    private readonly chain: Chain,
    readonly guard: EvmGuard,
    private readonly callEnv: CallEnv,
    /** The node's interpreter, where it serves this chain's plain calls (ownEvm.ts). */
    private readonly own: OwnEvm | undefined,
  ) {
    this.host = chainHost(chain)
  }

  /** The block the running execution is at (read it inside exclusive()). */
  get block(): Block {
    return this.current
  }

  /** This executor for runs at `target`: each one is moved there first, inside the queue. */
  bound(target: ExecTarget): CallRunner {
    return {
      block: target.block,
      sm: this.sm,
      exclusive: (limit, fn) => this.exclusive(limit, fn, target),
      run: (...args) => this.run(...args),
      oracle: this.oracle,
    }
  }

  /** The interpreter when ethereumjs checks it (`--evm-oracle`): what an estimate proved without a run is checked by a run too. */
  get oracle(): OwnEvm | undefined {
    return this.own?.oracle === true ? this.own : undefined
  }

  /** The EVM, for tracers to subscribe to its events (debug_traceCall runs on its own executor). */
  get evm(): VM['evm'] {
    return this.vm.evm
  }

  static async create(chain: Chain, block: Block, state: StateReader, callEnv: CallEnv = {}, own?: OwnEvm): Promise<Executor> {
    const sm = new OverlayState(state, chain.codeSource)
    const guard = new EvmGuard()
    const vm = await chainVM(chain, sm, { guard })
    return new Executor(block, sm, vm, chain, guard, callEnv, own)
  }

  /**
   * Runs fn with exclusive use of this state; every write is reverted afterwards. The EVM runs
   * time-sliced under `limit` (docs/SECURITY.md, E2/E3), which starts when fn does.
   */
  exclusive<T>(limit: RunLimit, fn: () => Promise<T>, target?: ExecTarget): Promise<T> {
    const run = this.queue.then(async () => {
      if (target !== undefined && target.key !== this.targetKey) {
        this.current = target.block
        this.sm.rebase(target.state())
        this.envs.clear()
        this.targetKey = target.key
      }
      try {
        return await this.guard.run(limit, fn)
      } finally {
        // Whole: an aborted run may leave nested checkpoints open.
        this.sm.reset()
      }
    })
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * Executes one call as geth's DoCall does (no nonce check, base fee 0 when no fee is given).
   * `beforeRun` sees the transaction once overrides are applied, just before it runs (tracers).
   * `ledger`: kept by the node's interpreter where it runs the message (estimates read it).
   */
  async run(req: CallRequest, gas: bigint, overrides?: StateOverride, accessListReport = false, beforeRun?: (tx: TypedTransaction) => Promise<void>, ledger?: GasLedger): Promise<CallOutcome> {
    const from = new Address(req.from ?? ZERO_ADDRESS.bytes)
    if (overrides !== undefined) await this.applyOverrides(overrides)
    const noFees = req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined
    const baseFee = noFees ? 0n : this.chain.executions.baseFeeOf(this.block)
    const env = this.envFor(baseFee, gas > this.block.header.gasLimit ? gas : this.block.header.gasLimit)
    // Without fees and without a tracer watching the transaction, the EVM's message entry does all a call observes (src/engine/exec/directCall.ts);
    // a plain call to an address then needs no transaction object at all (price 0: a legacy tx at gas price 0).
    const direct = noFees && beforeRun === undefined && directCallSupported(this.vm.common)
    const plain = direct && req.to !== undefined && req.accessList === undefined
    const tx = plain ? undefined : this.makeTx(req, gas, from, baseFee)
    const account = (await this.sm.getAccount(from)) ?? new Account()
    // geth buyGas: the balance must cover gas at the fee cap (or gas price) plus the value.
    const feeCap = tx === undefined ? 0n : tx.type === 2 ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
    const cost = gas * feeCap + (req.value ?? 0n)
    const sender = toChecksumAddress(from.toString())
    if (cost > MAX_UINT256) throw new ExecutionFailedError(`insufficient funds for gas * price + value: address ${sender} required balance exceeds 256 bits`)
    if (account.balance < cost) throw new ExecutionFailedError(`insufficient funds for gas * price + value: address ${sender} have ${account.balance} want ${cost}`)
    // geth's state transition (ErrMaxInitCodeSizeExceeded), once the gas is bought: init code over EIP-3860's limit never runs.
    const initCodeSize = req.to === undefined ? (req.input?.length ?? 0) : 0
    const common = this.chain.txCommon
    const maxInitCodeSize = initCodeSize > 0 && common.isActivatedEIP(3860) ? common.param('maxInitCodeSize') : undefined
    if (maxInitCodeSize !== undefined && BigInt(initCodeSize) > maxInitCodeSize) {
      throw new ExecutionFailedError(`max initcode size exceeded: code size ${initCodeSize} limit ${maxInitCodeSize}`)
    }
    account.nonce = req.nonce ?? account.nonce
    if (beforeRun !== undefined) await beforeRun(tx!)
    let result: CallResult
    try {
      result = direct
        ? await this.runMessage(tx ?? messageCall(this.chain.txCommon, new Address(req.to!), gas, req.value ?? 0n, req.input ?? EMPTY), from, env, accessListReport, ledger)
        : // geth skips EIP-3607 for calls (SkipAccountChecks): a contract may be the sender and still run its code.
          await runTxFromContract(
            this.vm,
            {
              tx: tx!,
              block: env,
              skipNonce: true,
              skipBalance: true,
              skipBlockGasLimitValidation: true,
              skipHardForkValidation: true,
              reportAccessList: accessListReport,
            },
            from,
          )
    } catch (err) {
      throw translateRunError(err, from)
    }
    this.guard.check()
    const exec = result.execResult
    const halt = haltOf(exec.exceptionError)
    const errName = haltName(halt, req.to === undefined)
    const kept = ledger?.ran && !ledger.opaque ? ledger : undefined
    const fault = halt?.fault
    return { result, returnData: exec.returnValue, gasUsed: result.totalGasSpent, reverted: errName === 'revert', error: errName, fault, ledger: kept }
  }

  /**
   * A call's message on the node's interpreter where it serves it (no access-list report, gas it
   * counts; decided before it runs), else on ethereumjs's message entry (directCall.ts). With the
   * oracle on, ethereumjs runs it too, its writes are undone, and its answer is the one given.
   */
  private async runMessage(msg: CallMessage, from: Address, env: EnvBlock, accessListReport: boolean, ledger: GasLedger | undefined): Promise<CallResult> {
    let warpTx: WarpTx | undefined
    try {
      warpTx = warpCallOf(this.chain.warp, msg)
    } catch (err) {
      // coreth: the intrinsic gas of a predicate that does not parse cannot be computed.
      throw new ExecutionFailedError((err as Error).message)
    }
    if (warpTx === undefined) return this.runOn(msg, from, env, accessListReport, undefined, ledger)
    setWarpTx(this.vm, warpTx.context)
    try {
      return await this.runOn(withIntrinsicGas(msg, warpTx.gasAdjustment), from, env, accessListReport, chainPrecompiles(this.chain.warp, warpTx.context), ledger)
    } finally {
      setWarpTx(this.vm, undefined)
    }
  }

  /** runMessage with the call's precompiles settled (its Warp predicates' when it has some). */
  private async runOn(msg: CallMessage, from: Address, env: EnvBlock, accessListReport: boolean, precompiles: Precompiles | undefined, ledger: GasLedger | undefined): Promise<CallResult> {
    const own = this.own
    if (own === undefined || accessListReport || !own.serves(msg)) return runDirectCall(this.vm.evm, msg, from, env, accessListReport)
    let ours: Awaited<ReturnType<OwnEvm['call']>>
    try {
      ours = await own.call(this.sm, this.host, msg, from, env, this.pulse, precompiles, ledger)
    } catch (err) {
      // A refusal in geth's words, or a state the node cannot read, is the answer; anything else is the interpreter's fault: ethereumjs answers, and it is counted.
      if (ledger !== undefined) ledger.opaque = true
      if (err instanceof EngineError || err instanceof ForkError) throw err
      own.failed(err, () => describeCall(msg, from))
      return runDirectCall(this.vm.evm, msg, from, env, false)
    }
    if (!own.oracle) return ours.result
    await this.sm.checkpoint()
    const mark = this.sm.mark()
    let theirs: CallResult
    let changes: ReturnType<OverlayState['changesSince']>
    try {
      theirs = await runDirectCall(this.vm.evm, msg, from, env, false)
      changes = this.sm.changesSince(mark)
    } finally {
      // ethereumjs's writes undone: the comparison reads the state both ran on.
      await this.sm.revert()
    }
    await own.compare(ours.evm, theirs, changes, this.sm, () => describeCall(msg, from))
    return theirs
  }

  /** The guard's bound on the interpreter's time (EvmGuard.pulse). */
  private readonly pulse = () => this.guard.pulse()

  /** BLOCKHASH for the interpreter. */
  private readonly host: EvmHost

  private readonly envs = new Map<string, EnvBlock>()

  /** The EVM environment of this block for a call (base fee 0 without fees; gas limit at least the call's). */
  private envFor(baseFee: bigint, gasLimit: bigint): EnvBlock {
    const key = `${baseFee}:${gasLimit}`
    let env = this.envs.get(key)
    if (env === undefined) {
      const h = this.block.header
      env = this.chain.envBlock({ number: h.number, timestamp: h.timestamp, gasLimit, baseFee, coinbase: h.coinbase, mixHash: this.callEnv.mixHash })
      if (this.callEnv.blobBaseFee !== undefined) env = withBlobBaseFee(env, this.callEnv.blobBaseFee)
      if (this.envs.size > 64) this.envs.clear()
      this.envs.set(key, env)
    }
    return env
  }

  /** The call's transaction; init code of any size (run() refuses what is over the limit, in geth's words). */
  private makeTx(req: CallRequest, gas: bigint, from: Address, baseFee: bigint): TypedTransaction {
    const common = this.chain.txCommon
    const base = {
      nonce: 0n,
      gasLimit: gas,
      to: req.to ?? undefined,
      value: req.value ?? 0n,
      data: req.input ?? new Uint8Array(),
    }
    let tx: TypedTransaction
    if (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined || req.accessList !== undefined) {
      const tip = req.maxPriorityFeePerGas ?? 0n
      const feeCap = req.maxFeePerGas ?? (tip > baseFee ? tip : baseFee + tip)
      // coreth's eth_call takes the fields as given (ToMessage); its state transition's preCheck refuses them (ErrTipAboveFeeCap).
      if (tip > feeCap)
        throw new ExecutionFailedError(`max priority fee per gas higher than max fee per gas: address ${toChecksumAddress(from.toString())}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`)
      tx = createTx(
        { ...base, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList: toAccessList(req.accessList), chainId: this.chain.chainId },
        { common, freeze: false, allowUnlimitedInitCodeSize: true },
      )
    } else {
      tx = createTx({ ...base, type: 0, gasPrice: req.gasPrice ?? 0n }, { common, freeze: false, allowUnlimitedInitCodeSize: true })
    }
    ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => from
    return tx
  }

  private async applyOverrides(overrides: StateOverride): Promise<void> {
    for (const [addrHex, o] of Object.entries(overrides)) {
      const address = new Address(hexToBytes(addrHex as `0x${string}`))
      if (o.state !== undefined && o.stateDiff !== undefined) {
        throw new InvalidParamsError(`account ${addrHex} has both 'state' and 'stateDiff'`)
      }
      const account = (await this.sm.getAccount(address)) ?? new Account()
      if (o.balance !== undefined) account.balance = o.balance
      if (o.nonce !== undefined) account.nonce = o.nonce
      await this.sm.putAccount(address, account)
      if (o.code !== undefined) await this.sm.putCode(address, o.code)
      if (o.state !== undefined) await this.sm.clearStorage(address)
      for (const [slot, value] of Object.entries(o.state ?? o.stateDiff ?? {})) {
        await this.sm.putStorage(address, setLengthLeft(hexToBytes(slot as `0x${string}`), 32), unpadBytes(value))
      }
    }
  }
}

/**
 * geth applyMessageWithEVM: a call refused before it runs (core.ApplyMessage's error: insufficient
 * funds, intrinsic gas, the base fee) as eth_call answers it, `err: <error> (supplied gas <gas>)`.
 */
export function callPrecheckError(err: unknown, gas: bigint): unknown {
  return err instanceof ExecutionFailedError ? new ExecutionFailedError(`err: ${err.message} (supplied gas ${gas})`) : err
}

function toAccessList(list: AccessListItem[] | undefined): [Uint8Array, Uint8Array[]][] {
  return (list ?? []).map((i) => [i.address, i.storageKeys])
}

/** Maps ethereumjs's pre-execution failures to geth's wording (`from`: the sender, which geth's fee-cap error names). */
export function translateRunError(err: unknown, from?: Address): Error {
  if (err instanceof ExecutionFailedError) return err
  const msg = err instanceof Error ? err.message : String(err)
  const intrinsic = /INTRINSIC_GAS_TOO_LOW: tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/.exec(msg)
  if (intrinsic) return new ExecutionFailedError(`intrinsic gas too low: have ${intrinsic[1]}, want ${intrinsic[2]}`)
  const feeCap = /\((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/.exec(msg)
  if (feeCap) {
    const who = from === undefined ? '' : `: address ${toChecksumAddress(from.toString())}, maxFeePerGas: ${feeCap[1]}, baseFee: ${feeCap[2]}`
    return new ExecutionFailedError(`max fee per gas less than block base fee${who}`)
  }
  if (/value field cannot be negative/.test(msg)) return new InvalidParamsError(msg)
  return new ExecutionFailedError(msg.replace(/ \(.*$/, ''))
}

/** geth's error for a failed (non-revert) execution: the EVM error text. */
export function executionError(outcome: CallOutcome): Error {
  if (outcome.reverted) return new ExecutionRevertedError(outcome.returnData, decodeRevertReason(outcome.returnData))
  return new ExecutionFailedError(gethVmError(outcome.error ?? 'execution failed', outcome.fault))
}

/** Decodes Error(string) revert data; Panic(uint256) as geth does ("assert(false)" etc.). */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = bytesToHex(data.subarray(0, 4))
  if (selector === '0x08c379a0' && data.length >= 68) {
    const offset = Number(BigInt(bytesToHex(data.subarray(4, 36))))
    if (4 + offset + 32 > data.length) return undefined
    const len = Number(BigInt(bytesToHex(data.subarray(4 + offset, 4 + offset + 32))))
    const start = 4 + offset + 32
    if (start + len > data.length) return undefined
    return new TextDecoder().decode(data.subarray(start, start + len))
  }
  if (selector === '0x4e487b71' && data.length === 36) {
    const code = BigInt(bytesToHex(data.subarray(4, 36)))
    return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

// geth accounts/abi/abi.go panicReasons.
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

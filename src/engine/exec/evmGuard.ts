import type { EVMOpts } from '@ethereumjs/evm'
import { formatGoDuration } from '../../util/goDuration.js'
import { ExecutionAbortedError, RequestTimeoutError } from '../base/errors.js'

/** A cancellation the caller can raise while work runs (an AbortSignal, or the dispatcher's request token). */
export interface Cancellation {
  readonly aborted: boolean
}

/** The limits of one RPC execution. */
export interface RunLimit {
  /** Wall time in ms; 0 or less = none. */
  timeoutMs: number
  /** Set once the request's deadline passed (docs/SECURITY.md, L11). */
  cancel?: Cancellation
  /** The error for an expired timeout; default geth's "execution aborted (timeout = …)". */
  expired?: () => Error
}

/** How long the interpreter runs before letting the event loop in (docs/SECURITY.md, E3). */
const SLICE_MS = 10
/** JUMPDESTs between two reads of the clock. */
const CHECK_EVERY = 64
const JUMPDEST = 0x5b

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number]
type OpInfo = { readonly isAsync: boolean; readonly constructor: unknown }
/** The interpreter's opcode table entry (EVM._opcodeMap[op]); it reads `opcodeInfo.isAsync` each step. */
type OpEntry = { opcodeInfo: OpInfo }
type RunState = { interpreter: { _evm: { _opcodeMap: OpEntry[] } } }

/** geth internal/ethapi DoCall's error for an EVM stopped by RPCEVMTimeout. */
export function evmTimeoutError(timeoutMs: number): ExecutionAbortedError {
  return new ExecutionAbortedError(`execution aborted (timeout = ${formatGoDuration(timeoutMs)})`)
}

/**
 * Time-slices and bounds the EVMs that serve RPC calls (never the block builder's). JUMPDEST, which
 * every loop passes, becomes an async opcode: every CHECK_EVERY executions it reads the clock,
 * yields to the event loop (setImmediate) once SLICE_MS have passed, and once the limit has expired
 * or the request was cancelled it halts the running frame with an EVM error (each caller frame
 * then halts at its next JUMPDEST). Awaiting an opcode costs a microtask per execution, so the
 * entry is marked synchronous and turned async only for the one execution that yields. The journal unwinds as for any exceptional halt; the caller
 * learns of the abort from check(), which throws the abort's error (geth checks evm.Cancelled()
 * after ApplyMessage the same way).
 */
export class EvmGuard {
  /** The custom opcode list for createVM's evmOpts. */
  readonly opcodes: CustomOpcode[]
  private deadline = Infinity
  private cancel: Cancellation | undefined
  private expired: (() => Error) | undefined
  private timeoutMs = 0
  private countdown = CHECK_EVERY
  private sliceEnd = 0
  private reason: Error | undefined
  /** The opcode table entry of JUMPDEST in the guarded EVM, with its async and sync variants. */
  private entry: OpEntry | undefined
  private asyncInfo: OpInfo | undefined
  private syncInfo: OpInfo | undefined
  private yieldNext = false

  constructor() {
    this.opcodes = [{ opcode: JUMPDEST, opcodeName: 'JUMPDEST', baseFee: 1, logicFunction: (runState) => this.tick(runState as unknown as RunState) }]
  }

  /** Runs fn under `limit`; the limit ends with fn. Throws the abort's error if the EVM was stopped. */
  async run<T>(limit: RunLimit, fn: () => Promise<T>): Promise<T> {
    if (limit.cancel?.aborted === true) throw new RequestTimeoutError()
    this.deadline = limit.timeoutMs > 0 ? performance.now() + limit.timeoutMs : Infinity
    this.timeoutMs = limit.timeoutMs
    this.cancel = limit.cancel
    this.expired = limit.expired
    this.reason = undefined
    this.sliceEnd = performance.now() + SLICE_MS
    try {
      const out = await fn()
      this.check()
      return out
    } finally {
      this.deadline = Infinity
      this.cancel = undefined
      this.expired = undefined
      this.reason = undefined
    }
  }

  /** Throws the error of an abort that stopped the EVM since run() began. */
  check(): void {
    if (this.reason !== undefined) throw this.reason
  }

  private tick(runState: RunState): Promise<void> | undefined {
    if (this.reason !== undefined) throw haltFrame()
    if (this.yieldNext) {
      // This execution is awaited (see below): yield, and be synchronous again.
      this.yieldNext = false
      this.setAsync(runState, false)
      return this.nextSlice()
    }
    const due = this.due()
    if (due === 'abort') throw haltFrame()
    if (due === 'slice') {
      // The interpreter decided before this call whether to await it: yield at the next JUMPDEST.
      this.yieldNext = true
      this.setAsync(runState, true)
    }
    return undefined
  }

  /**
   * The same bound for the node's own interpreter (EvmMessage.onJumpdest, at each JUMPDEST): past the
   * limit or once cancelled it throws the abort's error, which ends the message (run() answers it);
   * past the slice it hands back a wait that lets the event loop in.
   */
  pulse(): Promise<void> | undefined {
    if (this.reason !== undefined) throw this.reason
    const due = this.due()
    if (due === 'abort') throw this.reason
    return due === 'slice' ? this.nextSlice() : undefined
  }

  /**
   * Every CHECK_EVERY calls, the clock: 'abort' once the limit has expired or the request was
   * cancelled (the error kept in `reason`), 'slice' once this slice is over, else nothing.
   */
  private due(): 'abort' | 'slice' | undefined {
    if (--this.countdown > 0) return undefined
    this.countdown = CHECK_EVERY
    const now = performance.now()
    if (now >= this.deadline) {
      this.reason = this.expired?.() ?? evmTimeoutError(this.timeoutMs)
      return 'abort'
    }
    if (this.cancel?.aborted === true) {
      this.reason = new RequestTimeoutError()
      return 'abort'
    }
    return now < this.sliceEnd ? undefined : 'slice'
  }

  /** Lets the event loop in, then starts the next slice. */
  private nextSlice(): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        this.sliceEnd = performance.now() + SLICE_MS
        resolve()
      }),
    )
  }

  /** Makes the EVM await JUMPDEST's handler (true) or call it synchronously (false). */
  private setAsync(runState: RunState, on: boolean): void {
    const entry = runState.interpreter._evm._opcodeMap[JUMPDEST]!
    if (entry !== this.entry || (entry.opcodeInfo !== this.asyncInfo && entry.opcodeInfo !== this.syncInfo)) {
      // First use, or the table was rebuilt (hardfork change): the entry holds the async original.
      const info = entry.opcodeInfo
      this.entry = entry
      this.asyncInfo = info
      // A real Opcode (same hidden class as every other entry, so the interpreter's property reads stay fast).
      const Ctor = info.constructor as new (o: OpInfo) => OpInfo
      this.syncInfo = new Ctor({ ...info, isAsync: false })
    }
    entry.opcodeInfo = on ? this.asyncInfo! : this.syncInfo!
  }
}

/** An EVM-typed error: the interpreter ends the frame as an exceptional halt instead of rethrowing. */
function haltFrame(): { error: string; errorType: string } {
  return { error: 'execution aborted', errorType: 'EVMError' }
}

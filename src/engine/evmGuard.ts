import type { EVMOpts } from '@ethereumjs/evm'
import { formatGoDuration } from '../goDuration.js'
import { ExecutionAbortedError, RequestTimeoutError } from './errors.js'

/** A cancellation the caller can raise while work runs (an AbortSignal, or the dispatcher's request token). */
export interface Cancellation {
  readonly aborted: boolean
}

/** The limits of one RPC execution. */
export interface RunLimit {
  /** Wall time in ms; 0 or less = none. */
  timeoutMs: number
  /** Set once the request's deadline passed (LIMITS.md L11). */
  cancel?: Cancellation
  /** The error for an expired timeout; default geth's "execution aborted (timeout = …)". */
  expired?: () => Error
}

/** How long the interpreter runs before letting the event loop in (LIMITS.md E3). */
const SLICE_MS = 10
/** JUMPDESTs between two reads of the clock. */
const CHECK_EVERY = 64
const JUMPDEST = 0x5b

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number]

/** geth internal/ethapi DoCall's error for an EVM stopped by RPCEVMTimeout. */
export function evmTimeoutError(timeoutMs: number): ExecutionAbortedError {
  return new ExecutionAbortedError(`execution aborted (timeout = ${formatGoDuration(timeoutMs)})`)
}

/**
 * Time-slices and bounds the EVMs that serve RPC calls (never the block builder's). JUMPDEST, which
 * every loop passes, becomes an async opcode: every CHECK_EVERY executions it reads the clock,
 * yields to the event loop (setImmediate) once SLICE_MS have passed, and once the limit has expired
 * or the request was cancelled it halts the running frame with an EVM error (each caller frame
 * then halts at its next JUMPDEST). The journal unwinds as for any exceptional halt; the caller
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

  constructor() {
    this.opcodes = [{ opcode: JUMPDEST, opcodeName: 'JUMPDEST', baseFee: 1, logicFunction: () => this.tick() }]
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

  private tick(): Promise<void> | undefined {
    if (this.reason !== undefined) throw haltFrame()
    if (--this.countdown > 0) return undefined
    this.countdown = CHECK_EVERY
    const now = performance.now()
    if (now >= this.deadline) {
      this.reason = this.expired?.() ?? evmTimeoutError(this.timeoutMs)
      throw haltFrame()
    }
    if (this.cancel?.aborted === true) {
      this.reason = new RequestTimeoutError()
      throw haltFrame()
    }
    if (now < this.sliceEnd) return undefined
    return new Promise((resolve) => setImmediate(() => {
      this.sliceEnd = performance.now() + SLICE_MS
      resolve()
    }))
  }
}

/** An EVM-typed error: the interpreter ends the frame as an exceptional halt instead of rethrowing. */
function haltFrame(): { error: string; errorType: string } {
  return { error: 'execution aborted', errorType: 'EVMError' }
}

import type { Common } from '@ethereumjs/common'
import type { PrecompileFunc } from '@ethereumjs/evm'
import type { CodeAnalysis } from './codeAnalysis.js'
import type { EvmGas } from './gasParams.js'
import type { GasLedger } from './gasLedger.js'
import type { Journal } from './journal.js'
import { Memory } from './memory.js'
import type { ChainPrecompile, EvmBlock, EvmFault, EvmHost, EvmLog } from './types.js'

/** An opcode: runs synchronously on the frame, charging its own gas; sets `status` to leave the loop. */
export type Op = (f: Frame) => void

export const RUNNING = 0
/** STOP, RETURN, SELFDESTRUCT */
export const DONE = 1
export const REVERTED = 2
export const FAILED = 3
/** waiting for `pending` (a state read); the opcode runs again from its start after it */
export const WAIT = 4
/** a call or creation in `child` to run; `resume` finishes the opcode with its result */
export const CALL = 5

/** What a message answers its caller (ethereumjs's ExecResult and createdAddress). */
export interface MsgResult {
  error: string | undefined
  returnData: Uint8Array
  gasUsed: number
  createdAddress?: string
  /** With a gas ledger: the least gas the message runs the same way with (gasLedger.ts). */
  need?: number
  /** Where its own code halted exceptionally. */
  fault?: EvmFault
}

/** A message (top-level or an opcode's), ethereumjs's Message. */
export interface Msg {
  caller: string
  /** undefined: a creation */
  to: string | undefined
  /** the code's account (CALLCODE, DELEGATECALL) */
  codeAddress: string | undefined
  value: bigint
  data: Uint8Array
  gas: number
  depth: number
  isStatic: boolean
  delegatecall: boolean
  salt: Uint8Array | undefined
}

/** What the opcodes of one message share: the rules, the journal, the block, the pools of stacks and memories. */
export interface Ctx {
  gas: EvmGas
  ops: Op[]
  precompiles: Map<string, PrecompileFunc>
  /** EvmMessage.chainPrecompiles */
  chainPrecompiles: ReadonlyMap<string, ChainPrecompile> | undefined
  common: Common
  /** the `_EVM` ethereumjs's precompiles read (its BN254 backend) */
  precompileEvm: unknown
  chainId: bigint
  j: Journal
  host: EvmHost
  block: EvmBlock
  coinbase: bigint
  prevRandao: bigint
  origin: bigint
  gasPrice: bigint
  blobHashes: bigint[]
  refund: number
  logs: EvmLog[]
  stacks: bigint[][]
  mems: Memory[]
  blockHashes: Map<bigint, bigint>
  /** EvmMessage.onJumpdest: the host's bound on a run's time */
  onJumpdest: (() => Promise<void> | undefined) | undefined
  /** EvmMessage.gasLedger: what the run shows of the limits it would run the same way under */
  ledger: GasLedger | undefined
  /** runs a child message (src/evm/message.ts runMsg), so that the frame loop needs no import of it */
  runMsg: (msg: Msg) => Promise<MsgResult>
}

/** A call or creation an opcode asks for. */
export interface Child {
  msg: Msg
  /** applies the outcome to the caller's frame (ethereumjs Interpreter._baseCall / create, then the opcode's end) */
  resume: (f: Frame, r: MsgResult | undefined) => void
}

/** One call frame: the interpreter's run state. */
export class Frame {
  pc = 0
  sp = 0
  status = RUNNING
  error = ''
  /** the data RETURN or REVERT gave */
  out: Uint8Array = EMPTY_BYTES
  /** RETURNDATA: the last call's */
  returnData: Uint8Array = EMPTY_BYTES
  pending: Promise<unknown> | undefined = undefined
  child: Child | undefined = undefined
  readonly stack: bigint[]
  readonly mem: Memory
  readonly addressBig: bigint
  readonly callerBig: bigint
  /** The gas the frame started with. */
  readonly budget: number
  /** With a gas ledger: the least budget the frame has run the same way with so far (gasLedger.ts). */
  need = 0
  /** A RETURNDATACOPY read past the return data: out of gas to ethereumjs, its own error to geth. */
  outOfBounds = false

  constructor(
    readonly ctx: Ctx,
    readonly code: CodeAnalysis,
    public gas: number,
    readonly address: string,
    readonly caller: string,
    readonly value: bigint,
    readonly data: Uint8Array,
    readonly isStatic: boolean,
    readonly depth: number,
  ) {
    let stack = ctx.stacks[depth]
    if (stack === undefined) {
      stack = new Array<bigint>(1024).fill(0n)
      ctx.stacks[depth] = stack
    }
    this.stack = stack
    let mem = ctx.mems[depth]
    if (mem === undefined) {
      mem = new Memory(ctx.gas.memory, ctx.gas.quadCoefficientDiv)
      ctx.mems[depth] = mem
    }
    this.mem = mem
    this.addressBig = BigInt(`0x${address}`)
    this.callerBig = BigInt(`0x${caller}`)
    this.budget = gas
  }
}

/**
 * With a gas ledger: the frame keeps its course only with a budget of at least `at`; the top frame's
 * thresholds are kept in order (`child`: the check is a call's below it).
 */
export function needs(f: Frame, at: number, child: boolean): void {
  if (at <= f.need) return
  f.need = at
  if (f.depth === 0) f.ctx.ledger!.marks.push({ at, child })
}

export const EMPTY_BYTES = new Uint8Array(0)

export function fail(f: Frame, error: string): void {
  f.status = FAILED
  f.error = error
}

/** Charges `gas`; false (the frame failed out of gas) when it has less. */
export function charge(f: Frame, gas: number): boolean {
  if (f.gas < gas) {
    f.gas = 0
    fail(f, 'out of gas')
    return false
  }
  f.gas -= gas
  return true
}

/** Waits for `p` and runs the opcode again. */
export function wait(f: Frame, p: Promise<unknown>): void {
  f.pending = p
  f.status = WAIT
}

export function addressHex(v: bigint): string {
  return (v & MASK_160).toString(16).padStart(40, '0')
}

export function slotHex(v: bigint): string {
  return v.toString(16).padStart(64, '0')
}

export const MASK_160 = (1n << 160n) - 1n
export const MASK_256 = (1n << 256n) - 1n

import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { type Address, bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import { OP, isCallOp, opName } from '../../evm/gethOpcodes.js'
import { gethVmError, haltName, haltOf } from '../exec/gethVmError.js'
import type { FrameType, Tracer } from './types.js'

/*
 * Feeds a Tracer from the ethereumjs EVM's events ('beforeMessage', 'step', 'newContract',
 * 'afterMessage') with geth's view: 1-based opcode depths, CALL costs that include the gas
 * handed to the callee (core/vm/gas_table.go callGas), frames typed by the opcode that opened
 * them, geth's VM error texts (core/vm/errors.go), and the frames geth reports for calls that
 * fail before running (depth limit, insufficient balance; core/vm/evm.go Call/Create).
 */

const EMPTY = new Uint8Array()
const MAX_DEPTH = 1024

interface EventSource {
  on(event: string, fn: (...args: never[]) => void): unknown
  off(event: string, fn: (...args: never[]) => void): unknown
}

interface LastStep {
  op: number
  stack: bigint[]
  returnDataLength: number
}

interface Frame {
  depth: number
  type: FrameType
  returnData: Uint8Array
  logIndex: number
  created?: Uint8Array
  lastStep?: LastStep
  /** The frame's message: its code, loaded after the message starts, names an undefined opcode ethereumjs steps as INVALID (0xfe). */
  message: Message
  selfdestruct?: { from: Uint8Array; to: Uint8Array; value: bigint }
}

/** A CALL/CREATE-family step whose message has not started yet. */
interface Pending {
  depth: number
  op: number
  step: InterpreterStep
  callGas: bigint
}

/** What attachTracer returns: detach() afterwards, then check timedOut / failure. */
export interface AttachedTracer {
  detach(): void
  readonly timedOut: boolean
  /** An error thrown by an async tracer hook (rethrown by the caller). */
  readonly failure: unknown
}

/** Subscribes `tracer` to an EVM's events until detach(). Steps after `deadline` (ms epoch) abort the run. */
export function attachTracer(evm: { events?: unknown }, tracer: Tracer, opts: { deadline: number; logIndexBase: number }): AttachedTracer {
  const events = evm.events as EventSource
  const frames: Frame[] = []
  let pending: Pending | undefined
  let logIndex = opts.logIndexBase
  let timedOut = false
  let failure: unknown

  const failedEarly = (p: Pending, frame: Frame | undefined) => {
    if (frame !== undefined) frame.returnData = EMPTY
    const s = p.step.stack
    const n = s.length
    const create = p.op === OP.CREATE || p.op === OP.CREATE2
    const withValue = p.op === OP.CALL || p.op === OP.CALLCODE || create
    const value = p.op === OP.DELEGATECALL || p.op === OP.STATICCALL ? undefined : create ? s[n - 1]! : s[n - 3]!
    const [inOff, inLen] = create ? [s[n - 2]!, s[n - 3]!] : withValue ? [s[n - 4]!, s[n - 5]!] : [s[n - 3]!, s[n - 4]!]
    const stipend = !create && value !== undefined && value > 0n ? 2300n : 0n
    const depth = p.depth + 1
    tracer.onEnter?.({
      depth,
      type: opName(p.op) as FrameType,
      from: p.step.address.bytes,
      to: create ? undefined : word20(s[n - 2]!),
      input: memorySlice(p.step.memory, inOff, inLen),
      gas: p.callGas + stipend,
      value,
    })
    tracer.onExit?.({ depth, output: EMPTY, gasUsed: 0n, error: p.depth >= MAX_DEPTH ? 'max call depth exceeded' : 'insufficient balance for transfer' })
  }

  const onBefore = (msg: Message) => {
    const parent = frames[frames.length - 1]
    let type: FrameType
    let from: Uint8Array
    let to: Uint8Array | undefined
    if (msg.depth === 0 || pending === undefined) {
      type = msg.to === undefined ? (msg.salt !== undefined ? 'CREATE2' : 'CREATE') : msg.delegatecall ? 'DELEGATECALL' : 'CALL'
      from = msg.caller.bytes
      to = msg.to?.bytes
    } else {
      type = opName(pending.op) as FrameType
      from = pending.step.address.bytes
      to = isCallOp(pending.op) ? word20(pending.step.stack[pending.step.stack.length - 2]!) : undefined
    }
    pending = undefined
    frames.push({ depth: msg.depth, type, returnData: EMPTY, logIndex, message: msg })
    if (parent !== undefined) parent.returnData = EMPTY
    tracer.onEnter?.({ depth: msg.depth, type, from, to, input: msg.data, gas: msg.gasLimit, value: type === 'STATICCALL' ? undefined : msg.value })
  }

  const onNewContract = (ev: { address: Address }) => {
    const frame = frames[frames.length - 1]
    if (frame !== undefined) frame.created = ev.address.bytes
  }

  const onAfter = (result: EVMResult) => {
    const frame = frames.pop()
    if (frame === undefined) return
    const exec = result.execResult
    const ethError = haltName(haltOf(exec.exceptionError), frame.type === 'CREATE' || frame.type === 'CREATE2')
    let error: string | undefined
    if (ethError !== undefined) {
      const mapped = vmError(ethError, frame.lastStep)
      error = mapped.text
      if (mapped.beforeRun) tracer.onOpcodeFault?.(error)
      logIndex = frame.logIndex
    } else if (frame.message.isCompiled === true) {
      // A precompile runs no LOG opcode: the logs it returns (Warp's, subnet-evm's events) are its frame's, as geth's StateDB.AddLog reports them.
      for (const [address, topics, data] of (exec.logs ?? []) as [Uint8Array, Uint8Array[], Uint8Array][]) tracer.onLog?.({ address, topics, data, index: logIndex++ })
    } else if (frame.selfdestruct !== undefined) {
      const sd = frame.selfdestruct
      tracer.onEnter?.({ depth: frame.depth + 1, type: 'SELFDESTRUCT', from: sd.from, to: sd.to, input: EMPTY, gas: 0n, value: sd.value })
      tracer.onExit?.({ depth: frame.depth + 1, output: EMPTY, gasUsed: 0n })
    }
    const output = ethError !== undefined && ethError !== 'revert' ? EMPTY : exec.returnValue
    const parent = frames[frames.length - 1]
    if (parent !== undefined) parent.returnData = frame.type === 'CREATE' || frame.type === 'CREATE2' ? (ethError === 'revert' ? output : EMPTY) : output
    tracer.onExit?.({ depth: frame.depth, output, gasUsed: exec.executionGasUsed, error, created: result.createdAddress?.bytes ?? frame.created })
  }

  const onStep = (ev: InterpreterStep, done: () => void) => {
    if (timedOut || Date.now() > opts.deadline) {
      timedOut = true
      // An EVM-typed error fails the running frame (and each parent's next step) cleanly.
      throw { error: 'execution timeout', errorType: 'EVMError' }
    }
    const frame = frames[frames.length - 1]
    if (pending !== undefined && pending.depth === ev.depth) {
      // A creation a chain's hook refused (subnet-evm's deployer allow list) has no frame: libevm asks the hook before the tracer's CaptureEnter.
      const hooked = evm as { createRefused?: boolean }
      if (hooked.createRefused === true) hooked.createRefused = false
      else failedEarly(pending, frame)
      pending = undefined
    }
    const code = ev.opcode.name === 'INVALID' ? frame?.message.code : undefined
    const op = code instanceof Uint8Array ? (code[ev.pc] ?? ev.opcode.code) : ev.opcode.code
    const stack = ev.stack
    let cost = ev.opcode.dynamicFee ?? BigInt(ev.opcode.fee)
    let callGas = 0n
    if (isCallOp(op) || op === OP.CREATE || op === OP.CREATE2) {
      const avail = ev.gasLeft - cost
      if (avail > 0n) {
        callGas = avail - avail / 64n
        if (isCallOp(op) && stack.length > 0 && stack[stack.length - 1]! < callGas) callGas = stack[stack.length - 1]!
      }
      // geth charges the callee's gas as part of a CALL's cost; ethereumjs charges it apart.
      if (isCallOp(op)) cost += callGas
      pending = { depth: ev.depth, op, step: ev, callGas }
    }
    const returnData = frame?.returnData ?? EMPTY
    if (frame !== undefined) frame.lastStep = { op, stack, returnDataLength: returnData.length }
    if (op >= OP.LOG0 && op <= OP.LOG4 && stack.length >= op - OP.LOG0 + 2) {
      const n = stack.length
      const topics = Array.from({ length: op - OP.LOG0 }, (_, i) => setLengthLeft(bigIntToBytes(stack[n - 3 - i]!), 32))
      tracer.onLog?.({ address: ev.address.bytes, topics, data: memorySlice(ev.memory, stack[n - 1]!, stack[n - 2]!), index: logIndex++ })
    }
    const work: Promise<void>[] = []
    if (op === OP.SELFDESTRUCT && frame !== undefined && stack.length > 0) {
      const state = ev.stateManager as StateManagerInterface
      work.push(
        state.getAccount(ev.address).then((a) => {
          frame.selfdestruct = { from: ev.address.bytes, to: word20(stack[stack.length - 1]!), value: a?.balance ?? 0n }
        }),
      )
    }
    const r = tracer.onOpcode?.({
      pc: ev.pc,
      op,
      gas: ev.gasLeft,
      cost,
      depth: ev.depth + 1,
      stack,
      memory: ev.memory,
      address: ev.address.bytes,
      refund: ev.gasRefund,
      returnData,
      state: ev.stateManager as StateManagerInterface,
    })
    if (r instanceof Promise) work.push(r)
    if (work.length === 0) return done()
    Promise.all(work).then(
      () => done(),
      (err: unknown) => {
        failure ??= err
        done()
      },
    )
  }

  events.on('beforeMessage', onBefore as never)
  events.on('newContract', onNewContract as never)
  events.on('afterMessage', onAfter as never)
  events.on('step', onStep as never)
  return {
    detach() {
      events.off('beforeMessage', onBefore as never)
      events.off('newContract', onNewContract as never)
      events.off('afterMessage', onAfter as never)
      events.off('step', onStep as never)
    },
    get timedOut() {
      return timedOut
    },
    get failure() {
      return failure
    },
  }
}

/** geth's text for the halt, from the last step; beforeRun: geth logs the failing step with the error (its stack and gas checks). */
function vmError(name: string, last: LastStep | undefined): { text: string; beforeRun: boolean } {
  const n = last?.stack.length ?? 0
  const returnDataOutOfBounds = last?.op === OP.RETURNDATACOPY && n >= 3 && last.stack[n - 2]! + last.stack[n - 3]! > BigInt(last.returnDataLength)
  const text = gethVmError(name, { op: last?.op ?? 0xfe, stackLen: n, returnDataOutOfBounds })
  const checked = name === 'stack underflow' || name === 'stack overflow' || (name === 'out of gas' && !returnDataOutOfBounds)
  return { text, beforeRun: last !== undefined && checked }
}

/** The low 20 bytes of a stack word (an address operand). */
export function word20(w: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(w & ((1n << 160n) - 1n)), 20)
}

/** memory[offset, offset+size), zero-padded past its end (geth GetMemoryCopyPadded). */
export function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n || size > 1n << 24n) return new Uint8Array()
  const out = new Uint8Array(Number(size))
  if (offset < BigInt(memory.length)) out.set(memory.subarray(Number(offset), Math.min(memory.length, Number(offset + size))))
  return out
}

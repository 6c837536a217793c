import { bytesToHex } from '@ethereumjs/util'
import { decodeRevertReason } from '../exec/executor.js'
import type { Enter, Exit, FrameType, LogEvent, Tracer, TxEnd, TxStart } from './types.js'

/** callTracer's tracerConfig (geth eth/tracers/native/call.go callTracerConfig). */
export interface CallTracerConfig {
  onlyTopCall: boolean
  withLog: boolean
}

interface CallLog {
  address: Uint8Array
  topics: Uint8Array[]
  data: Uint8Array
  index: number
  position: number
}

interface CallFrame {
  type: FrameType
  from: Uint8Array
  gas: bigint
  gasUsed: bigint
  to?: Uint8Array
  input: Uint8Array
  output?: Uint8Array
  error?: string
  revertReason?: string
  calls: CallFrame[]
  logs: CallLog[]
  value?: bigint
  reverted: boolean
}

/**
 * geth's callTracer: the call tree with gas, output, error and revert reason per frame; the top
 * frame's gas is the transaction's gas limit and its gasUsed the receipt's. With `withLog`,
 * logs carry their position among the frame's subcalls; logs of failed frames are dropped.
 */
export class CallTracer implements Tracer {
  private readonly stack: CallFrame[] = []
  private gasLimit = 0n
  private depth = 0

  constructor(private readonly cfg: CallTracerConfig) {}

  onTxStart(tx: TxStart): void {
    this.gasLimit = tx.gasLimit
  }

  onEnter(f: Enter): void {
    this.depth = f.depth
    if (this.cfg.onlyTopCall && f.depth > 0) return
    this.stack.push({
      type: f.type,
      from: f.from,
      to: f.to,
      // A call's input is a view of the caller's memory, which later steps may overwrite: copied, as geth's callTracer does (eth/tracers/native/call.go OnEnter).
      input: f.input.slice(),
      gas: f.depth === 0 ? this.gasLimit : f.gas,
      gasUsed: 0n,
      value: f.value,
      calls: [],
      logs: [],
      reverted: false,
    })
  }

  onExit(e: Exit): void {
    if (e.depth === 0) {
      if (this.stack.length === 1) finish(this.stack[0]!, e)
      return
    }
    this.depth = e.depth - 1
    if (this.cfg.onlyTopCall || this.stack.length <= 1) return
    const call = this.stack.pop()!
    call.gasUsed = e.gasUsed
    finish(call, e)
    this.stack[this.stack.length - 1]!.calls.push(call)
  }

  onLog(log: LogEvent): void {
    if (!this.cfg.withLog || (this.cfg.onlyTopCall && this.depth > 0)) return
    const top = this.stack[this.stack.length - 1]
    if (top === undefined) return
    top.logs.push({ ...log, position: top.calls.length })
  }

  onTxEnd(end: TxEnd): void {
    const top = this.stack[0]
    if (top === undefined) return
    top.gasUsed = end.gasUsed
    if (this.cfg.withLog) clearFailedLogs(top, false)
  }

  result(): unknown {
    const top = this.stack[0]
    if (top === undefined || this.stack.length !== 1) throw new Error('incorrect number of top-level calls')
    return frameJSON(top)
  }
}

/** geth callFrame.processOutput. */
function finish(f: CallFrame, e: Exit): void {
  if ((f.type === 'CREATE' || f.type === 'CREATE2') && e.created !== undefined) f.to = e.created
  if (e.error === undefined) {
    f.output = e.output
    return
  }
  f.error = e.error
  f.reverted = true
  if (f.type === 'CREATE' || f.type === 'CREATE2') f.to = undefined
  if (e.error !== 'execution reverted' || e.output.length === 0) return
  f.output = e.output
  if (e.output.length < 4) return
  const reason = decodeRevertReason(e.output)
  if (reason !== undefined) f.revertReason = reason
}

function clearFailedLogs(f: CallFrame, parentFailed: boolean): void {
  const failed = (f.error !== undefined && f.reverted) || parentFailed
  if (failed) f.logs = []
  for (const c of f.calls) clearFailedLogs(c, failed)
}

/** callFrame's JSON (gen_callframe_json.go field order; omitempty fields left out). */
function frameJSON(f: CallFrame): Record<string, unknown> {
  const out: Record<string, unknown> = { from: bytesToHex(f.from), gas: hexQ(f.gas), gasUsed: hexQ(f.gasUsed) }
  if (f.to !== undefined) out.to = bytesToHex(f.to)
  out.input = bytesToHex(f.input)
  if (f.output !== undefined && f.output.length > 0) out.output = bytesToHex(f.output)
  if (f.error !== undefined) out.error = f.error
  if (f.revertReason !== undefined) out.revertReason = f.revertReason
  if (f.calls.length > 0) out.calls = f.calls.map(frameJSON)
  if (f.logs.length > 0) {
    out.logs = f.logs.map((l) => ({
      address: bytesToHex(l.address),
      topics: l.topics.map(bytesToHex),
      data: bytesToHex(l.data),
      index: hexQ(l.index),
      position: hexQ(l.position),
    }))
  }
  if (f.value !== undefined) out.value = hexQ(f.value)
  out.type = f.type
  return out
}

function hexQ(n: bigint | number): string {
  return '0x' + n.toString(16)
}

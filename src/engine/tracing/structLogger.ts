import { bytesToHex, setLengthLeft, bigIntToBytes, Address } from '@ethereumjs/util'
import { OP, opName } from '../../evm/gethOpcodes.js'
import type { Exit, OpStep, Tracer, TxEnd } from './types.js'

/** The struct logger's options (geth eth/tracers/logger.Config). */
export interface StructLoggerConfig {
  disableStorage: boolean
  disableStack: boolean
  enableMemory: boolean
  enableReturnData: boolean
  /**
   * Steps logged at most; 0 = unlimited. As coreth and geth's documentation count it (geth since
   * 1.14.13 counts bytes of output instead; a limit of N steps is what users ask for).
   */
  limit: number
}

type Entry = Record<string, unknown>

/**
 * geth's default tracer (eth/tracers/logger/logger.go StructLogger): one entry per step, in
 * structLogLegacy's field order and formats (execution-apis spec: 0x-prefixed memory words and
 * storage keys/values), storage as the slots this contract read or wrote so far in the trace.
 */
export class StructLogger implements Tracer {
  private readonly logs: Entry[] = []
  private lastLogged = false
  private readonly storage = new Map<string, Map<string, string>>()
  private output: Uint8Array = new Uint8Array()
  private error: string | undefined
  private gasUsed = 0n

  constructor(private readonly cfg: StructLoggerConfig) {}

  async onOpcode(step: OpStep): Promise<void> {
    this.lastLogged = false
    if (this.cfg.limit !== 0 && this.logs.length >= this.cfg.limit) return
    const entry: Entry = { pc: step.pc, op: opName(step.op), gas: Number(step.gas), gasCost: Number(step.cost), depth: step.depth }
    if (!this.cfg.disableStack) entry.stack = step.stack.map((v) => '0x' + v.toString(16))
    if (this.cfg.enableReturnData && step.returnData.length > 0) entry.returnData = bytesToHex(step.returnData)
    if (this.cfg.enableMemory && step.memory.length > 0) {
      const words: string[] = []
      for (let i = 0; i < step.memory.length; i += 32) words.push(bytesToHex(setLengthRight32(step.memory.subarray(i, i + 32))))
      entry.memory = words
    }
    const n = step.stack.length
    if (!this.cfg.disableStorage && ((step.op === OP.SLOAD && n >= 1) || (step.op === OP.SSTORE && n >= 2))) {
      const key = setLengthLeft(bigIntToBytes(step.stack[n - 1]!), 32)
      const value = step.op === OP.SLOAD ? setLengthLeft(await step.state.getStorage(new Address(step.address), key), 32) : setLengthLeft(bigIntToBytes(step.stack[n - 2]!), 32)
      const addr = bytesToHex(step.address)
      let slots = this.storage.get(addr)
      if (slots === undefined) this.storage.set(addr, (slots = new Map()))
      slots.set(bytesToHex(key), bytesToHex(value))
      entry.storage = Object.fromEntries([...slots.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    }
    if (step.refund > 0n) entry.refund = Number(step.refund)
    this.logs.push(entry)
    this.lastLogged = true
  }

  onOpcodeFault(error: string): void {
    if (!this.lastLogged) return
    const last = this.logs[this.logs.length - 1]!
    // geth's field order puts `error` right after `depth`.
    const { pc, op, gas, gasCost, depth, ...rest } = last
    const withError = { pc, op, gas, gasCost, depth, error, ...rest }
    this.logs[this.logs.length - 1] = withError
  }

  onExit(frame: Exit): void {
    if (frame.depth !== 0) return
    this.output = frame.output
    this.error = frame.error
  }

  onTxEnd(end: TxEnd): void {
    this.gasUsed = end.gasUsed
  }

  result(): unknown {
    const failed = this.error !== undefined
    // The return data when it succeeded or reverted (the revert reason), otherwise empty.
    const returned = failed && this.error !== 'execution reverted' ? new Uint8Array() : this.output
    return { gas: Number(this.gasUsed), failed, returnValue: bytesToHex(returned), structLogs: this.logs }
  }
}

function setLengthRight32(b: Uint8Array): Uint8Array {
  if (b.length === 32) return b
  const out = new Uint8Array(32)
  out.set(b)
  return out
}

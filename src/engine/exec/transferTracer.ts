import type { Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { bigIntToBytes, hexToBytes, setLengthLeft, type Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { Log } from '../chain/receipt.js'

/** ERC-7528's ETH address and the ERC-20 Transfer topic, for traceTransfers (geth logtracer.go). */
const TRANSFER_ADDRESS = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
const ZERO_ADDRESS = new Uint8Array(20)

interface Frame {
  logs: { log: Log; index: number }[]
  failed?: boolean
}

/**
 * geth's simulate log tracer (internal/ethapi/logtracer.go) over ethereumjs's events: every call
 * frame collects its logs, an ETH transfer is logged as an ERC-20 Transfer from 0xEeee…EEeE when its
 * frame is entered, and a failed frame's logs are dropped. Indexes count every captured log.
 */
export class TransferTracer {
  private readonly frames: Frame[] = []
  private top: Frame = { logs: [] }
  private readonly handlers: [string, (...args: never[]) => void][]

  constructor(
    private readonly vm: VM,
    private readonly counter: { next: number },
  ) {
    let pendingCreate: Log | undefined
    const onBefore = (msg: Message) => {
      const frame: Frame = { logs: [] }
      this.frames.push(frame)
      const isCallCode = !msg.delegatecall && msg.to !== undefined && msg.codeAddress !== undefined && !msg.codeAddress.equals(msg.to)
      if (!msg.delegatecall && !isCallCode && msg.value > 0n) {
        const log = transferLog(msg.caller.bytes, msg.to?.bytes ?? ZERO_ADDRESS, msg.value)
        if (msg.to === undefined) pendingCreate = log
        this.capture(log)
      }
    }
    const onNewContract = (e: { address: Address }) => {
      if (pendingCreate !== undefined) pendingCreate.topics[2] = setLengthLeft(e.address.bytes, 32)
      pendingCreate = undefined
    }
    const onAfter = (res: { execResult: { exceptionError?: unknown } }) => {
      const frame = this.frames.pop()!
      if (res.execResult.exceptionError !== undefined) frame.failed = true
      const parent = this.frames[this.frames.length - 1]
      if (parent === undefined) this.top = frame
      else if (!frame.failed) parent.logs.push(...frame.logs)
    }
    const onStep = (step: { opcode: { code: number }; stack: bigint[]; memory: Uint8Array; address: Address; stateManager: StateManagerInterface }, done: () => void) => {
      this.onStep(step).then(done, done)
    }
    this.handlers = [
      ['beforeMessage', onBefore as never],
      ['newContract', onNewContract as never],
      ['afterMessage', onAfter as never],
      ['step', onStep as never],
    ]
    for (const [event, h] of this.handlers) vm.evm.events!.on(event as never, h as never)
  }

  private async onStep(step: { opcode: { code: number }; stack: bigint[]; memory: Uint8Array; address: Address; stateManager: StateManagerInterface }): Promise<void> {
    const op = step.opcode.code
    const stack = step.stack
    if (op >= 0xa0 && op <= 0xa4) {
      const n = stack.length
      const offset = Number(stack[n - 1]!)
      const size = Number(stack[n - 2]!)
      const topics: Uint8Array[] = []
      for (let i = 0; i < op - 0xa0; i++) topics.push(setLengthLeft(bigIntToBytes(stack[n - 3 - i]!), 32))
      const data = new Uint8Array(size)
      if (offset < step.memory.length) data.set(step.memory.subarray(offset, Math.min(step.memory.length, offset + size)))
      this.capture({ address: step.address.bytes, topics, data })
    } else if (op === 0xff) {
      // SELFDESTRUCT moves the balance: geth enters (and exits) a frame with that value.
      const beneficiary = setLengthLeft(bigIntToBytes(stack[stack.length - 1]!), 20).subarray(-20)
      const balance = (await step.stateManager.getAccount(step.address))?.balance ?? 0n
      if (balance > 0n) this.capture(transferLog(step.address.bytes, beneficiary, balance))
    }
  }

  private capture(log: Log): void {
    const frame = this.frames[this.frames.length - 1] ?? this.top
    frame.logs.push({ log, index: this.counter.next++ })
  }

  /** The logs of the finished transaction (none when its top frame failed). */
  logs(): { log: Log; index: number }[] {
    return this.top.failed ? [] : this.top.logs
  }

  detach(): void {
    for (const [event, h] of this.handlers) this.vm.evm.events!.off(event as never, h as never)
  }
}

function transferLog(from: Uint8Array, to: Uint8Array, value: bigint): Log {
  return {
    address: TRANSFER_ADDRESS,
    topics: [TRANSFER_TOPIC, setLengthLeft(from, 32), setLengthLeft(to, 32)],
    data: setLengthLeft(bigIntToBytes(value), 32),
  }
}

import type { StateManagerInterface } from '@ethereumjs/common'

/*
 * The tracer hooks, shaped after geth's core/tracing.Hooks: the driver (evmHooks.ts) turns
 * ethereumjs EVM events into these, with geth's depths, gas costs and error texts.
 */

/** Call frame kinds as geth names them (vm.OpCode.String()). */
export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

/** OnTxStart: the transaction before any state change (gas purchase, nonce). */
export interface TxStart {
  from: Uint8Array
  /** Undefined for a contract creation. */
  to?: Uint8Array
  gasLimit: bigint
  coinbase: Uint8Array
  state: StateManagerInterface
}

/** OnEnter: depth 0 is the transaction's own frame (geth). */
export interface Enter {
  depth: number
  type: FrameType
  from: Uint8Array
  /** Undefined until known for a creation (set on exit as `created`). */
  to?: Uint8Array
  input: Uint8Array
  gas: bigint
  /** Undefined for STATICCALL (geth passes nil). */
  value?: bigint
}

/** OnExit: `error` is geth's VM error text; `created` the new contract of a CREATE frame. */
export interface Exit {
  depth: number
  output: Uint8Array
  gasUsed: bigint
  error?: string
  created?: Uint8Array
}

/** OnOpcode: one step before it runs; depth 1 is the transaction's frame (geth). */
export interface OpStep {
  pc: number
  op: number
  gas: bigint
  cost: bigint
  depth: number
  stack: bigint[]
  memory: Uint8Array
  address: Uint8Array
  refund: bigint
  returnData: Uint8Array
  state: StateManagerInterface
}

/** OnLog. `index` is the log's index in the block (geth StateDB logSize). */
export interface LogEvent {
  address: Uint8Array
  topics: Uint8Array[]
  data: Uint8Array
  index: number
}

/** OnTxEnd: gas used as the receipt says, and the state after the transaction. */
export interface TxEnd {
  gasUsed: bigint
  state: StateManagerInterface
}

/** A tracer: hooks plus its JSON result. Async hooks are awaited. */
export interface Tracer {
  onTxStart?(tx: TxStart): Promise<void> | void
  onEnter?(frame: Enter): void
  onExit?(frame: Exit): void
  onOpcode?(step: OpStep): Promise<void> | void
  /** The last step failed before it ran (out of gas, stack): geth logs it once, with this error. */
  onOpcodeFault?(error: string): void
  onLog?(log: LogEvent): void
  onTxEnd?(end: TxEnd): Promise<void> | void
  result(): unknown
}

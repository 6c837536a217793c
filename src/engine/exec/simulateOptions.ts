import type { Block } from '../chain/block.js'
import { SimulateError } from '../base/errors.js'
import type { RunLimit } from './evmGuard.js'
import type { Log } from '../chain/receipt.js'
import type { CallRequest, StateOverride } from '../base/types.js'

/*
 * eth_simulateV1's input and output (geth internal/ethapi/simulate.go): the blocks of calls with
 * their overrides, the request limits, and the checks geth makes before it reads any state.
 * src/engine/exec/simulate.ts runs them.
 */

/** geth maxSimulateBlocks: simulated block numbers may run at most this far past the base. */
export const MAX_SIMULATE_BLOCKS = 256
/** geth maxSimulateCallsPerBlock / maxSimulateTotalCalls. */
export const MAX_SIMULATE_CALLS_PER_BLOCK = 5000
export const MAX_SIMULATE_TOTAL_CALLS = 10000
/** geth timestampIncrement: seconds between simulated blocks without a time override. */
const TIMESTAMP_INCREMENT = 12n
/** geth's uint64: block numbers, nonces and the gas budget of a simulation wrap or stop at it. */
export const MAX_UINT64 = (1n << 64n) - 1n

/** geth override.BlockOverrides as eth_simulateV1 takes them. */
export interface BlockOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: Uint8Array
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
  blobBaseFee?: bigint
  difficulty?: bigint
}

/** One simulated block's input. */
export interface SimBlock {
  blockOverrides?: BlockOverrides
  stateOverrides?: StateOverride
  calls: CallRequest[]
}

/** eth_simulateV1's payload after parsing (geth simOpts). */
export interface SimulateOptions {
  blockStateCalls: SimBlock[]
  traceTransfers: boolean
  validation: boolean
  returnFullTransactions: boolean
}

/** A log of a simulated call; its block is the simulated block it belongs to. */
export interface SimLog {
  log: Log
  txIndex: number
  logIndex: number
}

/** A failed call's error: a revert (with data) or another EVM error (geth callError). */
export interface SimCallError {
  kind: 'reverted' | 'vm'
  message: string
  data?: Uint8Array
}

/** geth simCallResult. */
export interface SimCallResult {
  returnData: Uint8Array
  logs: SimLog[]
  gasUsed: bigint
  maxUsedGas: bigint
  status: 0 | 1
  error?: SimCallError
}

/** One simulated block: its header and transactions (senders set), and each call's result. */
export interface SimBlockResult {
  block: Block
  calls: SimCallResult[]
}

export interface SimulateLimits {
  /** rpc-gas-cap: the gas all calls of one request may use together (0 = unlimited). */
  gasCap: bigint
  /** gas-target of the chain config, for the fee state of validation-mode blocks. */
  gasTarget?: bigint
  /** rpc-evm-timeout and the request's cancellation, for the whole request (docs/SECURITY.md, E2). */
  run?: RunLimit
}

/** Checks the request's size as geth's SimulateV1 does before it reads any state. */
export function checkSimulateSize(opts: SimulateOptions): void {
  if (opts.blockStateCalls.length === 0) throw new SimulateError('invalidParams', 'empty input')
  if (opts.blockStateCalls.length > MAX_SIMULATE_BLOCKS) throw new SimulateError('clientLimitExceeded', 'too many blocks')
  let total = 0
  for (const b of opts.blockStateCalls) {
    if (b.calls.length > MAX_SIMULATE_CALLS_PER_BLOCK) {
      throw new SimulateError('clientLimitExceeded', `too many calls in block: ${b.calls.length} > ${MAX_SIMULATE_CALLS_PER_BLOCK}`)
    }
    total += b.calls.length
    if (total > MAX_SIMULATE_TOTAL_CALLS) throw new SimulateError('clientLimitExceeded', `too many calls: ${total} > ${MAX_SIMULATE_TOTAL_CALLS}`)
  }
}

export type SanitizedBlock = SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }

/** geth sanitizeChain: numbers and times strictly increase; gaps are filled with empty blocks. */
export function sanitizeChain(base: Block, blocks: SimBlock[]): SanitizedBlock[] {
  const out: SanitizedBlock[] = []
  let prevNumber = base.header.number
  let prevTime = base.header.timestamp
  for (const block of blocks) {
    const o = { ...(block.blockOverrides ?? {}) }
    const number = o.number ?? prevNumber + 1n
    if (number <= prevNumber) {
      throw new SimulateError('blockNumberInvalid', `block numbers must be in order: ${number & MAX_UINT64} <= ${prevNumber}`)
    }
    if (number - base.header.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new SimulateError('clientLimitExceeded', 'too many blocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ blockOverrides: { number: n, time: prevTime }, calls: [] })
    }
    prevNumber = number
    let time: bigint
    if (o.time === undefined) {
      time = prevTime + TIMESTAMP_INCREMENT
    } else {
      time = o.time
      if (time <= prevTime) throw new SimulateError('blockTimestampInvalid', `block timestamps must be in order: ${time} <= ${prevTime}`)
    }
    prevTime = time
    out.push({ ...block, blockOverrides: { ...o, number, time } })
  }
  return out
}

import { bytesToHex } from '@ethereumjs/util'
import { formatBytes } from './abi.js'
import type { PrecompileLog, PrecompileState } from './state.js'

/*
 * A precompile as subnet-evm builds one (subnet-evm precompile/contract/contract.go): functions
 * behind 4-byte selectors, each run with the call's caller, input and gas, some only once an
 * upgrade is active (setManager from Durango).
 */

/** vm.ErrOutOfGas, vm.ErrWriteProtection, vm.ErrExecutionReverted. */
export const ERR_OUT_OF_GAS = 'out of gas'
export const ERR_WRITE_PROTECTION = 'write protection'
export const ERR_EXECUTION_REVERTED = 'execution reverted'

/** What one function sees. */
export interface FunctionContext {
  /** The EVM-semantic caller. */
  caller: Uint8Array
  /** The input after the selector. */
  input: Uint8Array
  /** Read-only (inside a STATICCALL). */
  readOnly: boolean
  durango: boolean
  blockNumber: bigint
  state: PrecompileState
  gas: GasMeter
}

/** A function's result: its output and logs, or the error it returns. */
export type FunctionOutcome = { returnData: Uint8Array; logs: PrecompileLog[] } | { error: string }

export interface PrecompileFunction {
  selector: Uint8Array
  run(ctx: FunctionContext): Promise<FunctionOutcome>
  /** Whether the function exists under the call's rules (absent: always). */
  active?: (ctx: { durango: boolean }) => boolean
}

/** contract.DeductGas: a charge above what is left fails and leaves nothing. */
export class GasMeter {
  constructor(public left: bigint) {}
  /** False (and nothing left) when the cost is above the gas left. */
  charge(cost: bigint): boolean {
    if (this.left < cost) {
      this.left = 0n
      return false
    }
    this.left -= cost
    return true
  }
}

/** The functions of a precompile keyed by selector. */
export type FunctionTable = ReadonlyMap<string, PrecompileFunction>

export function functionTable(functions: readonly PrecompileFunction[]): FunctionTable {
  const table = new Map<string, PrecompileFunction>()
  for (const fn of functions) {
    const key = bytesToHex(fn.selector)
    if (table.has(key)) throw new Error(`cannot create stateful precompile with duplicated function selector: ${key}`)
    table.set(key, fn)
  }
  return table
}

/** statefulPrecompileWithFunctionSelectors.Run (no precompile here has a fallback function). */
export async function runSelected(table: FunctionTable, data: Uint8Array, ctx: Omit<FunctionContext, 'input'>): Promise<FunctionOutcome> {
  if (data.length < 4) return { error: `missing function selector to precompile - input length (${data.length})` }
  const selector = data.subarray(0, 4)
  const fn = table.get(bytesToHex(selector))
  if (fn === undefined) return { error: `invalid function selector: ${formatBytes(selector)}` }
  if (fn.active !== undefined && !fn.active(ctx)) return { error: `invalid non-activated function selector: ${formatBytes(selector)}` }
  return fn.run({ ...ctx, input: data.subarray(4) })
}

import type { Common } from '@ethereumjs/common'
import type { ExecResult, PrecompileFunc, PrecompileInput } from '@ethereumjs/evm'
import type { MsgResult } from './frame.js'

/**
 * Runs one of ethereumjs's precompiles (getActivePrecompiles' functions, so their gas and output are
 * theirs). The input is copied: ethereumjs hands the caller's memory itself, and IDENTITY returns it,
 * which would let a later write to that memory change RETURNDATA (geth copies).
 */
export async function runPrecompile(fn: PrecompileFunc, data: Uint8Array, gas: number, common: Common, evm: unknown): Promise<MsgResult> {
  const input = { data: data.slice(), gasLimit: BigInt(gas), common, _EVM: evm } as unknown as PrecompileInput
  const out = fn(input)
  const res: ExecResult = out instanceof Promise ? await out : out
  return { error: res.exceptionError?.error, returnData: res.returnValue, gasUsed: Number(res.executionGasUsed) }
}

import { ERR_EXECUTION_REVERTED, type FunctionTable, functionTable, GasMeter, runSelected } from './contract.js'
import { FEE_MANAGER_FUNCTIONS } from './feeManager.js'
import { allowListFunctions } from './allowList.js'
import { DEPLOYER_ALLOW_LIST_ADDRESS, type StatefulPrecompileKey, TX_ALLOW_LIST_ADDRESS } from './modules.js'
import { NATIVE_MINTER_FUNCTIONS } from './nativeMinter.js'
import { REWARD_MANAGER_FUNCTIONS } from './rewardManager.js'
import type { PrecompileLog, PrecompileState } from './state.js'

/*
 * One call of a subnet-evm stateful precompile as libevm runs it (subnet-evm params/hooks_libevm.go
 * makePrecompile; libevm core/vm contracts.libevm.go, evm.go). The EVM has already moved the call's
 * value to the precompile's address (value is allowed) and charged the call itself.
 */

/** The opcode (or transaction) that reached the precompile. */
export type CallType = 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE'

export interface PrecompileCall {
  /** The EVM-semantic caller: under DELEGATECALL, the delegating frame's own caller. */
  caller: Uint8Array
  /** The precompile's address (the functions read and write their own address's storage whatever it is). */
  address: Uint8Array
  /** The input, selector included. */
  data: Uint8Array
  gas: bigint
  /** The call's value: moved by the EVM before the run, read by no function here. */
  value?: bigint
  /** The interpreter is read-only (inside a STATICCALL at any depth). */
  isStatic: boolean
  /** Absent: CALL. */
  callType?: CallType
  blockNumber: bigint
  /** The block's timestamp (seconds). */
  blockTime: bigint
  /** The chain's rules at the block's time. granite absent: false. */
  rules: { durango: boolean; granite?: boolean }
}

export interface PrecompileResult {
  returnData: Uint8Array
  /** What the caller gets back: everything not used on success, 0 on any error (revert included). */
  gasLeft: bigint
  /** The Go error's text; the EVM reverts the call's state changes (its value transfer too). */
  error?: string
  /** The error is vm.ErrExecutionReverted: a revert (the caller sees REVERT semantics, empty return data). */
  revert?: boolean
  /**
   * The whole transaction is invalid (libevm InvalidateExecution): the call itself still ran, but
   * the state transition must fail with this text instead of producing a receipt.
   */
  invalidate?: string
  /** Emitted by a successful call (none on error). */
  logs: PrecompileLog[]
}

/** params.InvalidateDelegateUnix: from 2025-08-02 04:00 UTC a DELEGATECALL/CALLCODE into a precompile invalidates its tx (until Granite). */
export const INVALIDATE_DELEGATE_TIME = 1_754_107_200n

const TABLES: Record<StatefulPrecompileKey, FunctionTable> = {
  contractDeployerAllowListConfig: functionTable(allowListFunctions(DEPLOYER_ALLOW_LIST_ADDRESS)),
  contractNativeMinterConfig: functionTable(NATIVE_MINTER_FUNCTIONS),
  txAllowListConfig: functionTable(allowListFunctions(TX_ALLOW_LIST_ADDRESS)),
  feeManagerConfig: functionTable(FEE_MANAGER_FUNCTIONS),
  rewardManagerConfig: functionTable(REWARD_MANAGER_FUNCTIONS),
}

/**
 * Runs `call` on the enabled precompile `key` over `state`. On an error the EVM must revert the
 * call's snapshot and use all its gas (gasLeft 0), return data empty; `revert` marks the one error
 * that is a REVERT (a DELEGATECALL or CALLCODE from Granite).
 */
export async function runStatefulPrecompile(key: StatefulPrecompileKey, call: PrecompileCall, state: PrecompileState): Promise<PrecompileResult> {
  const empty = new Uint8Array(0)
  let invalidate: string | undefined
  const callType = call.callType ?? 'CALL'
  if (callType === 'DELEGATECALL' || callType === 'CALLCODE') {
    if (call.rules.granite === true) return { returnData: empty, gasLeft: 0n, error: ERR_EXECUTION_REVERTED, revert: true, logs: [] }
    if (call.blockTime >= INVALIDATE_DELEGATE_TIME) invalidate = `precompile cannot be called with ${callType}`
  }
  const gas = new GasMeter(call.gas)
  const outcome = await runSelected(TABLES[key], call.data, {
    caller: call.caller,
    readOnly: call.isStatic,
    durango: call.rules.durango,
    blockNumber: call.blockNumber,
    state,
    gas,
  })
  const extra = invalidate === undefined ? {} : { invalidate }
  if ('error' in outcome) return { returnData: empty, gasLeft: 0n, error: outcome.error, logs: [], ...extra }
  return { returnData: outcome.returnData, gasLeft: gas.left, logs: outcome.logs, ...extra }
}

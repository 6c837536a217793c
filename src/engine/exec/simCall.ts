import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { RLP } from '@ethereumjs/rlp'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, toChecksumAddress } from '@ethereumjs/util'
import type { RunTxResult } from '@ethereumjs/vm'
import type { Chain } from '../chain/chain.js'
import { keccak256 } from '../../util/crypto.js'
import { EngineError, SimulateError } from '../base/errors.js'
import { executionError, type CallOutcome } from './executor.js'
import { haltName, haltOf } from './gethVmError.js'
import type { Log, Receipt } from '../chain/receipt.js'
import type { CallRequest } from '../base/types.js'
import { MAX_UINT64, type SimCallResult, type SimLog } from './simulateOptions.js'
import type { TransferTracer } from './transferTracer.js'
import { type WarpTx, warpCallOf, withIntrinsicGas } from './warpPrecompile.js'
import type { WarpTxContext } from '../../warp/precompile.js'

/*
 * One call of eth_simulateV1 as geth checks and reports it (internal/ethapi/simulate.go,
 * core/state_transition.go): the checks before it runs, the transactions it runs and reports, and
 * its result and receipt afterwards. src/engine/exec/simulate.ts runs it in its block.
 */

/** EIP-3860 (geth params.MaxInitCodeSize). */
const MAX_INIT_CODE_SIZE = 49152
const MAX_UINT256 = (1n << 256n) - 1n
const ZERO_ADDRESS = new Uint8Array(20)

/** A call that passed geth's checks: what to run, what to report, and what its result needs. */
export interface SimCall {
  /** The transaction as geth reports it, unsigned, with its sender and hash set. */
  tx: TypedTransaction
  /** The transaction the VM runs (EIP-1559 whatever the request's fee fields). */
  execTx: TypedTransaction
  from: Address
  /** The sender's account before the call (a fresh one when it has none). */
  account: Account
  gas: bigint
  /** The RPC gas cap lowered the call's gas. */
  gasCapped: boolean
  /** The effective gas price of the receipt. */
  price: bigint
  intrinsic: bigint
  /** The call's Warp predicates, for the precompile (setWarpTx). */
  warp: WarpTxContext | undefined
  /** A call without fees outside validation mode: geth (NoBaseFee) skips its fee checks. */
  noFees: boolean
}

/** One call: geth sanitizeCall and the state-transition pre-checks with their wording, then its transactions. */
export async function simCall(
  call: CallRequest,
  sm: Pick<MerkleStateManager, 'getAccount'>,
  blk: { baseFee: bigint; gasLimit: bigint; gasUsed: bigint },
  ctx: { chain: Chain; validation: boolean; budget: bigint },
): Promise<SimCall> {
  const fromBytes = call.from ?? ZERO_ADDRESS
  const from = new Address(fromBytes)
  const fromHex = toChecksumAddress(from.toString())
  const account = (await sm.getAccount(from)) ?? new Account()
  const nonce = call.nonce ?? account.nonce
  const remaining = blk.gasLimit - blk.gasUsed
  const requested = call.gas ?? remaining
  if (remaining < requested) {
    throw new SimulateError('blockGasLimitReached', `block gas limit reached: remaining: ${remaining}, required: ${requested}`)
  }
  const gas = requested > ctx.budget ? ctx.budget : requested
  const gasCapped = gas < requested
  if (call.chainId !== undefined && call.chainId !== ctx.chain.chainId) {
    throw new EngineError(`chainId does not match node's (have=${call.chainId}, want=${ctx.chain.chainId})`)
  }
  const legacy = call.gasPrice !== undefined
  const feeCap = call.gasPrice ?? call.maxFeePerGas ?? 0n
  const tip = call.gasPrice ?? call.maxPriorityFeePerGas ?? 0n
  let price = feeCap
  if (!legacy) price = feeCap === 0n && tip === 0n ? 0n : min(tip + blk.baseFee, feeCap)
  const value = call.value ?? 0n
  const data = call.input ?? new Uint8Array()
  const fail = (kind: ConstructorParameters<typeof SimulateError>[0], msg: string): never => {
    throw new SimulateError(kind, `err: ${msg} (supplied gas ${gas})`)
  }

  // core/state_transition.go preCheck, in its order.
  if (ctx.validation) {
    if (account.nonce < nonce) fail('nonceTooHigh', `nonce too high: address ${fromHex}, tx: ${nonce} state: ${account.nonce}`)
    if (account.nonce > nonce) fail('nonceTooLow', `nonce too low: address ${fromHex}, tx: ${nonce} state: ${account.nonce}`)
    if (account.nonce === MAX_UINT64) fail('internal', `nonce has max value: address ${fromHex}, nonce: ${account.nonce}`)
  }
  const noFees = !ctx.validation && feeCap === 0n && tip === 0n
  if (!noFees) {
    if (feeCap < tip) fail('invalidParams', `max priority fee per gas higher than max fee per gas: address ${fromHex}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`)
    if (feeCap < blk.baseFee) fail('feeCapTooLow', `max fee per gas less than block base fee: address ${fromHex}, maxFeePerGas: ${feeCap}, baseFee: ${blk.baseFee}`)
  }
  if (call.to == null && data.length > MAX_INIT_CODE_SIZE) {
    fail('initCodeTooLarge', `max initcode size exceeded: code size ${data.length}, limit ${MAX_INIT_CODE_SIZE}`)
  }
  const want = gas * feeCap + value
  if (want > MAX_UINT256) fail('insufficientFunds', `insufficient funds for gas * price + value: address ${fromHex} required balance exceeds 256 bits`)
  if (account.balance < want) fail('insufficientFunds', `insufficient funds for gas * price + value: address ${fromHex} have ${account.balance} want ${want}`)

  const common = ctx.chain.txCommon
  // ethereumjs refuses a nonce of 2^64-1 that geth accepts: it is set after construction.
  const fields = { nonce: 0n, gasLimit: gas, to: call.to ?? undefined, value, data, chainId: ctx.chain.chainId }
  const accessList = (call.accessList ?? []).map((i): [Uint8Array, Uint8Array[]] => [i.address, i.storageKeys])
  let execTx = createTx({ ...fields, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList }, { common, freeze: false })
  // Warp predicates, as a call's (warpCallOf): priced in the intrinsic gas, read as verified.
  let warp: WarpTx | undefined
  try {
    warp = warpCallOf(ctx.chain.warp, { accessList })
  } catch (err) {
    fail('intrinsicGas', (err as Error).message)
  }
  if (warp !== undefined) execTx = withIntrinsicGas(execTx, warp.gasAdjustment)
  const intrinsic = execTx.getIntrinsicGas()
  if (gas < intrinsic) fail('intrinsicGas', `intrinsic gas too low: have ${gas}, want ${intrinsic}`)

  // The transaction as geth reports it (ToTransaction: legacy when gasPrice is given), unsigned.
  const tx = legacy
    ? createTx({ ...fields, type: 0, gasPrice: feeCap }, { common, freeze: false })
    : createTx({ ...fields, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList }, { common, freeze: false })
  ;(tx as { nonce: bigint }).nonce = nonce
  const txHash = keccak256(legacy ? RLP.encode(tx.raw() as never) : tx.serialize())
  ;(tx as { hash: () => Uint8Array }).hash = () => txHash
  ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => from
  ;(execTx as { getSenderAddress: () => Address }).getSenderAddress = () => from
  return { tx, execTx, from, account, gas, gasCapped, price, intrinsic, noFees, warp: warp?.context }
}

/** A run call's result and receipt as geth shapes them (the receipt's cumulative gas is the block's to set). */
export function simCallResult(c: SimCall, run: RunTxResult, index: number, logCounter: { next: number }, tracer: TransferTracer | undefined): { receipt: Receipt; result: SimCallResult } {
  const used = run.totalGasSpent
  const exec = run.execResult
  const failed = exec.exceptionError !== undefined
  const evmLogs: Log[] = failed ? [] : (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }))
  let logs: SimLog[]
  if (tracer !== undefined) {
    logs = failed ? [] : tracer.logs().map((l) => ({ log: l.log, txIndex: index, logIndex: l.index }))
  } else {
    logs = evmLogs.map((log) => ({ log, txIndex: index, logIndex: logCounter.next++ }))
  }
  const result: SimCallResult = {
    // geth ExecutionResult.Return(): nothing when the call failed (a revert's data is in the error).
    returnData: failed ? new Uint8Array() : exec.returnValue,
    logs,
    gasUsed: used,
    maxUsedGas: c.intrinsic + exec.executionGasUsed,
    status: failed ? 0 : 1,
  }
  if (failed) {
    const halt = haltOf(exec.exceptionError)!
    const reverted = halt.error === 'revert'
    const err = executionError({ reverted, returnData: exec.returnValue, error: haltName(halt, c.tx.to === undefined), fault: halt.fault } as CallOutcome)
    result.error = reverted
      ? { kind: 'reverted', message: err.message, data: exec.returnValue }
      : { kind: 'vm', message: err.message + (c.gasCapped ? " (gas limit was capped by the RPC server's global gas cap)" : '') }
  }
  const receipt: Receipt = {
    txType: c.tx.type,
    status: failed ? 0 : 1,
    cumulativeGasUsed: 0n,
    gasUsed: used,
    effectiveGasPrice: c.price,
    contractAddress: run.createdAddress?.bytes,
    logs: evmLogs,
  }
  return { receipt, result }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

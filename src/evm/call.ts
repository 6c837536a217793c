import { unprefixedHexToBytes } from '@ethereumjs/util'
import { NEW_ACC, withBalance } from './account.js'
import { analyze } from './codeAnalysis.js'
import { ERR } from './errors.js'
import { type Ctx, EMPTY_BYTES, type Msg, type MsgResult } from './frame.js'
import { runCode } from './interpreter.js'
import { runPrecompile } from './precompiles.js'

export const MAX_UINT256 = (1n << 256n) - 1n

/**
 * A call message (ethereumjs evm.js _executeCall, Cancun's part): the value moves (a failure to pay
 * is the message's error, after the recipient was credited: the caller reverts both), then the
 * precompile or the code at `codeAddress` runs; no code, nothing runs.
 */
export async function executeCall(ctx: Ctx, msg: Msg): Promise<MsgResult> {
  const j = ctx.j
  const to = msg.to!
  await j.needAccount(msg.caller)
  await j.needAccount(to)
  let error: string | undefined
  if (!msg.delegatecall) {
    const from = j.account(msg.caller) ?? NEW_ACC
    const left = from.balance - msg.value
    if (left < 0n) error = ERR.INSUFFICIENT_BALANCE
    else j.putAccount(msg.caller, withBalance(from, left))
    const recipient = j.account(to) ?? NEW_ACC
    const balance = recipient.balance + msg.value
    if (balance > MAX_UINT256) error = ERR.VALUE_OVERFLOW
    else j.putAccount(to, withBalance(recipient, balance))
  }
  const codeAddress = msg.codeAddress ?? to
  const own = ctx.chainPrecompiles?.get(codeAddress)
  if (own !== undefined) {
    // coreth since Granite (params/hooks_libevm.go makePrecompile): a DELEGATECALL or CALLCODE reverts and uses all its gas.
    if (codeAddress !== to) return { error: ERR.REVERT, returnData: EMPTY_BYTES, gasUsed: msg.gas, need: 0 }
    if (error !== undefined) return { error, returnData: EMPTY_BYTES, gasUsed: 0 }
    const r = own.run({ caller: unprefixedHexToBytes(msg.caller), data: msg.data.slice(), gas: BigInt(msg.gas), isStatic: msg.isStatic })
    if (r.error === undefined) for (const log of r.logs) ctx.logs.push(log)
    // A precompile's price depends on its input only: it needs what it used.
    return { error: r.error, returnData: r.returnData, gasUsed: Number(r.gasUsed), need: Number(r.gasUsed) }
  }
  const precompile = ctx.precompiles.get(codeAddress)
  if (precompile !== undefined) {
    if (error !== undefined) return { error, returnData: EMPTY_BYTES, gasUsed: 0 }
    const r = await runPrecompile(precompile, msg.data, msg.gas, ctx.common, ctx.precompileEvm)
    return { ...r, need: r.gasUsed }
  }
  await j.needCode(codeAddress)
  const code = j.code(codeAddress)
  if (code.length === 0 || error !== undefined) return { error, returnData: EMPTY_BYTES, gasUsed: 0, need: 0 }
  return runCode(ctx, analyze(code, j.account(codeAddress)!.codeHex), msg, to)
}

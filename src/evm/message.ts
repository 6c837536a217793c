import { bytesToUnprefixedHex } from '@ethereumjs/util'
import { NEW_ACC } from './account.js'
import { executeCall } from './call.js'
import { executeCreate } from './create.js'
import type { Ctx, Msg, MsgResult } from './frame.js'
import { createdAddress } from './opcodes/system.js'

/**
 * One message with its own checkpoint (ethereumjs EVM.runCall given a message): on any error its
 * state, warm sets, transient storage, logs and refunds are undone.
 */
export async function runMsg(ctx: Ctx, msg: Msg): Promise<MsgResult> {
  const j = ctx.j
  if (msg.to === undefined) {
    // runCall warms a creation's address before the creation's checkpoint: it stays warm if the creation fails.
    await j.needAccount(msg.caller)
    const nonce = (j.account(msg.caller) ?? NEW_ACC).nonce
    j.addWarm(bytesToUnprefixedHex(createdAddress(msg.caller, nonce - 1n, msg.salt, msg.data)))
  }
  const mark = j.checkpoint()
  const refund = ctx.refund
  const logs = ctx.logs.length
  const r = msg.to !== undefined ? await executeCall(ctx, msg) : await executeCreate(ctx, msg)
  if (r.error !== undefined) {
    j.revert(mark)
    ctx.refund = refund
    ctx.logs.length = logs
  }
  return r
}

import type { CodeAnalysis } from './codeAnalysis.js'
import { CALL, type Ctx, DONE, EMPTY_BYTES, Frame, type Msg, type MsgResult, REVERTED, RUNNING, WAIT, needs } from './frame.js'

/**
 * Runs a frame to its end: the opcodes run synchronously, and the loop leaves only to await a state
 * read an opcode asked for (the opcode then runs again) or a child message.
 */
async function runFrame(f: Frame): Promise<void> {
  const ops = f.ctx.ops
  const code = f.code.padded
  for (;;) {
    while (f.status === RUNNING) ops[code[f.pc]!]!(f)
    if (f.status === WAIT) {
      const p = f.pending!
      f.pending = undefined
      await p
      f.status = RUNNING
    } else if (f.status === CALL) {
      const child = f.child!
      f.child = undefined
      f.status = RUNNING
      child.resume(f, await f.ctx.runMsg(child.msg))
    } else return
  }
}

/**
 * Runs `code` for `msg` at `address` (ethereumjs EVM.runInterpreter): the gas used is all of it on
 * an exceptional halt, what was used on a REVERT (with its data) or a success.
 */
export async function runCode(ctx: Ctx, code: CodeAnalysis, msg: Msg, address: string): Promise<MsgResult> {
  const f = new Frame(ctx, code, msg.gas, address, msg.caller, msg.value, msg.to === undefined ? EMPTY_BYTES : msg.data, msg.isStatic, msg.depth)
  try {
    await runFrame(f)
  } finally {
    f.mem.release()
  }
  const ended = f.status === DONE || f.status === REVERTED
  if (ended && ctx.ledger !== undefined) needs(f, f.budget - f.gas, false)
  const need = ctx.ledger === undefined ? undefined : f.need
  if (f.status === DONE) return { error: undefined, returnData: f.out, gasUsed: msg.gas - f.gas, need }
  if (f.status === REVERTED) return { error: 'revert', returnData: f.out, gasUsed: msg.gas - f.gas, need }
  // Every exceptional halt but a bad jump fails before its opcode moves the counter: the opcode is at pc.
  const fault = { op: code.padded[f.pc] ?? 0, stackLen: f.sp, returnDataOutOfBounds: f.outOfBounds }
  return { error: f.error, returnData: EMPTY_BYTES, gasUsed: msg.gas, fault }
}

import { bytesToHex } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import type { EvmGas } from '../gasParams.js'
import { type Frame, type Op, WAIT, fail } from '../frame.js'
import { oog, underflow } from './arith.js'
import { push, words } from './env.js'

/** CALL, CALLCODE, DELEGATECALL, STATICCALL: the opcodes whose first argument is gas. */
const CALLS = new Set([0xf1, 0xf2, 0xf4, 0xfa])

// Memory, copy, jump and stack-shape opcodes. Memory offsets are paid before they are used, and a
// paid offset is below 2^31 (Memory.expand), so Number() of it is exact.

/** ethereumjs's INVALID_JUMP message names the code's hash, the address and the position (opcodes/util.js describeLocation). */
function badJump(f: Frame): void {
  const code = f.code.padded.subarray(0, f.code.length)
  fail(f, `invalid JUMP at ${bytesToHex(keccak256(code))}/0x${f.address}:${f.pc - 1}`)
}

/** A copy opcode (CALLDATACOPY, CODECOPY): `src` from the stack's second item into memory. */
function copyOp(fee: number, copyGas: number, source: (f: Frame) => Uint8Array): Op {
  return (f) => {
    if (f.sp < 3) return underflow(f)
    const s = f.stack
    const top = f.sp - 1
    const memOffset = s[top]!
    const len = s[top - 2]!
    let gas = fee + f.mem.expand(memOffset, len)
    if (len !== 0n) gas += copyGas * words(len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.sp -= 3
    if (len !== 0n) f.mem.copyFrom(Number(memOffset), source(f), s[top - 1]!, Number(len))
  }
}

/** MSTORE and MSTORE8: they pay for the offset alone before they pop the value (their gas handler peeks one item). */
function storeOp(fee: number, size: 1 | 32): Op {
  const len = BigInt(size)
  return (f) => {
    if (f.sp < 1) return underflow(f)
    const s = f.stack
    const offset = s[f.sp - 1]!
    const gas = fee + f.mem.expand(offset, len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    if (f.sp < 2) return underflow(f)
    f.pc++
    f.sp -= 2
    const o = Number(offset)
    if (size === 32) f.mem.store32(o, s[f.sp]!)
    else {
      f.mem.ensure(o + 1)
      f.mem.buf[o] = Number(s[f.sp]! & 0xffn)
    }
  }
}

export function memOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  const fKeccak = fee[0x20]!
  t[0x20] = (f) => {
    if (f.sp < 2) return underflow(f)
    const s = f.stack
    const offset = s[f.sp - 1]!
    const len = s[f.sp - 2]!
    const gas = fKeccak + f.mem.expand(offset, len) + g.keccakWord * words(len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    const data = len === 0n ? new Uint8Array(0) : f.mem.view(Number(offset), Number(len))
    s[--f.sp - 1] = BigInt(bytesToHex(keccak256(data)))
  }
  t[0x37] = copyOp(fee[0x37]!, g.copy, (f) => f.data)
  t[0x39] = copyOp(fee[0x39]!, g.copy, (f) => f.code.padded.subarray(0, f.code.length))
  const fRdc = fee[0x3e]!
  t[0x3e] = (f) => {
    if (f.sp < 3) return underflow(f)
    const s = f.stack
    const top = f.sp - 1
    const memOffset = s[top]!
    const dataOffset = s[top - 1]!
    const len = s[top - 2]!
    if (dataOffset + len > BigInt(f.returnData.length)) {
      f.outOfBounds = true
      return oog(f)
    }
    let gas = fRdc + f.mem.expand(memOffset, len)
    if (len !== 0n) gas += g.copy * words(len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.sp -= 3
    if (len !== 0n) f.mem.copyFrom(Number(memOffset), f.returnData, dataOffset, Number(len))
  }
  const fPop = fee[0x50]!
  t[0x50] = (f) => {
    if (f.gas < fPop) return oog(f)
    if (f.sp < 1) return underflow(f)
    f.gas -= fPop
    f.sp--
    f.pc++
  }
  const fMload = fee[0x51]!
  t[0x51] = (f) => {
    if (f.sp < 1) return underflow(f)
    const s = f.stack
    const offset = s[f.sp - 1]!
    const gas = fMload + f.mem.expand(offset, 32n)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    s[f.sp - 1] = f.mem.load32(Number(offset))
  }
  t[0x52] = storeOp(fee[0x52]!, 32)
  t[0x53] = storeOp(fee[0x53]!, 1)
  const fJump = fee[0x56]!
  t[0x56] = (f) => {
    if (f.gas < fJump) return oog(f)
    if (f.sp < 1) return underflow(f)
    f.gas -= fJump
    f.pc++
    const dest = f.stack[--f.sp]!
    if (dest >= BigInt(f.code.length) || f.code.jumpdests[Number(dest)] !== 1) return badJump(f)
    f.pc = Number(dest)
  }
  const fJumpi = fee[0x57]!
  t[0x57] = (f) => {
    if (f.gas < fJumpi) return oog(f)
    if (f.sp < 2) return underflow(f)
    f.gas -= fJumpi
    f.pc++
    f.sp -= 2
    if (f.stack[f.sp]! === 0n) return
    const dest = f.stack[f.sp + 1]!
    if (dest >= BigInt(f.code.length) || f.code.jumpdests[Number(dest)] !== 1) return badJump(f)
    f.pc = Number(dest)
  }
  t[0x58] = (f) => push(f, fee[0x58]!, BigInt(f.pc))
  t[0x59] = (f) => push(f, fee[0x59]!, BigInt(f.mem.words * 32))
  const fGas = fee[0x5a]!
  t[0x5a] = (f) => {
    // The gas left is a call's gas argument only when the call takes it at once (what solc emits for a call); anything else may steer the run.
    const ledger = f.ctx.ledger
    if (ledger !== undefined && !CALLS.has(f.code.padded[f.pc + 1]!)) ledger.opaque = true
    push(f, fGas, BigInt(f.gas - fGas))
  }
  const fJumpdest = fee[0x5b]!
  t[0x5b] = (f) => {
    const hook = f.ctx.onJumpdest
    if (hook !== undefined) {
      // The host's time check; after its wait the JUMPDEST runs again (the hook answers at once then).
      const wait = hook()
      if (wait !== undefined) {
        f.pending = wait
        f.status = WAIT
        return
      }
    }
    if (f.gas < fJumpdest) return oog(f)
    f.gas -= fJumpdest
    f.pc++
  }
  const fMcopy = fee[0x5e]!
  t[0x5e] = (f) => {
    if (f.sp < 3) return underflow(f)
    const s = f.stack
    const top = f.sp - 1
    const dst = s[top]!
    const src = s[top - 1]!
    const len = s[top - 2]!
    const gas = fMcopy + g.copy * words(len) + f.mem.expand(src, len) + f.mem.expand(dst, len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.sp -= 3
    if (len === 0n) return
    const n = Number(len)
    const d = Number(dst)
    const o = Number(src)
    f.mem.ensure(Math.max(d, o) + n)
    f.mem.buf.copyWithin(d, o, o + n)
  }
  t[0x5f] = (f) => push(f, fee[0x5f]!, 0n)
  stackOps(t, g)
}

function stackOps(t: Op[], g: EvmGas): void {
  for (let op = 0x60; op <= 0x7f; op++) {
    const fPush = g.fee[op]!
    const skip = op - 0x5e
    t[op] = (f) => {
      if (f.gas < fPush) return oog(f)
      if (f.sp >= 1024) return fail(f, 'stack overflow')
      f.gas -= fPush
      f.stack[f.sp++] = f.code.pushes[f.pc]!
      f.pc += skip
    }
  }
  for (let op = 0x80; op <= 0x8f; op++) {
    const fDup = g.fee[op]!
    const n = op - 0x7f
    t[op] = (f) => {
      if (f.gas < fDup) return oog(f)
      if (f.sp < n) return underflow(f)
      if (f.sp >= 1024) return fail(f, 'stack overflow')
      f.gas -= fDup
      const s = f.stack
      s[f.sp] = s[f.sp - n]!
      f.sp++
      f.pc++
    }
  }
  for (let op = 0x90; op <= 0x9f; op++) {
    const fSwap = g.fee[op]!
    const n = op - 0x8f
    t[op] = (f) => {
      if (f.gas < fSwap) return oog(f)
      if (f.sp <= n) return underflow(f)
      f.gas -= fSwap
      const s = f.stack
      const top = f.sp - 1
      const tmp = s[top]!
      s[top] = s[top - n]!
      s[top - n] = tmp
      f.pc++
    }
  }
}

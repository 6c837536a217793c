import { bigIntToBytes, generateAddress, generateAddress2, unprefixedHexToBytes } from '@ethereumjs/util'
import { NEW_ACC, isEmptyAcc, withNonce } from '../account.js'
import type { EvmGas } from '../gasParams.js'
import { availFor } from '../gasLedger.js'
import { CALL, DONE, EMPTY_BYTES, type Frame, type MsgResult, type Op, REVERTED, addressHex, fail, needs, wait } from '../frame.js'
import { oog, underflow } from './arith.js'
import { accessCost, isEof, words } from './env.js'
import { word32 } from './storage.js'

// The opcodes that end a frame or start another: STOP, RETURN, REVERT, INVALID, SELFDESTRUCT (with
// EIP-6780), CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2. Gas as ethereumjs's gas.js
// and EIP7928.js callFamilyGas (EIP-150's 63/64, EIP-2929 access, the 2 300 stipend); what happens
// around the child message as Interpreter._baseCall and Interpreter.create (interpreter.js).

const MAX_UINT64 = (1n << 64n) - 1n
const CALL_OP = 0xf1
const CALLCODE_OP = 0xf2
const DELEGATECALL_OP = 0xf4
const STATICCALL_OP = 0xfa

/** RETURN and REVERT: the memory range as the frame's output. */
function endOp(fee: number, status: number): Op {
  return (f) => {
    if (f.sp < 2) return underflow(f)
    const s = f.stack
    const offset = s[f.sp - 1]!
    const len = s[f.sp - 2]!
    const gas = fee + f.mem.expand(offset, len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.sp -= 2
    f.out = len === 0n ? EMPTY_BYTES : f.mem.read(Number(offset), Number(len))
    f.status = status
  }
}

export function systemOps(t: Op[], g: EvmGas): void {
  t[0x00] = (f) => {
    f.status = DONE
  }
  t[0xf3] = endOp(g.fee[0xf3]!, DONE)
  t[0xfd] = endOp(g.fee[0xfd]!, REVERTED)
  t[0xff] = selfdestructOp(g)
  t[CALL_OP] = callOp(g, CALL_OP)
  t[CALLCODE_OP] = callOp(g, CALLCODE_OP)
  t[DELEGATECALL_OP] = callOp(g, DELEGATECALL_OP)
  t[STATICCALL_OP] = callOp(g, STATICCALL_OP)
  t[0xf0] = createOp(g, false)
  t[0xf5] = createOp(g, true)
}

function selfdestructOp(g: EvmGas): Op {
  const fee = g.fee[0xff]!
  return (f) => {
    if (f.isStatic) return fail(f, 'static state change')
    if (f.sp < 1) return underflow(f)
    const to = addressHex(f.stack[f.sp - 1]!)
    const j = f.ctx.j
    const p = j.needAccount(to)
    if (p !== undefined) return wait(f, p)
    const own = j.account(f.address)!
    const balance = own.balance
    const beneficiary = j.account(to)
    let gas = fee
    if (balance > 0n && isEmptyAcc(beneficiary)) gas += g.callNewAccount
    // EIP-2929 for SELFDESTRUCT: cold costs 2 600, warm costs nothing extra (getAddressAccessCost's isSelfdestruct).
    if (j.touchAddress(to)) gas += g.coldAccount
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.sp--
    if (!j.selfdestructs.has(f.address)) f.ctx.refund += g.selfdestructRefund
    j.markSelfdestruct(f.address)
    const toSelf = to === f.address
    if (!toSelf) {
      const b = beneficiary ?? NEW_ACC
      j.putAccount(to, { ...b, balance: b.balance + balance })
    }
    // EIP-6780: the account is emptied only when it was created in this transaction (or it pays another).
    if (j.created.has(f.address) || !toSelf) j.putAccount(f.address, { ...j.account(f.address)!, balance: 0n })
    f.out = EMPTY_BYTES
    f.status = DONE
  }
}

function callOp(g: EvmGas, op: number): Op {
  const fee = g.fee[op]!
  const hasValue = op === CALL_OP || op === CALLCODE_OP
  const n = hasValue ? 7 : 6
  return (f) => {
    if (f.sp < n) return underflow(f)
    const s = f.stack
    const top = f.sp - 1
    const gasWanted = s[top]!
    const to = addressHex(s[top - 1]!)
    const value = hasValue ? s[top - 2]! : 0n
    const i = hasValue ? top - 3 : top - 2
    const inOffset = s[i]!
    const inLen = s[i - 1]!
    const outOffset = s[i - 2]!
    const outLen = s[i - 3]!
    if (op === CALL_OP && f.isStatic && value !== 0n) return fail(f, 'static state change')
    const j = f.ctx.j
    if (op === CALL_OP && value !== 0n) {
      const p = j.needAccount(to)
      if (p !== undefined) return wait(f, p)
    }
    let gas = fee + f.mem.expand(inOffset, inLen) + f.mem.expand(outOffset, outLen) + accessCost(f, g, to)
    if (hasValue && value !== 0n) gas += g.callValueTransfer
    if (op === CALL_OP && value !== 0n && isEmptyAcc(j.account(to))) gas += g.callNewAccount
    if (gas > f.gas) return oog(f)
    const avail = f.gas - gas
    const allowed = avail - Math.floor(avail / 64)
    let childGas = gasWanted < BigInt(allowed) ? Number(gasWanted) : allowed
    const ledger = f.ctx.ledger
    if (ledger !== undefined) needs(f, f.budget - avail, false)
    f.gas -= gas
    f.sp -= n
    f.pc++
    const data = inLen === 0n ? EMPTY_BYTES : f.mem.view(Number(inOffset), Number(inLen))
    if (hasValue && value !== 0n) {
      f.gas += g.callStipend
      childGas += g.callStipend
    }
    f.returnData = EMPTY_BYTES
    // Interpreter._baseCall's checks: no message at all, nothing charged but what the opcode paid.
    if (f.depth >= g.stackLimit || (op !== DELEGATECALL_OP && j.account(f.address)!.balance < value)) {
      s[f.sp++] = 0n
      return
    }
    const outStart = Number(outOffset)
    const outMax = outLen === 0n ? 0 : Number(outLen)
    f.child = {
      msg: {
        caller: op === DELEGATECALL_OP ? f.caller : f.address,
        to: op === CALL_OP || op === STATICCALL_OP ? to : f.address,
        codeAddress: to,
        value: op === DELEGATECALL_OP ? f.value : value,
        data,
        gas: childGas,
        depth: f.depth + 1,
        isStatic: op === STATICCALL_OP || f.isStatic,
        delegatecall: op === DELEGATECALL_OP,
        salt: undefined,
      },
      resume: (fr: Frame, r: MsgResult | undefined) => {
        r = r!
        if (ledger !== undefined) childNeeds(fr, r, avail, hasValue && value !== 0n ? g.callStipend : 0)
        fr.gas -= r.gasUsed
        if (r.error === undefined || r.error === 'revert') fr.returnData = r.returnData
        const rd = fr.returnData
        if (rd.length > 0 && outMax > 0) fr.mem.write(outStart, rd.length > outMax ? rd.subarray(0, outMax) : rd)
        fr.stack[fr.sp++] = r.error === undefined ? 1n : 0n
      },
    }
    f.status = CALL
  }
}

function createOp(g: EvmGas, salted: boolean): Op {
  const fee = g.fee[salted ? 0xf5 : 0xf0]!
  const n = salted ? 4 : 3
  return (f) => {
    if (f.sp < n) return underflow(f)
    if (f.isStatic) return fail(f, 'static state change')
    const s = f.stack
    const top = f.sp - 1
    const value = s[top]!
    const offset = s[top - 1]!
    const len = s[top - 2]!
    const j = f.ctx.j
    const own = f.address
    let gas = fee + f.mem.expand(offset, len)
    j.touchAddress(own)
    gas += g.initCodeWord * words(len)
    if (salted) gas += g.keccakWord * words(len)
    if (gas > f.gas) return oog(f)
    const avail = f.gas - gas
    const childGas = avail - Math.floor(avail / 64)
    const ledger = f.ctx.ledger
    if (ledger !== undefined) needs(f, f.budget - avail, false)
    f.gas -= gas
    f.sp -= n
    f.pc++
    if (len > BigInt(g.maxInitCodeSize)) return fail(f, 'initcode exceeds max initcode size')
    const code = len === 0n ? EMPTY_BYTES : f.mem.view(Number(offset), Number(len))
    if (isEof(code)) {
      s[f.sp++] = 0n
      return
    }
    f.returnData = EMPTY_BYTES
    const acc = j.account(own)!
    if (f.depth >= g.stackLimit || acc.balance < value || acc.nonce >= MAX_UINT64) {
      s[f.sp++] = 0n
      return
    }
    j.putAccount(own, withNonce(acc, acc.nonce + 1n))
    f.child = {
      msg: {
        caller: own,
        to: undefined,
        codeAddress: undefined,
        value,
        data: code,
        gas: childGas,
        depth: f.depth + 1,
        isStatic: false,
        delegatecall: false,
        salt: salted ? word32(s[top - 3]!) : undefined,
      },
      resume: (fr: Frame, r: MsgResult | undefined) => {
        r = r!
        if (ledger !== undefined) childNeeds(fr, r, avail, 0)
        fr.gas -= r.gasUsed
        if (r.error === 'revert') fr.returnData = r.returnData
        fr.stack[fr.sp++] = r.error === undefined && r.createdAddress !== undefined ? BigInt(`0x${r.createdAddress}`) : 0n
      },
    }
    f.status = CALL
  }
}

/**
 * With a gas ledger: what a child needed, in its caller's terms: the caller must have had
 * `avail` (what was left after the call's own cost) at least as large as what forwards the child's
 * need less the stipend. A child that failed exceptionally took all it was given: opaque.
 */
function childNeeds(f: Frame, r: MsgResult, avail: number, stipend: number): void {
  if ((r.error !== undefined && r.error !== 'revert') || r.need === undefined) {
    f.ctx.ledger!.opaque = true
    return
  }
  needs(f, f.budget - avail + availFor(r.need - stipend), true)
}

/** CREATE's and CREATE2's new address (ethereumjs evm.js _generateAddress: the sender's nonce before its bump). */
export function createdAddress(caller: string, nonce: bigint, salt: Uint8Array | undefined, code: Uint8Array): Uint8Array {
  const from = unprefixedHexToBytes(caller)
  return salt !== undefined ? generateAddress2(from, salt, code) : generateAddress(from, bigIntToBytes(nonce))
}

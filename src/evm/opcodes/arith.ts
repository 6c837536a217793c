import type { EvmGas } from '../gasParams.js'
import { type Frame, MASK_256, type Op, fail } from '../frame.js'

// Arithmetic, comparison and bit opcodes (0x01..0x1d): static gas, charged before the stack is read
// (ethereumjs interpreter.js runStep: useGas, then the handler pops). Semantics of
// node_modules/@ethereumjs/evm/dist/esm/opcodes/functions.js.

const SIGN = 1n << 255n
const TWO256 = 1n << 256n

export function oog(f: Frame): void {
  f.gas = 0
  fail(f, 'out of gas')
}

export function underflow(f: Frame): void {
  fail(f, 'stack underflow')
}

function signed(a: bigint): bigint {
  return a >= SIGN ? a - TWO256 : a
}

/**
 * The fee and an `n`-operand check; pops all but one; returns the index of the result's slot (the
 * last operand's), or -1 when the frame failed.
 */
function take(f: Frame, fee: number, n: number): number {
  if (f.gas < fee) {
    oog(f)
    return -1
  }
  if (f.sp < n) {
    underflow(f)
    return -1
  }
  f.gas -= fee
  f.pc++
  f.sp -= n - 1
  return f.sp - 1
}

const two = (f: Frame, fee: number) => take(f, fee, 2)
const three = (f: Frame, fee: number) => take(f, fee, 3)
const one = (f: Frame, fee: number) => take(f, fee, 1)

export function exponentiation(base: bigint, exp: bigint): bigint {
  let t = 1n
  let b = base
  let e = exp
  while (e > 0n) {
    if (e & 1n) t = (t * b) & MASK_256
    b = (b * b) & MASK_256
    e >>= 1n
  }
  return t
}

export function arithOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  const fAdd = fee[0x01]!
  t[0x01] = (f) => {
    const i = two(f, fAdd)
    if (i < 0) return
    const s = f.stack
    s[i] = (s[i + 1]! + s[i]!) & MASK_256
  }
  const fMul = fee[0x02]!
  t[0x02] = (f) => {
    const i = two(f, fMul)
    if (i < 0) return
    const s = f.stack
    s[i] = (s[i + 1]! * s[i]!) & MASK_256
  }
  const fSub = fee[0x03]!
  t[0x03] = (f) => {
    const i = two(f, fSub)
    if (i < 0) return
    const s = f.stack
    s[i] = (s[i + 1]! - s[i]!) & MASK_256
  }
  const fDiv = fee[0x04]!
  t[0x04] = (f) => {
    const i = two(f, fDiv)
    if (i < 0) return
    const s = f.stack
    const b = s[i]!
    s[i] = b === 0n ? 0n : s[i + 1]! / b
  }
  const fSdiv = fee[0x05]!
  t[0x05] = (f) => {
    const i = two(f, fSdiv)
    if (i < 0) return
    const s = f.stack
    const b = s[i]!
    s[i] = b === 0n ? 0n : BigInt.asUintN(256, signed(s[i + 1]!) / signed(b))
  }
  const fMod = fee[0x06]!
  t[0x06] = (f) => {
    const i = two(f, fMod)
    if (i < 0) return
    const s = f.stack
    const b = s[i]!
    s[i] = b === 0n ? 0n : s[i + 1]! % b
  }
  const fSmod = fee[0x07]!
  t[0x07] = (f) => {
    const i = two(f, fSmod)
    if (i < 0) return
    const s = f.stack
    const b = s[i]!
    s[i] = b === 0n ? 0n : BigInt.asUintN(256, signed(s[i + 1]!) % signed(b))
  }
  const fAddmod = fee[0x08]!
  t[0x08] = (f) => {
    const i = three(f, fAddmod)
    if (i < 0) return
    const s = f.stack
    const c = s[i]!
    s[i] = c === 0n ? 0n : (s[i + 2]! + s[i + 1]!) % c
  }
  const fMulmod = fee[0x09]!
  t[0x09] = (f) => {
    const i = three(f, fMulmod)
    if (i < 0) return
    const s = f.stack
    const c = s[i]!
    s[i] = c === 0n ? 0n : (s[i + 2]! * s[i + 1]!) % c
  }
  const fExp = fee[0x0a]!
  const expByte = g.expByte
  // EXP's gas reads the stack first (a dynamic gas handler): underflow before out of gas.
  t[0x0a] = (f) => {
    if (f.sp < 2) return underflow(f)
    const s = f.stack
    const base = s[f.sp - 1]!
    const exponent = s[f.sp - 2]!
    let gas = fExp
    if (exponent !== 0n) gas += Math.ceil(exponent.toString(2).length / 8) * expByte
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    const i = --f.sp - 1
    s[i] = exponent === 0n ? 1n : base === 0n ? 0n : exponentiation(base, exponent)
  }
  const fSignext = fee[0x0b]!
  t[0x0b] = (f) => {
    const i = two(f, fSignext)
    if (i < 0) return
    const s = f.stack
    const k = s[i + 1]!
    if (k < 31n) {
      const val = s[i]!
      const bit = k * 8n + 7n
      const mask = (1n << bit) - 1n
      s[i] = (val >> bit) & 1n ? val | (MASK_256 ^ mask) : val & mask
    }
  }
  compareOps(t, g)
}

function compareOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  const fLt = fee[0x10]!
  t[0x10] = (f) => {
    const i = two(f, fLt)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! < s[i]! ? 1n : 0n
  }
  const fGt = fee[0x11]!
  t[0x11] = (f) => {
    const i = two(f, fGt)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! > s[i]! ? 1n : 0n
  }
  const fSlt = fee[0x12]!
  t[0x12] = (f) => {
    const i = two(f, fSlt)
    if (i < 0) return
    const s = f.stack
    s[i] = signed(s[i + 1]!) < signed(s[i]!) ? 1n : 0n
  }
  const fSgt = fee[0x13]!
  t[0x13] = (f) => {
    const i = two(f, fSgt)
    if (i < 0) return
    const s = f.stack
    s[i] = signed(s[i + 1]!) > signed(s[i]!) ? 1n : 0n
  }
  const fEq = fee[0x14]!
  t[0x14] = (f) => {
    const i = two(f, fEq)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! === s[i]! ? 1n : 0n
  }
  const fIszero = fee[0x15]!
  t[0x15] = (f) => {
    const i = one(f, fIszero)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i]! === 0n ? 1n : 0n
  }
  const fAnd = fee[0x16]!
  t[0x16] = (f) => {
    const i = two(f, fAnd)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! & s[i]!
  }
  const fOr = fee[0x17]!
  t[0x17] = (f) => {
    const i = two(f, fOr)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! | s[i]!
  }
  const fXor = fee[0x18]!
  t[0x18] = (f) => {
    const i = two(f, fXor)
    if (i < 0) return
    const s = f.stack
    s[i] = s[i + 1]! ^ s[i]!
  }
  const fNot = fee[0x19]!
  t[0x19] = (f) => {
    const i = one(f, fNot)
    if (i < 0) return
    const s = f.stack
    s[i] = MASK_256 ^ s[i]!
  }
  const fByte = fee[0x1a]!
  t[0x1a] = (f) => {
    const i = two(f, fByte)
    if (i < 0) return
    const s = f.stack
    const pos = s[i + 1]!
    s[i] = pos >= 32n ? 0n : (s[i]! >> ((31n - pos) * 8n)) & 0xffn
  }
  const fShl = fee[0x1b]!
  t[0x1b] = (f) => {
    const i = two(f, fShl)
    if (i < 0) return
    const s = f.stack
    const a = s[i + 1]!
    s[i] = a >= 256n ? 0n : (s[i]! << a) & MASK_256
  }
  const fShr = fee[0x1c]!
  t[0x1c] = (f) => {
    const i = two(f, fShr)
    if (i < 0) return
    const s = f.stack
    const a = s[i + 1]!
    s[i] = a >= 256n ? 0n : s[i]! >> a
  }
  const fSar = fee[0x1d]!
  t[0x1d] = (f) => {
    const i = two(f, fSar)
    if (i < 0) return
    const s = f.stack
    const a = s[i + 1]!
    const v = signed(s[i]!)
    s[i] = a >= 256n ? (v < 0n ? MASK_256 : 0n) : BigInt.asUintN(256, v >> a)
  }
}

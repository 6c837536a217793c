import { unprefixedHexToBytes } from '@ethereumjs/util'
import type { EvmGas } from '../gasParams.js'
import { type Frame, type Op, fail, needs, slotHex, wait } from '../frame.js'
import { oog, underflow } from './arith.js'
import { words } from './env.js'

// Storage (SLOAD, SSTORE: EIP-2200 with EIP-2929's prices and EIP-3529's refunds), transient
// storage (EIP-1153) and LOG0..LOG4, as ethereumjs's gas.js, EIP2200.js and EIP2929.js price them.

/** A 256-bit word as 32 bytes. */
export function word32(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  const dv = new DataView(out.buffer)
  dv.setBigUint64(0, v >> 192n)
  dv.setBigUint64(8, BigInt.asUintN(64, v >> 128n))
  dv.setBigUint64(16, BigInt.asUintN(64, v >> 64n))
  dv.setBigUint64(24, BigInt.asUintN(64, v))
  return out
}

/** EIP-2200's gas of an SSTORE of `value` over `current` (slot first written as `original`), its refunds added. */
function sstoreGas(f: Frame, g: EvmGas, warm: boolean, original: bigint, current: bigint, value: bigint): number {
  const ctx = f.ctx
  if (current === value) return warm ? g.warmRead : g.sstoreNoop
  if (original === current) {
    if (original === 0n) return g.sstoreInit
    if (value === 0n) ctx.refund += g.sstoreClearRefund
    return g.sstoreClean
  }
  if (original !== 0n) {
    if (current === 0n) {
      ctx.refund -= g.sstoreClearRefund
      if (ctx.refund < 0) {
        ctx.refund = 0
        return -1
      }
    } else if (value === 0n) ctx.refund += g.sstoreClearRefund
  }
  if (original === value) {
    if (original === 0n) ctx.refund += warm ? g.sstoreInit - g.warmRead : g.sstoreInitRefund
    else ctx.refund += warm ? g.sstoreReset - g.coldSload - g.warmRead : g.sstoreCleanRefund
  }
  return g.sstoreDirty
}

export function storageOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  const fSload = fee[0x54]!
  t[0x54] = (f) => {
    if (f.sp < 1) return underflow(f)
    const slot = slotHex(f.stack[f.sp - 1]!)
    const j = f.ctx.j
    const p = j.needSlot(f.address, slot)
    if (p !== undefined) return wait(f, p)
    const gas = fSload + (j.touchSlot(f.address, slot) ? g.coldSload : g.warmRead)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.stack[f.sp - 1] = j.storage(f.address, slot)
  }
  const fSstore = fee[0x55]!
  t[0x55] = (f) => {
    if (f.isStatic) return fail(f, 'static state change')
    if (f.sp < 2) return underflow(f)
    const s = f.stack
    const slot = slotHex(s[f.sp - 1]!)
    const value = s[f.sp - 2]!
    const j = f.ctx.j
    const p = j.needSlot(f.address, slot)
    if (p !== undefined) return wait(f, p)
    const current = j.storage(f.address, slot)
    const original = j.originalStorage(f.address, slot)
    if (f.gas <= g.sstoreSentry) return oog(f)
    if (f.ctx.ledger !== undefined) needs(f, f.budget - f.gas + g.sstoreSentry + 1, false)
    const cost = sstoreGas(f, g, j.isWarmSlot(f.address, slot), original, current, value)
    if (cost < 0) return fail(f, 'refund exhausted')
    const gas = fSstore + cost + (j.touchSlot(f.address, slot) ? g.coldSload : 0)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.sp -= 2
    j.putStorage(f.address, slot, value)
  }
  const fTload = fee[0x5c]!
  t[0x5c] = (f) => {
    if (f.gas < fTload) return oog(f)
    if (f.sp < 1) return underflow(f)
    f.gas -= fTload
    f.pc++
    f.stack[f.sp - 1] = f.ctx.j.tload(f.address, slotHex(f.stack[f.sp - 1]!))
  }
  const fTstore = fee[0x5d]!
  t[0x5d] = (f) => {
    if (f.gas < fTstore) return oog(f)
    f.gas -= fTstore
    if (f.isStatic) return fail(f, 'static state change')
    if (f.sp < 2) return underflow(f)
    f.pc++
    f.sp -= 2
    f.ctx.j.tstore(f.address, slotHex(f.stack[f.sp + 1]!), f.stack[f.sp]!)
  }
  for (let n = 0; n <= 4; n++) t[0xa0 + n] = logOp(g, n)
}

function logOp(g: EvmGas, topics: number): Op {
  const base = g.fee[0xa0 + topics]! + g.logTopic * topics
  return (f) => {
    if (f.isStatic) return fail(f, 'static state change')
    if (f.sp < 2) return underflow(f)
    const s = f.stack
    const offset = s[f.sp - 1]!
    const len = s[f.sp - 2]!
    const gas = base + f.mem.expand(offset, len) + (words(len) === Number.POSITIVE_INFINITY ? words(len) : Number(len) * g.logData)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    if (f.sp < 2 + topics) return underflow(f)
    f.pc++
    f.sp -= 2
    const t: Uint8Array[] = []
    for (let i = 0; i < topics; i++) t.push(word32(s[--f.sp]!))
    const data = len === 0n ? new Uint8Array(0) : f.mem.read(Number(offset), Number(len))
    f.ctx.logs.push({ address: unprefixedHexToBytes(f.address), topics: t, data })
  }
}

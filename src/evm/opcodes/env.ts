import { bytesToBigInt } from '@ethereumjs/util'
import { isEmptyAcc } from '../account.js'
import type { EvmGas } from '../gasParams.js'
import type { Journal } from '../journal.js'
import { type Frame, type Op, addressHex, fail, wait } from '../frame.js'
import { oog, underflow } from './arith.js'

// Environment and block opcodes (0x30..0x4a). The account ones (BALANCE, EXTCODE*) read the stack
// before their gas (ethereumjs's dynamic gas handlers); each loads what it reads before it changes
// anything, so that running it again after the load is the same as running it once.

const EOF_MAGIC_HASH = 0x9dbf3648db8210552e9c4f75c6a1c3057c0ca432043bd648be15fe7be05646f5n

/** Pushes `v` for an opcode of static fee `fee` (gas first, then the stack's room). */
export function push(f: Frame, fee: number, v: bigint): void {
  if (f.gas < fee) {
    oog(f)
    return
  }
  if (f.sp >= 1024) {
    fail(f, 'stack overflow')
    return
  }
  f.gas -= fee
  f.stack[f.sp++] = v
  f.pc++
}

/** EIP-2929 access cost of an account, warming it (ethereumjs EIP2929.js accessAddressEIP2929). */
export function accessCost(f: Frame, g: EvmGas, addr: string): number {
  return f.ctx.j.touchAddress(addr) ? g.coldAccount : g.warmRead
}

/** ethereumjs's isEOF: code beginning 0xEF00, which EXTCODE* report as that 2-byte code. */
export function isEof(code: Uint8Array): boolean {
  return code.length >= 2 && code[0] === 0xef && code[1] === 0x00
}

/** Words of `len` bytes as a gas multiplier; Infinity when it cannot be paid anyway. */
export function words(len: bigint): number {
  return len > 0xffffffffn ? Number.POSITIVE_INFINITY : Math.ceil(Number(len) / 32)
}

export function envOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  t[0x30] = (f) => push(f, fee[0x30]!, f.addressBig)
  t[0x32] = (f) => push(f, fee[0x32]!, f.ctx.origin)
  t[0x33] = (f) => push(f, fee[0x33]!, f.callerBig)
  t[0x34] = (f) => push(f, fee[0x34]!, f.value)
  t[0x36] = (f) => push(f, fee[0x36]!, BigInt(f.data.length))
  t[0x38] = (f) => push(f, fee[0x38]!, BigInt(f.code.length))
  t[0x3a] = (f) => push(f, fee[0x3a]!, f.ctx.gasPrice)
  t[0x3d] = (f) => push(f, fee[0x3d]!, BigInt(f.returnData.length))
  t[0x41] = (f) => push(f, fee[0x41]!, f.ctx.coinbase)
  t[0x42] = (f) => push(f, fee[0x42]!, f.ctx.block.timestamp)
  t[0x43] = (f) => push(f, fee[0x43]!, f.ctx.block.number)
  t[0x44] = (f) => push(f, fee[0x44]!, f.ctx.prevRandao)
  t[0x45] = (f) => push(f, fee[0x45]!, f.ctx.block.gasLimit)
  t[0x46] = (f) => push(f, fee[0x46]!, f.ctx.chainId)
  t[0x47] = (f) => push(f, fee[0x47]!, f.ctx.j.account(f.address)?.balance ?? 0n)
  t[0x48] = (f) => push(f, fee[0x48]!, f.ctx.block.baseFee)
  t[0x4a] = (f) => push(f, fee[0x4a]!, f.ctx.block.blobBaseFee)
  const fLoad = fee[0x35]!
  t[0x35] = (f) => {
    if (f.gas < fLoad) return oog(f)
    if (f.sp < 1) return underflow(f)
    f.gas -= fLoad
    f.pc++
    const s = f.stack
    const pos = s[f.sp - 1]!
    const data = f.data
    if (pos >= BigInt(data.length)) {
      s[f.sp - 1] = 0n
      return
    }
    const p = Number(pos)
    let v = 0n
    for (let k = 0; k < 32; k++) v = (v << 8n) | BigInt(data[p + k] ?? 0)
    s[f.sp - 1] = v
  }
  const fBlobhash = fee[0x49]!
  t[0x49] = (f) => {
    if (f.gas < fBlobhash) return oog(f)
    if (f.sp < 1) return underflow(f)
    f.gas -= fBlobhash
    f.pc++
    const hashes = f.ctx.blobHashes
    const index = f.stack[f.sp - 1]!
    f.stack[f.sp - 1] = index < BigInt(hashes.length) ? hashes[Number(index)]! : 0n
  }
  const fBlockhash = fee[0x40]!
  t[0x40] = (f) => {
    if (f.gas < fBlockhash) return oog(f)
    if (f.sp < 1) return underflow(f)
    const n = f.stack[f.sp - 1]!
    const diff = f.ctx.block.number - n
    let v = 0n
    if (diff <= 256n && diff > 0n) {
      const cached = f.ctx.blockHashes.get(n)
      if (cached === undefined) {
        const hashes = f.ctx.blockHashes
        return wait(
          f,
          f.ctx.host.blockHash(n).then((h) => hashes.set(n, bytesToBigInt(h))),
        )
      }
      v = cached
    }
    f.gas -= fBlockhash
    f.pc++
    f.stack[f.sp - 1] = v
  }
  accountOps(t, g)
}

/**
 * BALANCE, EXTCODESIZE, EXTCODEHASH: what `need` loads (the account, or its code too) loaded, the
 * access paid, `read` of it replaces the address.
 */
function accessOp(g: EvmGas, fee: number, need: (j: Journal, addr: string) => Promise<unknown> | undefined, read: (j: Journal, addr: string) => bigint): Op {
  return (f) => {
    if (f.sp < 1) return underflow(f)
    const addr = addressHex(f.stack[f.sp - 1]!)
    const j = f.ctx.j
    const p = need(j, addr)
    if (p !== undefined) return wait(f, p)
    const gas = fee + accessCost(f, g, addr)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.stack[f.sp - 1] = read(j, addr)
  }
}

const needAccount = (j: Journal, addr: string) => j.needAccount(addr)
const needCode = (j: Journal, addr: string) => j.needCode(addr)

function accountOps(t: Op[], g: EvmGas): void {
  const fee = g.fee
  t[0x31] = accessOp(g, fee[0x31]!, needAccount, (j, addr) => j.account(addr)?.balance ?? 0n)
  t[0x3b] = accessOp(g, fee[0x3b]!, needCode, (j, addr) => {
    const code = j.code(addr)
    return isEof(code) ? 2n : BigInt(code.length)
  })
  t[0x3f] = accessOp(g, fee[0x3f]!, needCode, (j, addr) => {
    const a = j.account(addr)
    if (isEof(j.code(addr))) return EOF_MAGIC_HASH
    return a !== undefined && !isEmptyAcc(a) ? BigInt(`0x${a.codeHex}`) : 0n
  })
  const fExtcopy = fee[0x3c]!
  t[0x3c] = (f) => {
    if (f.sp < 4) return underflow(f)
    const s = f.stack
    const top = f.sp - 1
    const addr = addressHex(s[top]!)
    const j = f.ctx.j
    const p = j.needCode(addr)
    if (p !== undefined) return wait(f, p)
    const memOffset = s[top - 1]!
    const codeOffset = s[top - 2]!
    const len = s[top - 3]!
    let gas = fExtcopy + f.mem.expand(memOffset, len) + accessCost(f, g, addr)
    if (len !== 0n) gas += g.copy * words(len)
    if (f.gas < gas) return oog(f)
    f.gas -= gas
    f.pc++
    f.sp -= 4
    if (len === 0n) return
    let code = j.code(addr)
    if (isEof(code)) code = EOF_BYTES
    f.mem.copyFrom(Number(memOffset), code, codeOffset, Number(len))
  }
}

const EOF_BYTES = new Uint8Array([0xef, 0x00])

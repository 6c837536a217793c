import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../util/crypto.js'
import { EMPTY_CODE_HEX, EMPTY_ROOT_HEX, NEW_ACC, withBalance } from './account.js'
import { MAX_UINT256 } from './call.js'
import { analyze } from './codeAnalysis.js'
import { ERR, EvmInsufficientBalance } from './errors.js'
import { type Ctx, EMPTY_BYTES, type Msg, type MsgResult } from './frame.js'
import { runCode } from './interpreter.js'
import { createdAddress } from './opcodes/system.js'
import { bytesToUnprefixedHex } from '@ethereumjs/util'

/**
 * A creation (ethereumjs evm.js _executeCreate, Cancun's part): the sender pays, the address is
 * derived, a collision fails with all gas, the account is made (nonce 1, storage cleared), the
 * initcode runs, then the code deposit: 200 gas a byte, at most 24 576 bytes, not 0xEF-prefixed
 * (EIP-3541; ethereumjs tests the first byte of a REVERT's data too, which this mirrors).
 */
export async function executeCreate(ctx: Ctx, msg: Msg): Promise<MsgResult> {
  const j = ctx.j
  const g = ctx.gas
  await j.needAccount(msg.caller)
  const from = j.account(msg.caller) ?? NEW_ACC
  const left = from.balance - msg.value
  if (left < 0n) throw new EvmInsufficientBalance()
  j.putAccount(msg.caller, withBalance(from, left))
  if (msg.data.length > g.maxInitCodeSize) return { error: ERR.INITCODE_SIZE_VIOLATION, returnData: EMPTY_BYTES, gasUsed: msg.gas }
  const code = msg.data
  const addr = bytesToUnprefixedHex(createdAddress(msg.caller, j.account(msg.caller)!.nonce - 1n, msg.salt, code))
  j.markCreated(addr)
  await j.needAccount(addr)
  const existing = j.account(addr) ?? NEW_ACC
  if (existing.nonce > 0n || existing.codeHex !== EMPTY_CODE_HEX || bytesToUnprefixedHex(existing.storageRoot) !== EMPTY_ROOT_HEX) {
    return { error: ERR.CREATE_COLLISION, returnData: EMPTY_BYTES, gasUsed: msg.gas, createdAddress: addr }
  }
  j.putAccount(addr, existing)
  j.clearStorage(addr)
  // OverlayState.clearStorage also writes the account with an empty storage root.
  j.putAccount(addr, { ...existing, storageRoot: KECCAK256_RLP })
  const created = { ...j.account(addr)!, nonce: j.account(addr)!.nonce + 1n }
  let error: string | undefined
  const balance = created.balance + msg.value
  if (balance > MAX_UINT256) error = ERR.VALUE_OVERFLOW
  else j.putAccount(addr, withBalance(created, balance))
  if (code.length === 0 || error !== undefined) return { error, returnData: EMPTY_BYTES, gasUsed: 0, createdAddress: addr, need: 0 }
  let res = await runCode(ctx, analyze(code), msg, addr)
  const out = res.returnData
  let total = res.gasUsed
  if (res.error === undefined) total += out.length * g.createData
  const sizeOk = res.error !== undefined || out.length <= g.maxCodeSize
  if (total <= msg.gas && sizeOk) {
    if (out[0] === 0xef) res = { error: ERR.INVALID_BYTECODE_RESULT, returnData: EMPTY_BYTES, gasUsed: msg.gas }
    else {
      // The code deposit's check: the creation needs what it used and the deposit.
      const need = res.need === undefined ? undefined : Math.max(res.need, total)
      if (ctx.ledger !== undefined && msg.depth === 0 && need! > res.need!) ctx.ledger.marks.push({ at: need!, child: false })
      res = { ...res, gasUsed: total, need }
    }
  } else {
    res = { error: sizeOk ? ERR.OUT_OF_GAS : ERR.CODESIZE_EXCEEDS_MAXIMUM, returnData: EMPTY_BYTES, gasUsed: msg.gas }
  }
  if (res.error === undefined && out.length !== 0) j.putCode(addr, out, keccak256(out))
  return { ...res, createdAddress: addr }
}

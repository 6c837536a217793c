import { bytesToHex } from '@ethereumjs/util'
import { decodeRevertReason } from '../exec/executor.js'
import { TxFailedInBlockError } from '../base/errors.js'

/** How a mined transaction failed: the EVM's error name (ethereumjs) and the return data. */
export interface TxFailure {
  error: string
  returnData: Uint8Array
}

const VM_EXCEPTION = 'Error: VM Exception while processing transaction: '

// The descriptions hardhat node gives (hardhat-chai-matchers panic.ts lists the same).
const PANIC_DESCRIPTIONS: Record<number, string> = {
  0x00: 'Generic compiler panic',
  0x01: 'Assertion error',
  0x11: 'Arithmetic operation overflowed outside of an unchecked block',
  0x12: 'Division or modulo division by zero',
  0x21: 'Tried to convert a value into an enum, but the value was too big or negative',
  0x22: 'Incorrectly encoded storage byte array',
  0x31: '.pop() was called on an empty array',
  0x32: 'Array accessed at an out-of-bounds or negative index',
  0x41: 'Too much memory was allocated, or an array was created that is too large',
  0x51: 'Called a zero-initialized variable of internal function type',
}

/**
 * The error hardhat node answers a send with when its transaction fails in the automined block
 * (the transaction stays mined): its texts, and its data { message, txHash, data } from which
 * Hardhat's chai matchers (revertedWith, revertedWithCustomError, revertedWithoutReason) read the
 * return data.
 */
export function hardhatFailure(txHash: string, f: TxFailure): TxFailedInBlockError {
  return new TxFailedInBlockError(failureMessage(f), txHash, f.returnData, f.error === 'out of gas')
}

function failureMessage({ error, returnData }: TxFailure): string {
  if (error === 'out of gas') return 'Transaction ran out of gas'
  if (error !== 'revert') return VM_EXCEPTION + error
  if (returnData.length === 0) return 'Error: Transaction reverted without a reason string'
  const selector = bytesToHex(returnData.subarray(0, 4))
  if (selector === '0x4e487b71' && returnData.length === 36) {
    const code = BigInt(bytesToHex(returnData.subarray(4)))
    return `${VM_EXCEPTION}reverted with panic code 0x${code.toString(16)} (${PANIC_DESCRIPTIONS[Number(code)] ?? 'Unknown panic code'})`
  }
  const reason = selector === '0x08c379a0' ? decodeRevertReason(returnData) : undefined
  if (reason !== undefined) return `${VM_EXCEPTION}reverted with reason string '${reason}'`
  return `${VM_EXCEPTION}reverted with an unrecognized custom error (return data: ${bytesToHex(returnData)})`
}

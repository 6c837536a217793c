/*
 * A contract without Solidity for storage-heavy tests: its runtime stores each 64-byte
 * (key, value) pair of the calldata, `SSTORE(calldata[i:i+32], calldata[i+32:i+64])`.
 *
 *   00 PUSH1 0      02 JUMPDEST     03 CALLDATASIZE  04 DUP2   05 LT     06 ISZERO
 *   07 PUSH1 0x18   09 JUMPI        0a DUP1          0b PUSH1 32  0d ADD  0e CALLDATALOAD
 *   0f DUP2         10 CALLDATALOAD 11 SSTORE        12 PUSH1 64  14 ADD  15 PUSH1 2  17 JUMP
 *   18 JUMPDEST     19 STOP
 * The init code copies those 26 bytes from offset 12 and returns them.
 */
const RUNTIME = '60005b3681101560185780602001358135556040016002565b00'
export const SLOT_WRITER_RUNTIME = '0x' + RUNTIME
export const SLOT_WRITER_INIT = '0x601a600c600039601a6000f3' + RUNTIME

/** Calldata that sets each slot to its value. */
export function slotWrites(pairs: Iterable<[bigint, bigint]>): string {
  let data = '0x'
  for (const [k, v] of pairs) data += k.toString(16).padStart(64, '0') + v.toString(16).padStart(64, '0')
  return data
}

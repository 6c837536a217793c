/*
 * Opcode names and stack arities as geth prints them (core/vm/opcodes.go OpCode.String, the
 * jump tables' minStack/maxStack), for struct logs and geth's VM error texts.
 */

const NAMED: [number, string][] = [
  [0x00, 'STOP'],
  [0x01, 'ADD'],
  [0x02, 'MUL'],
  [0x03, 'SUB'],
  [0x04, 'DIV'],
  [0x05, 'SDIV'],
  [0x06, 'MOD'],
  [0x07, 'SMOD'],
  [0x08, 'ADDMOD'],
  [0x09, 'MULMOD'],
  [0x0a, 'EXP'],
  [0x0b, 'SIGNEXTEND'],
  [0x10, 'LT'],
  [0x11, 'GT'],
  [0x12, 'SLT'],
  [0x13, 'SGT'],
  [0x14, 'EQ'],
  [0x15, 'ISZERO'],
  [0x16, 'AND'],
  [0x17, 'OR'],
  [0x18, 'XOR'],
  [0x19, 'NOT'],
  [0x1a, 'BYTE'],
  [0x1b, 'SHL'],
  [0x1c, 'SHR'],
  [0x1d, 'SAR'],
  [0x1e, 'CLZ'],
  [0x20, 'KECCAK256'],
  [0x30, 'ADDRESS'],
  [0x31, 'BALANCE'],
  [0x32, 'ORIGIN'],
  [0x33, 'CALLER'],
  [0x34, 'CALLVALUE'],
  [0x35, 'CALLDATALOAD'],
  [0x36, 'CALLDATASIZE'],
  [0x37, 'CALLDATACOPY'],
  [0x38, 'CODESIZE'],
  [0x39, 'CODECOPY'],
  [0x3a, 'GASPRICE'],
  [0x3b, 'EXTCODESIZE'],
  [0x3c, 'EXTCODECOPY'],
  [0x3d, 'RETURNDATASIZE'],
  [0x3e, 'RETURNDATACOPY'],
  [0x3f, 'EXTCODEHASH'],
  [0x40, 'BLOCKHASH'],
  [0x41, 'COINBASE'],
  [0x42, 'TIMESTAMP'],
  [0x43, 'NUMBER'],
  [0x44, 'DIFFICULTY'],
  [0x45, 'GASLIMIT'],
  [0x46, 'CHAINID'],
  [0x47, 'SELFBALANCE'],
  [0x48, 'BASEFEE'],
  [0x49, 'BLOBHASH'],
  [0x4a, 'BLOBBASEFEE'],
  [0x50, 'POP'],
  [0x51, 'MLOAD'],
  [0x52, 'MSTORE'],
  [0x53, 'MSTORE8'],
  [0x54, 'SLOAD'],
  [0x55, 'SSTORE'],
  [0x56, 'JUMP'],
  [0x57, 'JUMPI'],
  [0x58, 'PC'],
  [0x59, 'MSIZE'],
  [0x5a, 'GAS'],
  [0x5b, 'JUMPDEST'],
  [0x5c, 'TLOAD'],
  [0x5d, 'TSTORE'],
  [0x5e, 'MCOPY'],
  [0x5f, 'PUSH0'],
  [0xf0, 'CREATE'],
  [0xf1, 'CALL'],
  [0xf2, 'CALLCODE'],
  [0xf3, 'RETURN'],
  [0xf4, 'DELEGATECALL'],
  [0xf5, 'CREATE2'],
  [0xfa, 'STATICCALL'],
  [0xfd, 'REVERT'],
  [0xfe, 'INVALID'],
  [0xff, 'SELFDESTRUCT'],
  // Named by geth though not active on the C-Chain (EOF, later forks): executing one is an invalid opcode.
  [0x4b, 'SLOTNUM'],
  [0xd0, 'DATALOAD'],
  [0xd1, 'DATALOADN'],
  [0xd2, 'DATASIZE'],
  [0xd3, 'DATACOPY'],
  [0xe0, 'RJUMP'],
  [0xe1, 'RJUMPI'],
  [0xe2, 'RJUMPV'],
  [0xe3, 'CALLF'],
  [0xe4, 'RETF'],
  [0xe5, 'JUMPF'],
  [0xe6, 'DUPN'],
  [0xe7, 'SWAPN'],
  [0xe8, 'EXCHANGE'],
  [0xec, 'EOFCREATE'],
  [0xee, 'RETURNCONTRACT'],
  [0xf7, 'RETURNDATALOAD'],
  [0xf8, 'EXTCALL'],
  [0xf9, 'EXTDELEGATECALL'],
  [0xfb, 'EXTSTATICCALL'],
]

const NAMES: string[] = new Array<string>(256).fill('')
for (const [code, name] of NAMED) NAMES[code] = name
for (let i = 1; i <= 32; i++) NAMES[0x5f + i] = `PUSH${i}`
for (let i = 1; i <= 16; i++) {
  NAMES[0x7f + i] = `DUP${i}`
  NAMES[0x8f + i] = `SWAP${i}`
}
for (let i = 0; i <= 4; i++) NAMES[0xa0 + i] = `LOG${i}`

/** geth's OpCode.String(): the name, or `opcode 0x.. not defined`. */
export function opName(op: number): string {
  return NAMES[op] || `opcode 0x${op.toString(16)} not defined`
}

/** [pops, pushes] of the opcodes whose arity is not 2 -> 1. */
const ARITY: Record<string, [number, number]> = {
  STOP: [0, 0],
  ADDMOD: [3, 1],
  MULMOD: [3, 1],
  ISZERO: [1, 1],
  NOT: [1, 1],
  CLZ: [1, 1],
  BALANCE: [1, 1],
  CALLDATALOAD: [1, 1],
  CALLDATACOPY: [3, 0],
  CODECOPY: [3, 0],
  EXTCODESIZE: [1, 1],
  EXTCODECOPY: [4, 0],
  RETURNDATACOPY: [3, 0],
  EXTCODEHASH: [1, 1],
  BLOCKHASH: [1, 1],
  BLOBHASH: [1, 1],
  POP: [1, 0],
  MLOAD: [1, 1],
  MSTORE: [2, 0],
  MSTORE8: [2, 0],
  SLOAD: [1, 1],
  SSTORE: [2, 0],
  JUMP: [1, 0],
  JUMPI: [2, 0],
  JUMPDEST: [0, 0],
  TLOAD: [1, 1],
  TSTORE: [2, 0],
  MCOPY: [3, 0],
  CREATE: [3, 1],
  CALL: [7, 1],
  RETURN: [2, 0],
  CALLCODE: [7, 1],
  DELEGATECALL: [6, 1],
  CREATE2: [4, 1],
  STATICCALL: [6, 1],
  REVERT: [2, 0],
  INVALID: [0, 0],
  SELFDESTRUCT: [1, 0],
}
const ZERO_IN = new Set([
  'ADDRESS',
  'ORIGIN',
  'CALLER',
  'CALLVALUE',
  'CALLDATASIZE',
  'CODESIZE',
  'GASPRICE',
  'RETURNDATASIZE',
  'COINBASE',
  'TIMESTAMP',
  'NUMBER',
  'DIFFICULTY',
  'GASLIMIT',
  'CHAINID',
  'SELFBALANCE',
  'BASEFEE',
  'BLOBBASEFEE',
  'PC',
  'MSIZE',
  'GAS',
])

function arity(op: number): [number, number] {
  const name = NAMES[op]!
  if (name === '') return [0, 0]
  if (op >= 0x5f && op <= 0x7f) return [0, 1]
  if (op >= 0x80 && op <= 0x8f) return [op - 0x7f, op - 0x7e]
  if (op >= 0x90 && op <= 0x9f) return [op - 0x8e, op - 0x8e]
  if (op >= 0xa0 && op <= 0xa4) return [op - 0x9e, 0]
  if (ZERO_IN.has(name)) return [0, 1]
  return ARITY[name] ?? [2, 1]
}

/** geth's ErrStackUnderflow text for an opcode run with `stackLen` items. */
export function stackUnderflow(op: number, stackLen: number): string {
  return `stack underflow (${stackLen} <=> ${arity(op)[0]})`
}

/** geth's ErrStackOverflow text (limit = 1024 + pops - pushes). */
export function stackOverflow(op: number, stackLen: number): string {
  const [pops, pushes] = arity(op)
  return `stack limit reached ${stackLen} (${1024 + pops - pushes})`
}

export const OP = {
  SLOAD: 0x54,
  SSTORE: 0x55,
  RETURNDATACOPY: 0x3e,
  BALANCE: 0x31,
  EXTCODESIZE: 0x3b,
  EXTCODECOPY: 0x3c,
  EXTCODEHASH: 0x3f,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  SELFDESTRUCT: 0xff,
  LOG0: 0xa0,
  LOG4: 0xa4,
} as const

/** CALL, CALLCODE, DELEGATECALL, STATICCALL. */
export function isCallOp(op: number): boolean {
  return op === OP.CALL || op === OP.CALLCODE || op === OP.DELEGATECALL || op === OP.STATICCALL
}

/**
 * The names of ethereumjs's EVMError (node_modules/@ethereumjs/evm/dist/esm/errors.js), which
 * EvmResult.error reports for a failed top-level message.
 */
export const ERR = {
  OUT_OF_GAS: 'out of gas',
  CODESTORE_OUT_OF_GAS: 'code store out of gas',
  CODESIZE_EXCEEDS_MAXIMUM: 'code size to deposit exceeds maximum code size',
  STACK_UNDERFLOW: 'stack underflow',
  STACK_OVERFLOW: 'stack overflow',
  INVALID_JUMP: 'invalid JUMP',
  INVALID_OPCODE: 'invalid opcode',
  OUT_OF_RANGE: 'value out of range',
  REVERT: 'revert',
  STATIC_STATE_CHANGE: 'static state change',
  CREATE_COLLISION: 'create collision',
  REFUND_EXHAUSTED: 'refund exhausted',
  VALUE_OVERFLOW: 'value overflow',
  INSUFFICIENT_BALANCE: 'insufficient balance',
  INVALID_BYTECODE_RESULT: 'invalid bytecode deployed',
  INITCODE_SIZE_VIOLATION: 'initcode exceeds max initcode size',
} as const

/**
 * What a top-level creation throws when its sender cannot pay the value: ethereumjs's _executeCreate
 * does not catch _reduceSenderBalance's error (evm.js), so runCall rejects with it.
 */
export class EvmInsufficientBalance extends Error {
  readonly error = ERR.INSUFFICIENT_BALANCE
  constructor() {
    super(ERR.INSUFFICIENT_BALANCE)
  }
}

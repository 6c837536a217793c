import type { EvmFault } from '../../evm/types.js'
import { opName, stackOverflow, stackUnderflow } from '../../evm/gethOpcodes.js'

/** A failed frame's exceptionError: ethereumjs's EVMError, or the interpreter's, with where it halted when known. */
export interface Halt {
  error: string
  fault?: EvmFault
}

/** An execResult's exceptionError as a Halt (RunTxResult types it as EVMError, which names no fault). */
export function haltOf(exceptionError: unknown): Halt | undefined {
  return exceptionError as Halt | undefined
}

/** ethereumjs's EVMError names (the interpreter's too) -> geth's core/vm/errors.go texts that need no more than the name. */
const TEXTS: Record<string, string> = {
  'out of gas': 'out of gas',
  'invalid JUMP': 'invalid jump destination',
  'static state change': 'write protection',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'create collision': 'contract address collision',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'value overflow': 'gas uint64 overflow',
  'insufficient balance': 'insufficient balance for transfer',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  revert: 'execution reverted',
  // The point-evaluation precompile (geth's core/vm/contracts.go kzgPointEvaluation, go-kzg-4844's errors).
  'kzg commitment does not match versioned hash': 'mismatched versioned hash',
  'kzg proof invalid': "error verifying kzg proof: can't verify opening proof",
  'kzg inputs invalid': 'error verifying kzg proof',
}

/**
 * geth's text for an exceptional halt: ErrStackUnderflow's `stack underflow (0 <=> 2)`,
 * ErrStackOverflow's `stack limit reached 1024 (1023)`, ErrInvalidOpCode's `invalid opcode: INVALID`
 * or `invalid opcode: opcode 0xc not defined`, ErrReturnDataOutOfBounds (ethereumjs's out of gas), from
 * where the frame halted; the others by name (ethereumjs names a bad jump with its place: the prefix).
 */
export function gethVmError(name: string, fault: EvmFault | undefined): string {
  if (fault !== undefined) {
    if (name === 'stack underflow') return stackUnderflow(fault.op, fault.stackLen)
    if (name === 'stack overflow') return stackOverflow(fault.op, fault.stackLen)
    if (name === 'invalid opcode') return `invalid opcode: ${opName(fault.op)}`
    if (name === 'out of gas' && fault.returnDataOutOfBounds) return 'return data out of bounds'
  }
  if (name.startsWith('invalid JUMP')) return TEXTS['invalid JUMP']!
  return TEXTS[name] ?? name
}

/**
 * ethereumjs's name for a message's halt, but for the one both EVMs name otherwise than geth: a
 * creation out of gas where no frame halted ran its code and could not pay to store what it returned
 * (geth's ErrCodeStoreOutOfGas; ethereumjs's OOGResult since Homestead, and the interpreter, say out of gas).
 */
export function haltName(err: Halt | undefined, creation: boolean): string | undefined {
  if (err === undefined) return undefined
  return creation && err.error === 'out of gas' && err.fault === undefined ? 'code store out of gas' : err.error
}

/** Domain errors of the atomic layer; the primitives' errors (codec, format, verify) are in src/avalanche/errors.ts. */
import { AvalancheError } from '../avalanche/errors.js'

/** An atomic tx or mempool failure (coreth: plugin/evm/atomic). */
export class AtomicError extends AvalancheError {
  override name = 'AtomicError'
}

/** txpool ErrAlreadyKnown: the mempool holds the tx already (`issueTx` counts it as success). */
export class AlreadyKnownError extends AtomicError {
  override name = 'AlreadyKnownError'
}

/** For `issueTx(...).catch(alreadyKnownAs(id))`: txpool.ErrAlreadyKnown is success, answered with the tx's ID. */
export function alreadyKnownAs<T>(value: T): (err: unknown) => T {
  return (err) => {
    if (err instanceof AlreadyKnownError) return value
    throw err
  }
}

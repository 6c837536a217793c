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

import { EngineError } from '../engine/base/errors.js'

/** A development method refused (-32000 with the message, as anvil answers). */
export class DevError extends EngineError {
  override name = 'DevError'
}

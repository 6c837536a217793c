import { EngineError } from '../base/errors.js'

/**
 * geth accounts/keystore errors (and accounts.ErrUnknownAccount), code -32000. A file of its own
 * because both the key-file format and the account manager throw it.
 */
export class AccountError extends EngineError {
  override name = 'AccountError'
}

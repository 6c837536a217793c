import { goQuote } from '../util/goQuote.js'
/**
 * Domain errors of the keystore. Messages copy avalanchego's api/keystore and utils/password wording
 * (avalanchego v1.12.1); src/rpc/errors.ts maps them to codes (-32000, -32005 when throttled).
 */
export class KeystoreError extends Error {
  override name = 'KeystoreError'
}

/** Wrong password or unknown user (the one message for both, docs/SECURITY.md, K5). */
export class IncorrectPasswordError extends KeystoreError {
  override name = 'IncorrectPasswordError'
  constructor(username: string) {
    super(`incorrect password: user ${goQuote(shown(username))}`)
  }
}

/** Refused without trying the password: too many recent failures for the user or the client (docs/SECURITY.md, K5). */
export class TooManyAttemptsError extends KeystoreError {
  override name = 'TooManyAttemptsError'
  constructor(readonly retryAfterMs: number) {
    super(`too many failed attempts, try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`)
  }
}

/** More KDF work queued than the keystore accepts at once (protects the libuv thread pool). */
export class KeystoreBusyError extends KeystoreError {
  override name = 'KeystoreBusyError'
  constructor() {
    super('keystore busy, try again later')
  }
}

/** Characters of a caller-chosen username echoed in an error; the rest is cut with `...`. */
export const MAX_ECHOED_USERNAME = 64

/** The username as error messages show it: at most MAX_ECHOED_USERNAME characters. */
export function shown(username: string): string {
  const chars = Array.from(username)
  return chars.length <= MAX_ECHOED_USERNAME ? username : chars.slice(0, MAX_ECHOED_USERNAME).join('') + '...'
}

export { goQuote }

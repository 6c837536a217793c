/** Username and password rules (avalanchego api/keystore/keystore.go, utils/password/password.go; docs/SECURITY.md, K2, K7). */
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'
import { KeystoreError } from './errors.js'

/** maxUserLen: bytes of UTF-8 (default of `--keystore-max-username-length`). */
export const MAX_USERNAME_LEN = 1024
/** maxPassLen: bytes of UTF-8 (default of `--keystore-max-password-length`). */
export const MAX_PASSWORD_LEN = 1024
/** maxCheckedPassLen: only the first 50 characters (runes) are scored. */
export const MAX_CHECKED_PASSWORD_CHARS = 50
/** password.OK: zxcvbn score 2 ("Fair") or better. */
export const MIN_PASSWORD_SCORE = 2

export const ERR_EMPTY_USERNAME = 'empty username'
/** avalanchego's over-long username / password text for a limit of `max` bytes. */
const tooLong = (what: 'username' | 'password', max: number): string => `${what} exceeds maximum length of ${max} chars`
export const ERR_USERNAME_MAX_LENGTH = tooLong('username', MAX_USERNAME_LEN)
export const ERR_EMPTY_PASSWORD = 'empty password'
export const ERR_PASSWORD_MAX_LENGTH = tooLong('password', MAX_PASSWORD_LEN)
export const ERR_WEAK_PASSWORD = 'password is too weak'

/** UTF-8 length without encoding (stops counting early is not needed: Buffer.byteLength is linear and cheap). */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

/** Throws avalanchego's error for an empty or over-long username (more than `max` bytes). */
export function checkUsername(username: string, max = MAX_USERNAME_LEN): void {
  if (username === '') throw new KeystoreError(ERR_EMPTY_USERNAME)
  // A string longer than `max` UTF-16 units is more than `max` bytes: refuse without scanning it.
  if (username.length > max || byteLength(username) > max) throw new KeystoreError(tooLong('username', max))
}

/**
 * The length part of password.IsValid, for passwords that are checked against a stored hash: only
 * bounds the KDF input (K7); the empty password is left to fail the hash check as in avalanchego.
 */
export function checkPasswordLength(password: string, max = MAX_PASSWORD_LEN): void {
  if (password.length > max || byteLength(password) > max) throw new KeystoreError(tooLong('password', max))
}

// Built on first use (loading the dictionaries takes ~25 ms); stateless, so one per process is enough.
let zxcvbn: ZxcvbnFactory | undefined

/** zxcvbn score 0..4 of the first 50 characters. */
export function passwordScore(password: string): number {
  zxcvbn ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs })
  const chars = Array.from(password.slice(0, 2 * MAX_CHECKED_PASSWORD_CHARS))
  return zxcvbn.check(chars.slice(0, MAX_CHECKED_PASSWORD_CHARS).join('')).score
}

/** password.IsValid(pw, password.OK): empty, then length (before any scoring, K7), then strength. */
export function checkNewPassword(password: string, max = MAX_PASSWORD_LEN): void {
  if (password === '') throw new KeystoreError(ERR_EMPTY_PASSWORD)
  checkPasswordLength(password, max)
  if (passwordScore(password) < MIN_PASSWORD_SCORE) throw new KeystoreError(ERR_WEAK_PASSWORD)
}

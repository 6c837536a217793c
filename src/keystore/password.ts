/** Username and password rules (avalanchego api/keystore/keystore.go, utils/password/password.go; docs/SECURITY.md, K2, K7). */
import { createRequire } from 'node:module'
import { KeystoreError } from './errors.js'

/** maxUserLen: bytes of UTF-8 (default of `--keystore-max-username-length`). */
export const MAX_USERNAME_LEN = 1024
/** maxPassLen: bytes of UTF-8 (default of `--keystore-max-password-length`). */
export const MAX_PASSWORD_LEN = 1024
/** maxCheckedPassLen: only the first 50 bytes (of the UTF-8 string, as Go slices it) are scored. */
export const MAX_CHECKED_PASSWORD_BYTES = 50
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

/** The zxcvbn package's entry point, as far as used here. */
type Zxcvbn = (password: string) => { score: number }

// Loaded on first use (700 KB of word lists); stateless, so one per process is enough.
let zxcvbn: Zxcvbn | undefined

/**
 * zxcvbn.PasswordStrength(password[:50], nil).Score as avalanchego's zxcvbn-go (nbutton23/zxcvbn-go, the
 * version avalanchego v1.12.1 pins) computes it: the entropy-based scoring of Dropbox's zxcvbn 1.x/2.x, which
 * zxcvbn-go ports, from the `zxcvbn` package at 2.0.2 (its 4.x scores guesses and disagrees far more often).
 * zxcvbn-go measures lengths in bytes, so the first 50 bytes go in one character per byte (Latin-1); a
 * multi-byte character cut at byte 50 is scored as the bytes left, as in Go. Known differences:
 * test/fixtures/zxcvbn-go/README.md.
 */
export function passwordScore(password: string): number {
  zxcvbn ??= createRequire(import.meta.url)('zxcvbn') as Zxcvbn
  // Each UTF-16 unit is at least one byte, so 51 units cover the first 50 bytes and keep a surrogate pair at the cut whole.
  const bytes = Buffer.from(password.slice(0, MAX_CHECKED_PASSWORD_BYTES + 1), 'utf8').subarray(0, MAX_CHECKED_PASSWORD_BYTES)
  return zxcvbn(bytes.toString('latin1')).score
}

/** password.IsValid(pw, password.OK): empty, then length (before any scoring, K7), then strength. */
export function checkNewPassword(password: string, max = MAX_PASSWORD_LEN): void {
  if (password === '') throw new KeystoreError(ERR_EMPTY_PASSWORD)
  checkPasswordLength(password, max)
  if (passwordScore(password) < MIN_PASSWORD_SCORE) throw new KeystoreError(ERR_WEAK_PASSWORD)
}

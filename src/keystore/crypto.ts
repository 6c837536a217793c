/**
 * The keystore's cryptography (docs/SECURITY.md, K3, K4): scrypt (node:crypto, async: off the event loop)
 * for the password verifier and for the data key, each with its own 16-byte salt, and
 * XChaCha20-Poly1305 (@noble/ciphers, avalanchego encdb's cipher) with a fresh 24-byte nonce per value.
 */
import { hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { KeystoreBusyError, KeystoreError } from './errors.js'

/** scrypt cost: N = 2^logN, r, p. */
export interface ScryptParams {
  readonly logN: number
  readonly r: number
  readonly p: number
}

/** docs/SECURITY.md, K3: N = 2^15, r = 8, p = 1 (32 MiB, tens of ms). */
export const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 1 }
export const SALT_LEN = 16
export const KEY_LEN = 32
export const NONCE_LEN = 24
export const TAG_LEN = 16
/** Memory scrypt may use; also the bound on parameters read from an imported blob. */
export const SCRYPT_MAX_MEM = 64 * 1024 * 1024
const SEALED_VERSION = 1

/** Whether params are within what this node runs: an imported blob cannot ask for more (or for a toy cost). */
export function scryptParamsAllowed(params: ScryptParams): boolean {
  const { logN, r, p } = params
  if (!Number.isInteger(logN) || !Number.isInteger(r) || !Number.isInteger(p)) return false
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false
  return 128 * 2 ** logN * r + 128 * r * p <= SCRYPT_MAX_MEM && 2 ** logN * r * p <= 2 ** 22
}

/**
 * Runs key derivations with at most `concurrency` at a time and at most `maxQueued` waiting, so that a
 * burst of keystore calls cannot fill libuv's thread pool (LevelDB uses it too) or the event loop.
 */
export class KeyDeriver {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly opts: { concurrency: number; maxQueued: number }) {}

  /** scrypt in a slot; `ready` runs once the slot is held, before the derivation (a last throttle check). */
  async derive(password: string, salt: Uint8Array, params: ScryptParams, ready?: () => void): Promise<Buffer> {
    if (!scryptParamsAllowed(params)) throw new KeystoreError('unsupported key derivation parameters')
    return this.run(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          scrypt(Buffer.from(password, 'utf8'), salt, KEY_LEN, { N: 2 ** params.logN, r: params.r, p: params.p, maxmem: SCRYPT_MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key)))
        }),
      ready,
    )
  }

  /** Runs `work` once a slot is free (`keystore busy` when too many wait); `ready` runs first in the slot. */
  async run<T>(work: () => Promise<T>, ready?: () => void): Promise<T> {
    if (this.running >= this.opts.concurrency) {
      if (this.waiting.length >= this.opts.maxQueued) throw new KeystoreBusyError()
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      ready?.()
      return await work()
    } finally {
      // Hands the slot straight to the next waiter (running stays the same) or frees it.
      const next = this.waiting.shift()
      if (next !== undefined) next()
      else this.running--
    }
  }
}

/** Fresh random bytes (salts, nonces). */
export function randomSalt(len = SALT_LEN): Uint8Array {
  return new Uint8Array(randomBytes(len))
}

/** Constant-time equality of two equal-length byte strings (false when the lengths differ). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A purpose-bound subkey of the data key (HKDF-SHA256): `seal` for stored values. */
export function subkey(dataKey: Uint8Array, purpose: 'seal'): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', dataKey, new Uint8Array(0), `cchain-node keystore ${purpose} v1`, KEY_LEN))
}

/** version(1) ‖ nonce(24) ‖ XChaCha20-Poly1305(plaintext, aad) ‖ tag(16). */
export function seal(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  const nonce = randomSalt(NONCE_LEN)
  const ct = xchacha20poly1305(key, nonce, aad).encrypt(plaintext)
  const out = new Uint8Array(1 + NONCE_LEN + ct.length)
  out[0] = SEALED_VERSION
  out.set(nonce, 1)
  out.set(ct, 1 + NONCE_LEN)
  return out
}

/** Opens a sealed value; a wrong key, a changed byte or another entry's aad throws. */
export function open(key: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Uint8Array {
  if (sealed.length < 1 + NONCE_LEN + TAG_LEN || sealed[0] !== SEALED_VERSION) throw new KeystoreError('corrupt keystore value')
  try {
    return xchacha20poly1305(key, sealed.subarray(1, 1 + NONCE_LEN), aad).decrypt(sealed.subarray(1 + NONCE_LEN))
  } catch {
    throw new KeystoreError('corrupt keystore value')
  }
}

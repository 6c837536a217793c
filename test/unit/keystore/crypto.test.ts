import { describe, expect, it } from 'vitest'
import { DEFAULT_SCRYPT, KeyDeriver, open, randomSalt, scryptParamsAllowed, seal, subkey } from '../../../src/keystore/crypto.js'
import { KeystoreBusyError, goQuote, shown } from '../../../src/keystore/errors.js'

describe('keystore crypto (docs/SECURITY.md, K3, K4)', () => {
  it('scrypt N=2^15 r=8 p=1 takes tens of ms and is deterministic per salt', async () => {
    const d = new KeyDeriver({ concurrency: 2, maxQueued: 8 })
    const salt = randomSalt()
    await d.derive('warm up', salt, DEFAULT_SCRYPT)
    const t0 = performance.now()
    const a = await d.derive('correct horse', salt, DEFAULT_SCRYPT)
    const ms = performance.now() - t0
    expect(ms).toBeGreaterThan(10)
    expect(Buffer.from(await d.derive('correct horse', salt, DEFAULT_SCRYPT))).toEqual(Buffer.from(a))
    expect(Buffer.from(await d.derive('correct horse', randomSalt(), DEFAULT_SCRYPT))).not.toEqual(Buffer.from(a))
  })

  it('bounds the KDF queue and refuses parameters outside the allowed range', async () => {
    const d = new KeyDeriver({ concurrency: 1, maxQueued: 1 })
    const cheap = { logN: 10, r: 8, p: 1 }
    const runs = [d.derive('a', randomSalt(), cheap), d.derive('b', randomSalt(), cheap), d.derive('c', randomSalt(), cheap)]
    const results = await Promise.allSettled(runs)
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(KeystoreBusyError)
    expect(scryptParamsAllowed(DEFAULT_SCRYPT)).toBe(true)
    expect(scryptParamsAllowed({ logN: 25, r: 8, p: 1 })).toBe(false)
    expect(scryptParamsAllowed({ logN: 1, r: 8, p: 1 })).toBe(false)
    await expect(d.derive('x', randomSalt(), { logN: 30, r: 8, p: 1 })).rejects.toThrow('unsupported key derivation parameters')
  })

  it('seals with a fresh nonce; wrong key, changed byte or other aad do not open', () => {
    const key = subkey(randomSalt(32), 'seal')
    const aad = Uint8Array.of(0x63, 0, 0, 0, 1)
    const plain = randomSalt(32)
    const a = seal(key, plain, aad)
    const b = seal(key, plain, aad)
    expect(Buffer.from(a)).not.toEqual(Buffer.from(b))
    expect(Buffer.from(a).includes(Buffer.from(plain))).toBe(false)
    expect(Buffer.from(open(key, a, aad))).toEqual(Buffer.from(plain))
    expect(() => open(subkey(randomSalt(32), 'seal'), a, aad)).toThrow('corrupt keystore value')
    expect(() => open(key, a, Uint8Array.of(0x63, 0, 0, 0, 2))).toThrow('corrupt keystore value')
    const flipped = a.slice()
    flipped[30]! ^= 1
    expect(() => open(key, flipped, aad)).toThrow('corrupt keystore value')
  })

  it('echoes usernames in %q form, cut to 64 characters', () => {
    expect(goQuote('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"')
    expect(shown('x'.repeat(64))).toBe('x'.repeat(64))
    expect(shown('x'.repeat(1000))).toBe('x'.repeat(64) + '...')
  })
})

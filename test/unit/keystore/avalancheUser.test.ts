import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeBytes } from '../../../src/avalanche/encoding.js'
import { decodeUser, encdbKey, encdbOpen, encdbSeal, encodeUser, passwordMatches } from '../../../src/keystore/avalancheUser.js'
import { sha256 } from '../../../src/util/crypto.js'

/** test/fixtures/avalanchego-keystore: an export built with Go's argon2 and XChaCha20-Poly1305 from avalanchego's format. */
const FIXTURE = new URL('../../fixtures/avalanchego-keystore/', import.meta.url)
const PASSWORD = 'Fixture-Keystore-Passphrase-2417'
const bytes = decodeBytes('hex', readFileSync(new URL('user.txt', FIXTURE), 'utf8').trim())
const spec = JSON.parse(readFileSync(new URL('spec.json', FIXTURE), 'utf8')) as {
  salt: string
  entries: { chain: string; inner: string; plaintext: string; nonce: string }[]
}
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe("avalanchego's exported user (api/keystore, utils/password, database/encdb)", () => {
  it('reads the fixture: argon2id hash and salt, and every pair as sha256(chain) ‖ key -> encdb value', async () => {
    const user = decodeUser(bytes)
    expect(hex(user.salt)).toBe(spec.salt)
    expect(await passwordMatches(user, PASSWORD)).toBe(true)
    expect(await passwordMatches(user, PASSWORD + 'x')).toBe(false)
    const expected = spec.entries
      .map((e) => ({ key: hex(sha256(Buffer.from(e.chain, 'hex'))) + e.inner, plaintext: e.plaintext }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.key, 'hex'), Buffer.from(b.key, 'hex')))
    const key = encdbKey(PASSWORD)
    expect(user.data.map((kv) => ({ key: hex(kv.key), plaintext: hex(encdbOpen(key, kv.value)!) }))).toEqual(expected)
    expect(encdbOpen(encdbKey('another password'), user.data[0]!.value)).toBeUndefined()
  })

  it('writes the same bytes back (the codec layout), and encdb values that open', () => {
    expect(hex(encodeUser(decodeUser(bytes)))).toBe(hex(bytes))
    const key = encdbKey(PASSWORD)
    const sealed = encdbSeal(key, Buffer.from('hello'))
    // codec v0 ‖ u32 len ‖ ciphertext (5 + 16-byte tag) ‖ u32 24 ‖ nonce
    expect(sealed.length).toBe(2 + 4 + 21 + 4 + 24)
    expect(hex(sealed.subarray(0, 6))).toBe('000000000015')
    expect(Buffer.from(encdbOpen(key, sealed)!).toString()).toBe('hello')
  })
})

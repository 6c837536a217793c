import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { keyHash } from '../../../../src/engine/state/keyHash.js'

describe('keyHash', () => {
  it('is keccak256 of the key, as bytes and unprefixed hex, asked again or through a view', () => {
    const backing = new Uint8Array(64).map((_, i) => i * 7)
    for (const key of [backing.subarray(3, 23), backing.subarray(10, 42), new Uint8Array(20), new Uint8Array(32)]) {
      const want = keccak_256(key)
      for (const got of [keyHash(key), keyHash(key), keyHash(key.slice())]) {
        expect(bytesToHex(got.bytes)).toBe(bytesToHex(want))
        expect(got.hex).toBe(bytesToHex(want).slice(2))
      }
    }
  })

  it('tells keys apart that differ in length only', () => {
    expect(keyHash(new Uint8Array(20)).hex).not.toBe(keyHash(new Uint8Array(32)).hex)
  })
})

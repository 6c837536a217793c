import { randomBytes } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { keccak256 } from '../../../src/util/crypto.js'

/* keccak256 reuses one WebAssembly sponge for every hash: each must still be the hash of its own input. */

describe('keccak256', () => {
  it('matches the reference for empty, short, block-sized and multi-block inputs, one after another', () => {
    expect(bytesToHex(keccak256(new Uint8Array(0)))).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    for (const n of [1, 20, 32, 135, 136, 137, 272, 1000]) {
      const data = new Uint8Array(randomBytes(n))
      expect(bytesToHex(keccak256(data))).toBe(bytesToHex(keccak_256(data)))
    }
  })

  it('hashes a view into a larger buffer by its own bytes only', () => {
    const big = new Uint8Array(randomBytes(100))
    const view = big.subarray(10, 30)
    expect(bytesToHex(keccak256(view))).toBe(bytesToHex(keccak_256(view.slice())))
  })
})

import { randomBytes } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { keccak256, NATIVE_CRYPTO, nativeSecp } from '../../../src/util/crypto.js'

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

describe('the native secp256k1 binding', () => {
  it('loads its N-API prebuild on linux-x64 on this Node.js (22 and 24 alike), and recovers the key that signed', async () => {
    const platform = `${process.platform}-${process.arch}`
    if (!['linux-x64', 'darwin-arm64', 'win32-x64'].includes(platform)) throw new Error(`no prebuild ships for ${platform}: this test names the platforms that have one`)
    expect(NATIVE_CRYPTO.secp256k1).toBe(true)
    const { secp256k1 } = await import('@noble/curves/secp256k1.js')
    const key = secp256k1.utils.randomSecretKey()
    const msg = new Uint8Array(randomBytes(32))
    const sig = secp256k1.sign(msg, key, { prehash: false, format: 'recovered' })
    const recovered = nativeSecp!.ecdsaRecover(sig.subarray(1), sig[0]!, msg, false)
    expect(bytesToHex(recovered)).toBe(bytesToHex(secp256k1.getPublicKey(key, false)))
  })
})

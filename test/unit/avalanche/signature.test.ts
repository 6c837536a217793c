import { describe, expect, it } from 'vitest'
import { SignatureError } from '../../../src/avalanche/errors.js'
import { SECP256K1_N, recoverPublicKey, recoverSigner, signHash, toChecksumAddress } from '../../../src/avalanche/signature.js'
import { bytes, hex } from '../../helpers/bytes.js'
import { EWOQ_KEY, EWOQ_SHORT } from '../../helpers/constants.js'

const EWOQ_HEX = EWOQ_KEY.slice(2)

describe('signature recovery (utils/crypto/secp256k1)', () => {
  const sk = bytes(EWOQ_HEX)
  const hash = new Uint8Array(32).fill(0x42)
  const sig = signHash(sk, hash)

  it('recovers ewoq with both address forms', () => {
    const signer = recoverSigner(hash, sig)
    expect(hex(signer.publicKey)).toBe('0327448e78ffa8cdb24cf19be0204ad954b1bdb4db8c51183534c1eecf2ebd094e')
    expect(hex(signer.shortAddress)).toBe(EWOQ_SHORT)
    expect(toChecksumAddress(signer.ethAddress)).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC')
  })

  it('enforces the format rules in avalanchego order', () => {
    expect(() => recoverPublicKey(hash, sig.subarray(0, 64))).toThrow('invalid signature length')
    const highS = sig.slice()
    const s = SECP256K1_N - BigInt('0x' + hex(sig.subarray(32, 64)))
    highS.set(bytes(s.toString(16).padStart(64, '0')), 32)
    highS[64] = sig[64]! ^ 1
    expect(() => recoverPublicKey(hash, highS)).toThrow('signature was mutated from its original format')
    const compressed = sig.slice()
    compressed[64] = sig[64]! + 4
    expect(() => recoverPublicKey(hash, compressed)).toThrow("wasn't expecting a compressed key")
    const other = sig.slice()
    other[64] = 8
    expect(() => recoverPublicKey(hash, other)).toThrow(/^invalid signature$/)
    const zeroR = sig.slice()
    zeroR.fill(0, 0, 32)
    expect(() => recoverPublicKey(hash, zeroR)).toThrow(/^invalid signature$/)
    const flipped = sig.slice()
    flipped[64] = sig[64]! ^ 1
    expect(hex(recoverPublicKey(hash, flipped))).not.toBe(hex(recoverSigner(hash, sig).publicKey))
    expect(() => recoverPublicKey(hash, zeroR)).toThrow(SignatureError)
  })
})

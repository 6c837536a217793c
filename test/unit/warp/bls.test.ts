import * as avalanchejs from '@avalabs/avalanchejs'
import { describe, expect, it } from 'vitest'
import { BlsSigner, aggregatePublicKeys, aggregateSignatures, uncompressedPublicKey, verifyBls } from '../../../src/warp/bls.js'

/*
 * The node's BLS signatures as avalanchego makes them: the key of avalanchego's first local staker
 * gives the public key its local genesis lists, and AvalancheJS (the client library) makes the same
 * signatures and proofs of possession and accepts ours.
 */

const utf8 = (s: string) => new TextEncoder().encode(s)
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
/** avalanchego staking/local/signer1.key: the first local staker's BLS secret key, 32 ASCII bytes. */
const STAKER1_SECRET = utf8('AvalancheLocalNetworkValidator01')
/** Its public key as avalanchego v1.14.2 genesis/genesis_local.json lists it for NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg. */
const STAKER1_PUBLIC_KEY = '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d'

describe('BLS (avalanchego ciphersuite)', () => {
  const signer = new BlsSigner(STAKER1_SECRET)
  const ajs = avalanchejs.bls
  const ajsSecret = ajs.secretKeyFromBytes(STAKER1_SECRET)

  it("derives avalanchego's local staker 1 public key (48 bytes, compressed G1)", () => {
    expect(hex(signer.publicKey)).toBe(STAKER1_PUBLIC_KEY)
  })

  it('signs and proves possession byte for byte as AvalancheJS does, and each accepts the other', () => {
    const message = utf8('test')
    const ours = signer.sign(message)
    expect(ours).toHaveLength(96)
    expect(hex(ours)).toBe(hex(ajs.sign(message, ajsSecret)))
    expect(hex(signer.proofOfPossession())).toBe(hex(ajs.signProofOfPossession(signer.publicKey, ajsSecret)))
    const publicKey = ajs.publicKeyFromBytes(signer.publicKey)
    expect(ajs.verify(publicKey, ajs.signatureFromBytes(ours), message)).toBe(true)
    expect(ajs.verifyProofOfPossession(publicKey, ajs.signatureFromBytes(signer.proofOfPossession()), signer.publicKey)).toBe(true)
    expect(verifyBls(signer.publicKey, ajs.sign(message, ajsSecret), message)).toBe(true)
  })

  it('refuses another message, another key, the proof of possession as a signature, and bytes that are no point', () => {
    const message = utf8('warp')
    const sig = signer.sign(message)
    const other = new BlsSigner(utf8('AvalancheLocalNetworkValidator02'))
    expect(verifyBls(signer.publicKey, sig, utf8('warq'))).toBe(false)
    expect(verifyBls(other.publicKey, sig, message)).toBe(false)
    // A different DST: the proof of possession is no signature of the public key's bytes.
    expect(verifyBls(signer.publicKey, signer.proofOfPossession(), signer.publicKey)).toBe(false)
    expect(verifyBls(signer.publicKey, new Uint8Array(96), message)).toBe(false)
    expect(verifyBls(new Uint8Array(48), sig, message)).toBe(false)
  })

  it('aggregates: the sum of two signatures verifies under the sum of the two keys, not under one', () => {
    const message = utf8('aggregate')
    const other = new BlsSigner(utf8('AvalancheLocalNetworkValidator02'))
    const sig = aggregateSignatures([signer.sign(message), other.sign(message)])
    expect(verifyBls(aggregatePublicKeys([signer.publicKey, other.publicKey]), sig, message)).toBe(true)
    expect(verifyBls(signer.publicKey, sig, message)).toBe(false)
  })

  it('gives the 96-byte uncompressed key the canonical validator order sorts by', () => {
    const full = uncompressedPublicKey(signer.publicKey)
    expect(full).toHaveLength(96)
    // The compressed form is the x coordinate with flag bits: the same 47 low bytes.
    expect(hex(full.subarray(1, 48))).toBe(hex(signer.publicKey.subarray(1)))
  })
})

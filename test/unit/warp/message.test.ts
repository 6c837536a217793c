import { describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { Address, Bytes, Id, Int, pvmSerial } from '@avalabs/avalanchejs'
import { BlsSigner, aggregateSignatures } from '../../../src/warp/bls.js'
import { decodeSignedMessage, decodeUnsignedMessage, encodeSignedMessage, encodeUnsignedMessage, messageID } from '../../../src/warp/message.js'
import { decodePayload, encodeAddressedCall, encodeHashPayload, MAX_PAYLOAD_SIZE } from '../../../src/warp/payload.js'
import { canonicalValidators, verifyWarpMessage, WarpVerifyError } from '../../../src/warp/signature.js'

/*
 * Warp's byte layouts (avalanchego vms/platformvm/warp and its payload package, codec v0,
 * big-endian, `[]byte` = u32 length + bytes), written out field by field here, and their sizes:
 * an AddressedCall from an EVM address is 34+N bytes, its unsigned message 76+N, signed by one
 * validator 181+N.
 */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const fill = (n: number, v: number) => new Uint8Array(n).fill(v)
const u32 = (n: number) => n.toString(16).padStart(8, '0')
const CHAIN = fill(32, 0x07)
const SENDER = fill(20, 0xaa)
const PAYLOAD = Uint8Array.of(1, 2, 3)

describe('Warp messages (codec v0)', () => {
  const call = encodeAddressedCall(SENDER, PAYLOAD)
  const unsigned = { networkID: 12345, sourceChainID: CHAIN, payload: call }
  const unsignedBytes = encodeUnsignedMessage(unsigned)

  it('AddressedCall: codec 0, type ID 1, the source address and the payload as []byte (34 + N bytes)', () => {
    expect(hex(call)).toBe(`0000${u32(1)}${u32(20)}${'aa'.repeat(20)}${u32(3)}010203`)
    expect(call).toHaveLength(34 + PAYLOAD.length)
    expect(decodePayload(call)).toEqual({ kind: 'addressedCall', sourceAddress: SENDER, payload: PAYLOAD })
  })

  it('Hash payload: codec 0, type ID 0, 32 bytes (38 in all)', () => {
    const hash = encodeHashPayload(fill(32, 0x11))
    expect(hex(hash)).toBe(`0000${u32(0)}${'11'.repeat(32)}`)
    expect(decodePayload(hash)).toEqual({ kind: 'hash', hash: fill(32, 0x11) })
  })

  it('UnsignedMessage: codec 0, network ID, source chain ID, payload as []byte (76 + N); its ID is the SHA-256 of those bytes', () => {
    expect(hex(unsignedBytes)).toBe(`0000${u32(12345)}${'07'.repeat(32)}${u32(call.length)}${hex(call)}`)
    expect(unsignedBytes).toHaveLength(76 + PAYLOAD.length)
    expect(decodeUnsignedMessage(unsignedBytes)).toEqual(unsigned)
    expect(hex(messageID(unsignedBytes))).toBe(hex(sha256(unsignedBytes)))
  })

  it('signed message: the unsigned fields under one codec version, then BitSetSignature (type 0, signers, 96 bytes): 181 + N with one signer', () => {
    const signature = { signers: Uint8Array.of(1), signature: fill(96, 0x09) }
    const signed = encodeSignedMessage({ unsigned, signature })
    expect(hex(signed)).toBe(`${hex(unsignedBytes)}${u32(0)}${u32(1)}01${'09'.repeat(96)}`)
    expect(signed).toHaveLength(181 + PAYLOAD.length)
    expect(decodeSignedMessage(signed)).toEqual({ unsigned, signature })
  })

  it("equals AvalancheJS's WarpUnsignedMessage and AddressedCall (which leave the codec version to their manager)", () => {
    const warp = pvmSerial.warp
    const codec = warp.getWarpManager().getDefaultCodec()
    const ajsCall = new warp.AddressedCallPayloads.AddressedCall(new Address(SENDER), new Bytes(PAYLOAD)).toBytes(codec)
    expect(hex(call)).toBe(`0000${hex(ajsCall)}`)
    const ajsMessage = new warp.WarpUnsignedMessage(new Int(12345), new Id(CHAIN), new Bytes(call)).toBytes(codec)
    expect(hex(unsignedBytes)).toBe(`0000${hex(ajsMessage)}`)
    const [decoded] = warp.AddressedCallPayloads.AddressedCall.fromBytes(call.subarray(2), codec)
    expect(decoded.getSourceAddress('hex')).toBe(`0x${hex(SENDER)}`)
  })

  it('refuses trailing bytes, another codec version, an unknown payload or signature type, a payload over 24 KiB', () => {
    expect(() => decodeUnsignedMessage(Uint8Array.of(...unsignedBytes, 0))).toThrow('trailing buffer space')
    expect(() => decodeUnsignedMessage(Uint8Array.of(0, 1, ...unsignedBytes.subarray(2)))).toThrow('unknown codec version')
    expect(() => decodePayload(Uint8Array.of(0, 0, 0, 0, 0, 2))).toThrow('unknown type ID 2')
    const badSig = encodeSignedMessage({ unsigned, signature: { signers: Uint8Array.of(1), signature: fill(96, 0) } })
    badSig[unsignedBytes.length + 3] = 1
    expect(() => decodeSignedMessage(badSig)).toThrow('unknown type ID 1')
    expect(() => encodeAddressedCall(SENDER, new Uint8Array(MAX_PAYLOAD_SIZE))).toThrow()
  })
})

describe('BitSetSignature verification', () => {
  const a = new BlsSigner(new TextEncoder().encode('AvalancheLocalNetworkValidator01'))
  const b = new BlsSigner(new TextEncoder().encode('AvalancheLocalNetworkValidator02'))
  const unsigned = { networkID: 12345, sourceChainID: CHAIN, payload: encodeAddressedCall(SENDER, PAYLOAD) }
  const bytes = encodeUnsignedMessage(unsigned)
  const set = canonicalValidators([
    { publicKey: a.publicKey, weight: 60n },
    { publicKey: b.publicKey, weight: 40n },
  ])
  const indexOf = (s: BlsSigner) => set.validators.findIndex((v) => hex(v.publicKey) === hex(s.publicKey))
  const bit = (...signers: BlsSigner[]) => Uint8Array.of(signers.reduce((bits, s) => bits | (1 << indexOf(s)), 0))
  const verify = (signers: Uint8Array, signature: Uint8Array, quorum = 67n) => verifyWarpMessage({ unsigned, signature: { signers, signature } }, 12345, set, quorum, 100n)

  it('orders the set by uncompressed public key and merges a key listed twice; the total counts validators without a key', () => {
    const merged = canonicalValidators([{ publicKey: b.publicKey, weight: 1n }, { publicKey: a.publicKey, weight: 2n }, { publicKey: b.publicKey, weight: 3n }, { weight: 10n }])
    expect(merged.totalWeight).toBe(16n)
    expect(merged.validators.map((v) => v.weight).sort()).toEqual([2n, 4n])
    expect(merged.validators.map((v) => hex(v.publicKey))).toEqual(set.validators.map((v) => hex(v.publicKey)))
  })

  it('accepts both signers (100 of 100) and refuses one signer under a 67 % quorum though its signature is good', () => {
    expect(() => verify(bit(a, b), aggregateSignatures([a.sign(bytes), b.sign(bytes)]))).not.toThrow()
    expect(() => verify(bit(a), a.sign(bytes))).toThrow('signature weight is insufficient: 67*100 > 100*60')
    expect(() => verify(bit(a), a.sign(bytes), 60n)).not.toThrow()
  })

  it('refuses a wrong signature, a bitset with a leading zero byte or naming no validator, another network', () => {
    expect(() => verify(bit(a), b.sign(bytes), 50n)).toThrow(new WarpVerifyError('signature is invalid'))
    expect(() => verify(Uint8Array.of(0, ...bit(a)), a.sign(bytes), 50n)).toThrow('bitset is invalid')
    expect(() => verify(Uint8Array.of(0b100), a.sign(bytes), 50n)).toThrow('unknown validator')
    expect(() => verify(bit(a), new Uint8Array(96), 50n)).toThrow('failed to parse signature')
    expect(() => verifyWarpMessage({ unsigned, signature: { signers: bit(a), signature: a.sign(bytes) } }, 1, set, 50n, 100n)).toThrow('wrong network ID')
  })
})

import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { FormatError } from '../../../src/avalanche/errors.js'
import { formatPrivateKey, parsePrivateKey } from '../../../src/avalanche/privateKey.js'
import { SECP256K1_N } from '../../../src/avalanche/signature.js'
import { bytes, hex } from '../../helpers/bytes.js'
import { EWOQ_KEY, EWOQ_PRIVATE_KEY } from '../../helpers/constants.js'

const EWOQ_HEX = EWOQ_KEY.slice(2)

describe('PrivateKey- keys (avalanchego: utils/crypto/secp256k1/secp256k1.go)', () => {
  it('round-trips ewoq', () => {
    expect(hex(parsePrivateKey(EWOQ_PRIVATE_KEY))).toBe(EWOQ_HEX)
    expect(formatPrivateKey(bytes(EWOQ_HEX))).toBe(EWOQ_PRIVATE_KEY)
  })

  it('refuses bad keys', () => {
    expect(() => parsePrivateKey('ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN')).toThrow('private key missing PrivateKey- prefix')
    expect(() => parsePrivateKey('PrivateKey-')).toThrow('base58 decoding error: zero length string')
    expect(() => parsePrivateKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNn')).toThrow('invalid input checksum')
    expect(() => parsePrivateKey('PrivateKey-' + cb58Encode(new Uint8Array(31).fill(1)))).toThrow('private key has unexpected length, expected 32')
    expect(() => parsePrivateKey('PrivateKey-' + cb58Encode(new Uint8Array(32)))).toThrow('invalid private key, zero or negative')
    const n = bytes(SECP256K1_N.toString(16))
    expect(() => parsePrivateKey('PrivateKey-' + cb58Encode(n))).toThrow('invalid private key, >=N')
    expect(() => parsePrivateKey('PrivateKey-' + cb58Encode(new Uint8Array(32).fill(0xff)))).toThrow('invalid private key, >=N')
    expect(() => formatPrivateKey(new Uint8Array(32))).toThrow(FormatError)
  })
})

import { describe, expect, it } from 'vitest'
import { cb58Decode, cb58Encode } from '../../../src/avalanche/cb58.js'
import { FormatError } from '../../../src/avalanche/errors.js'
import { hex } from '../../helpers/bytes.js'
import { EMPTY_ID, EWOQ_SHORT } from '../../helpers/constants.js'

describe('CB58 (utils/cb58)', () => {
  it('round-trips IDs and reports avalanchego errors', () => {
    expect(cb58Encode(new Uint8Array(32))).toBe(EMPTY_ID)
    expect(cb58Encode(new Uint8Array(20))).toBe('111111111111111111116DBWJs')
    expect(hex(cb58Decode('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV'))).toBe(EWOQ_SHORT)
    expect(() => cb58Decode('')).toThrow('base58 decoding error: zero length string')
    expect(() => cb58Decode('0abc')).toThrow("base58 decoding error: invalid base58 digit ('0')")
    expect(() => cb58Decode('ab\ncd')).toThrow("base58 decoding error: invalid base58 digit ('\\n')")
    expect(() => cb58Decode('abcé')).toThrow('base58 decoding error: high-bit set on invalid digit')
    expect(() => cb58Decode('2')).toThrow('input string is smaller than the checksum size')
    expect(() => cb58Decode('11111111111111111111111111111111LpoYZ')).toThrow('invalid input checksum')
    expect(() => cb58Decode('')).toThrow(FormatError)
  })
})

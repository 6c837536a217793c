import { describe, expect, it } from 'vitest'
import { decodeBytes, encodeBytes, parseEncoding } from '../../../src/avalanche/encoding.js'
import { hex } from '../../helpers/bytes.js'

describe('API byte encodings (utils/formatting/encoding.go)', () => {
  it('encodes and decodes every encoding', () => {
    expect(encodeBytes('hex', new Uint8Array(0))).toBe('0x7852b855')
    expect(encodeBytes('hexnc', Uint8Array.of(0xab))).toBe('0xab')
    expect(hex(decodeBytes('hex', encodeBytes('hex', Uint8Array.of(1, 2, 3))))).toBe('010203')
    expect(hex(decodeBytes('hexc', encodeBytes('hexc', Uint8Array.of(1, 2, 3))))).toBe('010203')
    expect(hex(decodeBytes('hexnc', '0xABCDEF'))).toBe('abcdef')
    expect(decodeBytes('hex', '')).toEqual(new Uint8Array(0))
    expect(decodeBytes('json', '')).toEqual(new Uint8Array(0))
    expect(['HEX', 'HexNC', 'hexc', 'json', undefined, null].map(parseEncoding)).toEqual(['hex', 'hexnc', 'hexc', 'json', 'hex', 'hex'])
  })

  it('reports avalanchego and Go hex errors', () => {
    expect(() => parseEncoding('cb58')).toThrow('invalid encoding')
    expect(() => encodeBytes('json', Uint8Array.of(1))).toThrow('unsupported encoding in method')
    expect(() => decodeBytes('json', '0x00')).toThrow('unsupported encoding in method')
    expect(() => decodeBytes('hex', '00112233')).toThrow('missing 0x prefix to hex encoding')
    expect(() => decodeBytes('hex', '0X00112233')).toThrow('missing 0x prefix to hex encoding')
    expect(() => decodeBytes('hex', '0x0g112233')).toThrow("encoding/hex: invalid byte: U+0067 'g'")
    expect(() => decodeBytes('hex', '0x0011223')).toThrow('encoding/hex: odd length hex string')
    expect(() => decodeBytes('hex', '0x001122g')).toThrow("encoding/hex: invalid byte: U+0067 'g'")
    expect(() => decodeBytes('hex', '0x00\u0001')).toThrow('encoding/hex: invalid byte: U+0001')
    expect(() => decodeBytes('hex', '0x001122')).toThrow('input string is smaller than the checksum size')
    expect(() => decodeBytes('hex', '0x0011223344')).toThrow('invalid input checksum')
  })
})

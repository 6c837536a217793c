import { describe, expect, it } from 'vitest'
import { type AddressContext, formatAddress, formatBech32, formatLocalAddress, parseAddress, parseBech32, parseChainAddress, parseLocalAddress, parseServiceAddress } from '../../../src/avalanche/address.js'
import { cb58Decode, cb58Encode } from '../../../src/avalanche/cb58.js'
import { decodeBytes, encodeBytes, parseEncoding } from '../../../src/avalanche/encoding.js'
import { FormatError, SignatureError } from '../../../src/avalanche/errors.js'
import { NETWORKS, hrpForNetwork, lookupChainAlias, networkByID, primaryAlias } from '../../../src/avalanche/networks.js'
import { formatPrivateKey, parsePrivateKey } from '../../../src/avalanche/privateKey.js'
import { SECP256K1_N, recoverPublicKey, recoverSigner, signHash, toChecksumAddress } from '../../../src/avalanche/signature.js'

import { EMPTY_ID, EWOQ_C, EWOQ_KEY, EWOQ_PRIVATE_KEY, EWOQ_SHORT, EWOQ_X } from '../../helpers/constants.js'

const EWOQ_HEX = EWOQ_KEY.slice(2)
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'))
const local = NETWORKS.local
const ctx: AddressContext = { networkID: local.networkID, chains: { xChainID: local.xChainID, pChainID: local.pChainID, cChainID: local.cChainID } }

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

describe('bech32 addresses (utils/formatting/address, btcutil/bech32)', () => {
  it('formats and parses the ewoq addresses on every network', () => {
    expect(formatAddress('X', 'local', bytes(EWOQ_SHORT))).toBe(EWOQ_X)
    expect(formatAddress('P', 'fuji', bytes(EWOQ_SHORT))).toBe('P-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t')
    expect(formatAddress('C', 'avax', bytes(EWOQ_SHORT))).toBe('C-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5')
    expect(parseAddress(EWOQ_X)).toEqual({ chainAlias: 'X', hrp: 'local', bytes: bytes(EWOQ_SHORT) })
    expect(parseBech32('LOCAL18JMA8PPW3NHX5R4AP8CLAZZ0DPS7RV5U00Z96U').bytes).toEqual(bytes(EWOQ_SHORT))
    expect(formatBech32('local', new Uint8Array(20))).toBe('local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqljssag')
  })

  it('reports btcutil decode errors', () => {
    expect(() => parseAddress('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toThrow('no separator found in address')
    expect(() => parseBech32('a1qqqq')).toThrow('invalid bech32 string length 6')
    expect(() => parseBech32('a'.repeat(91))).toThrow('invalid bech32 string length 91')
    expect(() => parseBech32('local1 qqqqqqqq')).toThrow("invalid character in string: ' '")
    expect(() => parseBech32('Local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toThrow('string not all lowercase or all uppercase')
    expect(() => parseBech32('localqqqqqqqqq')).toThrow('invalid separator index -1')
    expect(() => parseBech32('local1qqqqq')).toThrow('invalid separator index 5')
    expect(() => parseBech32('abcdefgh1qqqqq')).toThrow('invalid separator index 8')
    expect(() => parseBech32('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96b')).toThrow('invalid character not part of charset: 98')
    expect(() => parseBech32('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96q'))
      .toThrow(/^invalid checksum \(expected \(bech32=00z96u, bech32m=00z96u[a-z0-9]{6}\), got 00z96q\)$/)
  })

  it('parses chain-local addresses as coreth does', () => {
    expect(parseChainAddress(ctx, EWOQ_X)).toEqual({ chainID: local.xChainID, address: bytes(EWOQ_SHORT) })
    expect(parseLocalAddress(ctx, local.cChainID, EWOQ_C)).toEqual(bytes(EWOQ_SHORT))
    expect(parseLocalAddress(ctx, local.cChainID, `${cb58Encode(local.cChainID)}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`)).toEqual(bytes(EWOQ_SHORT))
    expect(parseLocalAddress(ctx, local.cChainID, 'evm-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toEqual(bytes(EWOQ_SHORT))
    expect(() => parseLocalAddress(ctx, local.cChainID, EWOQ_X))
      .toThrow(`expected chainID to be "${cb58Encode(local.cChainID)}" but was "${cb58Encode(local.xChainID)}"`)
    expect(() => parseLocalAddress(ctx, local.cChainID, 'C-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t')).toThrow('expected hrp "local" but got "fuji"')
    expect(() => parseLocalAddress(ctx, local.cChainID, 'Q-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toThrow('there is no ID with alias: Q')
    expect(() => parseLocalAddress(ctx, local.cChainID, `C-${formatBech32('local', new Uint8Array(21))}`)).toThrow('invalid hash length: expected 20 bytes but got 22')
    expect(parseServiceAddress(ctx, local.cChainID, '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV')).toEqual(bytes(EWOQ_SHORT))
    expect(parseServiceAddress(ctx, local.cChainID, EWOQ_C)).toEqual(bytes(EWOQ_SHORT))
    expect(formatLocalAddress(ctx, local.cChainID, new Uint8Array(20))).toBe('C-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqljssag')
  })

  it('knows the HRPs and aliases', () => {
    expect([1, 2, 3, 4, 5, 10, 12345, 99].map(hrpForNetwork)).toEqual(['avax', 'cascade', 'denali', 'everest', 'fuji', 'testing', 'local', 'custom'])
    expect(lookupChainAlias(ctx.chains, 'avm')).toEqual(local.xChainID)
    expect(lookupChainAlias(ctx.chains, 'platform')).toEqual(local.pChainID)
    expect(lookupChainAlias(ctx.chains, cb58Encode(local.xChainID))).toEqual(local.xChainID)
    expect(() => lookupChainAlias(ctx.chains, 'x')).toThrow('there is no ID with alias: x')
    expect(primaryAlias(ctx.chains, local.pChainID)).toBe('P')
    expect(networkByID(5)?.name).toBe('fuji')
    expect(networkByID(7)).toBeUndefined()
  })
})

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

import { describe, expect, it } from 'vitest'
import {
  type AddressContext,
  formatAddress,
  formatBech32,
  formatLocalAddress,
  parseAddress,
  parseBech32,
  parseChainAddress,
  parseLocalAddress,
  parseServiceAddress,
} from '../../../src/avalanche/address.js'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { bytes } from '../../helpers/bytes.js'
import { EWOQ_C, EWOQ_SHORT, EWOQ_X } from '../../helpers/constants.js'

const local = NETWORKS.local
const ctx: AddressContext = { networkID: local.networkID, chains: { xChainID: local.xChainID, pChainID: local.pChainID, cChainID: local.cChainID } }

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
    expect(() => parseBech32('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96q')).toThrow(/^invalid checksum \(expected \(bech32=00z96u, bech32m=00z96u[a-z0-9]{6}\), got 00z96q\)$/)
  })

  it('parses chain-local addresses as coreth does', () => {
    expect(parseChainAddress(ctx, EWOQ_X)).toEqual({ chainID: local.xChainID, address: bytes(EWOQ_SHORT) })
    expect(parseLocalAddress(ctx, local.cChainID, EWOQ_C)).toEqual(bytes(EWOQ_SHORT))
    expect(parseLocalAddress(ctx, local.cChainID, `${cb58Encode(local.cChainID)}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`)).toEqual(bytes(EWOQ_SHORT))
    expect(parseLocalAddress(ctx, local.cChainID, 'evm-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toEqual(bytes(EWOQ_SHORT))
    expect(() => parseLocalAddress(ctx, local.cChainID, EWOQ_X)).toThrow(`expected chainID to be "${cb58Encode(local.cChainID)}" but was "${cb58Encode(local.xChainID)}"`)
    expect(() => parseLocalAddress(ctx, local.cChainID, 'C-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t')).toThrow('expected hrp "local" but got "fuji"')
    expect(() => parseLocalAddress(ctx, local.cChainID, 'Q-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toThrow('there is no ID with alias: Q')
    expect(() => parseLocalAddress(ctx, local.cChainID, `C-${formatBech32('local', new Uint8Array(21))}`)).toThrow('invalid hash length: expected 20 bytes but got 22')
    expect(parseServiceAddress(ctx, local.cChainID, '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV')).toEqual(bytes(EWOQ_SHORT))
    expect(parseServiceAddress(ctx, local.cChainID, EWOQ_C)).toEqual(bytes(EWOQ_SHORT))
    expect(formatLocalAddress(ctx, local.cChainID, new Uint8Array(20))).toBe('C-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqljssag')
  })
})

/** The explorer's own byte codecs (explorer/src/bytes.ts: the browser has no Buffer) against Node's and the node's. */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bytesToHex, cb58Decode, cb58Encode, formatAddress, hexToBytes, parseAddress, sha256 } from '../../explorer/src/bytes.js'
import { EWOQ_P, EWOQ_SHORT, EWOQ_X, LOCAL_C } from '../helpers/constants.js'

describe('explorer bytes', () => {
  it('hashes as SHA-256 does, across block boundaries', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff)
      expect(bytesToHex(sha256(data)), `${n} bytes`).toBe('0x' + createHash('sha256').update(data).digest('hex'))
    }
  })

  it('reads and writes CB58 (the C-Chain ID), refusing a bad checksum or alphabet', () => {
    const id = cb58Decode(LOCAL_C)!
    expect(id).toHaveLength(32)
    expect(cb58Encode(id)).toBe(LOCAL_C)
    expect(cb58Encode(new Uint8Array(32))).toBe('11111111111111111111111111111111LpoYY')
    expect(cb58Decode(LOCAL_C.slice(0, -1) + (LOCAL_C.endsWith('C') ? 'D' : 'C'))).toBeUndefined()
    expect(cb58Decode('0OIl')).toBeUndefined()
  })

  it('reads and writes X-/P- bech32 addresses (ewoq), refusing a bad checksum', () => {
    const bytes = hexToBytes(EWOQ_SHORT)
    expect(formatAddress('X', 'local', bytes)).toBe(EWOQ_X)
    expect(formatAddress('P', 'local', bytes)).toBe(EWOQ_P)
    expect(parseAddress(EWOQ_X)).toEqual({ chain: 'X', hrp: 'local', bytes })
    expect(parseAddress(EWOQ_X.slice(0, -1) + (EWOQ_X.endsWith('u') ? 'q' : 'u'))).toBeUndefined()
    expect(parseAddress('X-local1nope')).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { keyFileName } from '../../../../src/engine/accounts/keyFile.js'

describe('keyFileName (geth keystore)', () => {
  it('names files as geth does', () => {
    expect(keyFileName('0xABCDEF0000000000000000000000000000000001', new Date('2024-05-06T07:08:09.120Z'))).toBe('UTC--2024-05-06T07-08-09.12Z--abcdef0000000000000000000000000000000001')
    expect(keyFileName('0x01', new Date('2024-05-06T07:08:09.000Z'))).toBe('UTC--2024-05-06T07-08-09Z--01')
  })
})

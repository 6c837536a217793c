/** The context chain of the X/P wallets' errors (avalanchego's fmt.Errorf("...: %w")). */
import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../src/avalanche/errors.js'
import { WalletError, inContext } from '../../../src/avalanche/wallet.js'

describe('inContext', () => {
  it('prefixes a domain error, sync or async, as a WalletError', async () => {
    const sync = (): never => {
      throw new FormatError('bad')
    }
    expect(() => inContext('problem parsing: ', sync)).toThrow(new WalletError('problem parsing: bad'))
    await expect(inContext('problem issuing transaction: ', async () => sync())).rejects.toThrow('problem issuing transaction: bad')
    await expect(inContext('x: ', async () => sync())).rejects.toBeInstanceOf(WalletError)
  })

  it('passes results and non-domain errors through unchanged', async () => {
    expect(inContext('x: ', () => 7)).toBe(7)
    expect(await inContext('x: ', async () => 8)).toBe(8)
    const bug = new TypeError('bug')
    expect(() =>
      inContext('x: ', () => {
        throw bug
      }),
    ).toThrow(bug)
    await expect(
      inContext('x: ', async () => {
        throw bug
      }),
    ).rejects.toBe(bug)
  })
})

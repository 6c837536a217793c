/** secp256k1fx Keychain matching and the `from` filter of the keystore wallets. */
import { describe, expect, it } from 'vitest'
import { matchOwners, selectKeys, zeroKeys } from '../../../src/avalanche/keychain.js'

const addr = (n: number): Uint8Array => new Uint8Array(20).fill(n)
const key = (n: number) => ({ privateKey: new Uint8Array(32).fill(n), shortAddress: addr(n) })

describe('matchOwners (Keychain.Match)', () => {
  it('signs with the first `threshold` owners the keys hold, in owner order', () => {
    const owners = { locktime: 0n, threshold: 2, addrs: [addr(1), addr(2), addr(3)] }
    const m = matchOwners(owners, [key(3), key(1), key(2)], 0n)
    expect(m?.sigIndices).toEqual([0, 1])
    expect(m?.signers).toEqual([key(1).privateKey, key(2).privateKey])
    expect(matchOwners(owners, [key(3), key(2)], 0n)?.sigIndices).toEqual([1, 2])
  })

  it('needs `threshold` keys', () => {
    expect(matchOwners({ locktime: 0n, threshold: 2, addrs: [addr(1), addr(2)] }, [key(2)], 0n)).toBeUndefined()
    expect(matchOwners({ locktime: 0n, threshold: 1, addrs: [addr(1)] }, [], 0n)).toBeUndefined()
  })

  it('refuses an output time-locked after `now`, accepts it from its locktime on', () => {
    const owners = { locktime: 100n, threshold: 1, addrs: [addr(1)] }
    expect(matchOwners(owners, [key(1)], 99n)).toBeUndefined()
    expect(matchOwners(owners, [key(1)], 100n)?.sigIndices).toEqual([0])
  })

  it('threshold 0 matches with no signers', () => {
    expect(matchOwners({ locktime: 0n, threshold: 0, addrs: [addr(1)] }, [key(1)], 0n)).toEqual({ sigIndices: [], signers: [] })
  })
})

describe('selectKeys (GetKeychain)', () => {
  it('keeps every key once when `from` is empty; zeroes the duplicates', () => {
    const dup = key(1)
    const chosen = selectKeys([key(1), key(2), dup], [])
    expect(chosen.map((k) => k.shortAddress[0])).toEqual([1, 2])
    expect(dup.privateKey.every((b) => b === 0)).toBe(true)
  })

  it('keeps only the keys of `from`, zeroing the others', () => {
    const other = key(2)
    const chosen = selectKeys([key(1), other, key(3)], [addr(3), addr(1), addr(9)])
    expect(chosen.map((k) => k.shortAddress[0])).toEqual([1, 3])
    expect(other.privateKey.every((b) => b === 0)).toBe(true)
  })

  it('zeroKeys wipes every private key', () => {
    const keys = [key(1), key(2)]
    zeroKeys(keys)
    expect(keys.every((k) => k.privateKey.every((b) => b === 0))).toBe(true)
  })
})

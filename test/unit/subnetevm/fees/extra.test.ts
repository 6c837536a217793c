// Cases of subnet-evm plugin/evm/customheader/extra_test.go.
import { describe, expect, it } from 'vitest'
import { addToWindow, emptyWindow, shiftWindow, WINDOW_SIZE, windowBytes } from '../../../../src/subnetevm/fees/feeWindow.js'
import { builtExtra, extraPrefix, MAXIMUM_EXTRA_DATA_SIZE, predicateBytesFromExtra, setPredicateBytesInExtra, verifyExtra, verifyExtraPrefix } from '../../../../src/subnetevm/fees/extra.js'
import { DURANGO, PRE_SUBNET_EVM, SUBNET_EVM } from './testFeeConfigs.js'

const EMPTY = windowBytes(emptyWindow())
const parent = (p: { number?: bigint; timestamp?: bigint; gasUsed?: bigint; extraData?: Uint8Array }) => ({
  number: 1n,
  timestamp: 0n,
  gasUsed: 0n,
  extraData: new Uint8Array(),
  ...p,
})
const bytesWith = (length: number, at: Record<number, number> = {}) => {
  const out = new Uint8Array(length)
  for (const [i, v] of Object.entries(at)) out[Number(i)] = v
  return out
}

describe('extraPrefix (TestExtraPrefix)', () => {
  it('is the child fee window from SubnetEVM', () => {
    expect(extraPrefix(PRE_SUBNET_EVM, parent({}), 0n)).toBeUndefined()
    expect(extraPrefix({ subnetEVMTimestamp: 1n }, parent({}), 1n)).toEqual(EMPTY)
    expect(extraPrefix(SUBNET_EVM, parent({ number: 0n }), 0n)).toEqual(EMPTY)
    expect(() => extraPrefix(SUBNET_EVM, parent({}), 0n)).toThrow(
      expect.objectContaining({ code: 'ErrWindowInsufficientLength', message: 'failed to calculate fee window: insufficient length for window: expected at least 80 bytes but got 0 bytes' }),
    )
    expect(() => extraPrefix(SUBNET_EVM, parent({ timestamp: 1n, extraData: EMPTY }), 0n)).toThrow(expect.objectContaining({ code: 'errInvalidTimestamp' }))
    const start = [1n, 2n, 3n, 4n, 0n, 0n, 0n, 0n, 0n, 0n]
    expect(extraPrefix(SUBNET_EVM, parent({ gasUsed: 10_000_000n, extraData: windowBytes(start) }), 1n)).toEqual(windowBytes(shiftWindow(addToWindow(start, 10_000_000n), 1n)))
  })
})

describe('verifyExtraPrefix (TestVerifyExtraPrefix)', () => {
  it('asks extraData to start with the window', () => {
    expect(() => verifyExtraPrefix(PRE_SUBNET_EVM, parent({}), { timestamp: 0n, extraData: new Uint8Array() })).not.toThrow()
    expect(() => verifyExtraPrefix(SUBNET_EVM, parent({}), { timestamp: 0n, extraData: new Uint8Array() })).toThrow(expect.objectContaining({ code: 'ErrWindowInsufficientLength' }))
    expect(() => verifyExtraPrefix(SUBNET_EVM, parent({ number: 0n }), { timestamp: 0n, extraData: new Uint8Array() })).toThrow(expect.objectContaining({ code: 'errInvalidExtraPrefix' }))
    expect(() => verifyExtraPrefix(SUBNET_EVM, parent({ number: 0n }), { timestamp: 0n, extraData: EMPTY })).not.toThrow()
  })
})

describe('verifyExtra (TestVerifyExtra)', () => {
  const invalid = expect.objectContaining({ code: 'errInvalidExtraLength' })
  const none = { isSubnetEVM: false, isDurango: false }
  const subnetEvm = { isSubnetEVM: true, isDurango: false }
  const durango = { isSubnetEVM: false, isDurango: true }
  it('checks the length per upgrade', () => {
    expect(() => verifyExtra(none, new Uint8Array(MAXIMUM_EXTRA_DATA_SIZE))).not.toThrow()
    expect(() => verifyExtra(none, new Uint8Array(MAXIMUM_EXTRA_DATA_SIZE + 1))).toThrow(expect.objectContaining({ message: 'invalid header.Extra length: expected <= 64 but got 65' }))
    expect(() => verifyExtra(subnetEvm, new Uint8Array(WINDOW_SIZE))).not.toThrow()
    expect(() => verifyExtra(subnetEvm, new Uint8Array(WINDOW_SIZE - 1))).toThrow(invalid)
    expect(() => verifyExtra(subnetEvm, new Uint8Array(WINDOW_SIZE + 1))).toThrow(expect.objectContaining({ message: 'invalid header.Extra length: expected 80 but got 81' }))
    expect(() => verifyExtra(durango, new Uint8Array(WINDOW_SIZE))).not.toThrow()
    expect(() => verifyExtra(durango, new Uint8Array(WINDOW_SIZE + 1))).not.toThrow()
    expect(() => verifyExtra(durango, new Uint8Array(WINDOW_SIZE - 1))).toThrow(expect.objectContaining({ message: 'invalid header.Extra length: expected >= 80 but got 79' }))
  })
})

describe('predicate bytes in extraData', () => {
  it('reads them after the window (TestPredicateBytesFromExtra)', () => {
    expect(predicateBytesFromExtra(new Uint8Array())).toBeUndefined()
    expect(predicateBytesFromExtra(new Uint8Array(WINDOW_SIZE - 1))).toBeUndefined()
    expect(predicateBytesFromExtra(new Uint8Array(WINDOW_SIZE))).toBeUndefined()
    expect(predicateBytesFromExtra(bytesWith(WINDOW_SIZE + 1, { [WINDOW_SIZE]: 5 }))).toEqual(Uint8Array.of(5))
  })

  it('writes them after the window, padding or cutting it (TestSetPredicateBytesInExtra, TestPredicateBytesExtra)', () => {
    expect(setPredicateBytesInExtra(undefined, undefined)).toEqual(new Uint8Array(WINDOW_SIZE))
    expect(setPredicateBytesInExtra(Uint8Array.of(1), Uint8Array.of(2))).toEqual(bytesWith(WINDOW_SIZE + 1, { 0: 1, [WINDOW_SIZE]: 2 }))
    expect(setPredicateBytesInExtra(bytesWith(WINDOW_SIZE + 1, { [WINDOW_SIZE]: 1 }), Uint8Array.of(2))).toEqual(bytesWith(WINDOW_SIZE + 1, { [WINDOW_SIZE]: 2 }))
    const extra = setPredicateBytesInExtra(bytesWith(WINDOW_SIZE, { 0: 1 }), Uint8Array.of(2))
    expect(extra).toEqual(bytesWith(WINDOW_SIZE + 1, { 0: 1, [WINDOW_SIZE]: 2 }))
    expect(predicateBytesFromExtra(extra)).toEqual(Uint8Array.of(2))
  })
})

describe('builtExtra', () => {
  it('is the window alone under SubnetEVM, and the window then the empty predicate results (6 bytes) from Durango', () => {
    expect(builtExtra(SUBNET_EVM, parent({ number: 0n }), 1n)).toEqual(EMPTY)
    const durango = builtExtra(DURANGO, parent({ number: 0n }), 1n)
    expect(durango.length).toBe(86)
    expect(durango.subarray(WINDOW_SIZE)).toEqual(new Uint8Array(6))
    expect(builtExtra(DURANGO, parent({ number: 0n }), 1n, Uint8Array.of(9))).toEqual(bytesWith(81, { 80: 9 }))
    expect(builtExtra(PRE_SUBNET_EVM, parent({}), 1n)).toEqual(new Uint8Array())
  })
})

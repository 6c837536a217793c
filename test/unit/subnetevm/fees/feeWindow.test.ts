// Numbers from subnet-evm plugin/evm/upgrade/subnetevm/window_test.go (avalanchego releases/v1.15.0-fuji).
import { describe, expect, it } from 'vitest'
import { addToWindow, emptyWindow, parseWindow, shiftWindow, WINDOW_LEN, WINDOW_SIZE, windowBytes, windowSum } from '../../../../src/subnetevm/fees/feeWindow.js'

const MAX = (1n << 64n) - 1n
const w = (...v: number[]) => [...v.map(BigInt), ...Array(WINDOW_LEN - v.length).fill(0n)]
const ONE_TO_TEN = w(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
const NINE = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]

describe('fee window', () => {
  it('is 10 seconds of 8 bytes', () => {
    expect(WINDOW_LEN).toBe(10)
    expect(WINDOW_SIZE).toBe(80)
  })

  it('adds to the last entry, saturating (TestWindow_Add)', () => {
    expect(addToWindow(ONE_TO_TEN, 5n)).toEqual(w(1, 2, 3, 4, 5, 6, 7, 8, 9, 15))
    expect(addToWindow(ONE_TO_TEN, MAX)).toEqual([...NINE, MAX])
    expect(addToWindow([...NINE, MAX], 5n)).toEqual([...NINE, MAX])
    expect(ONE_TO_TEN).toEqual(w(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
  })

  it('shifts out the oldest entries (TestWindow_Shift)', () => {
    expect(shiftWindow(ONE_TO_TEN, 0n)).toEqual(ONE_TO_TEN)
    for (let n = 1; n < 10; n++) expect(shiftWindow(ONE_TO_TEN, BigInt(n))).toEqual(w(...Array.from({ length: 10 - n }, (_, i) => i + n + 1)))
    expect(shiftWindow(ONE_TO_TEN, 10n)).toEqual(emptyWindow())
    expect(shiftWindow(ONE_TO_TEN, 100n)).toEqual(emptyWindow())
  })

  it('sums, saturating (TestWindow_Sum)', () => {
    expect(windowSum(emptyWindow())).toBe(0n)
    expect(windowSum(ONE_TO_TEN)).toBe(55n)
    expect(windowSum([MAX, ...ONE_TO_TEN.slice(1)])).toBe(MAX)
  })

  it('reads and writes its bytes big-endian (TestWindow_Bytes)', () => {
    expect(() => parseWindow(new Uint8Array(WINDOW_SIZE - 1))).toThrow(
      expect.objectContaining({ code: 'ErrWindowInsufficientLength', message: 'insufficient length for window: expected at least 80 bytes but got 79 bytes' }),
    )
    expect(parseWindow(new Uint8Array(WINDOW_SIZE))).toEqual(emptyWindow())
    const long = new Uint8Array(WINDOW_SIZE + 1)
    long[WINDOW_SIZE] = 1
    expect(parseWindow(long)).toEqual(emptyWindow())
    const bytes = new Uint8Array(WINDOW_SIZE)
    for (let i = 0; i < 10; i++) for (let j = 0; j < 8; j++) bytes[i * 8 + j] = i * 0x10 + j + 1
    const window = parseWindow(bytes)
    expect(window[0]).toBe(0x0102030405060708n)
    expect(window[9]).toBe(0x9192939495969798n)
    expect(windowBytes(window)).toEqual(bytes)
  })
})

import { describe, expect, it } from 'vitest'
import { LOCAL_FEE_CONFIG, advanceFeeState, calculatePrice, consumeGas, feeConfigJSON, feeStateJSON, goTimeJSON, initialFeeState, toGas } from '../../../src/pchain/fees.js'

describe('P-Chain fee config and state', () => {
  it('serves the local config and state as JSON numbers', () => {
    expect(feeConfigJSON()).toEqual({ weights: [1, 1000, 1000, 4], maxCapacity: 1_000_000, maxPerSecond: 100_000, targetPerSecond: 50_000, minPrice: 1, excessConversionConstant: 2_164_043 })
    expect(feeStateJSON(initialFeeState(), new Date(1_721_016_000_000))).toEqual({ capacity: 1_000_000, excess: 0, price: 1, timestamp: '2024-07-15T04:00:00Z' })
    expect(goTimeJSON(new Date(1500))).toBe('1970-01-01T00:00:01.5Z')
  })
  it('prices excess with the fake exponential (doubling about every 30 s of excess)', () => {
    expect(calculatePrice(1n, 0n, 2_164_043n)).toBe(1n)
    expect(calculatePrice(1n, 1_500_000n, 2_164_043n)).toBe(1n)
    expect(calculatePrice(100n, 1_500_000n, 2_164_043n)).toBe(199n) // 100·e^(ln2·0.999…) ≈ 199.9, rounded down by the series
    expect(calculatePrice(1n, 0xffffffffffffffffn, 1n)).toBe(0xffffffffffffffffn)
    let s = consumeGas(initialFeeState(), 400_000n)
    expect(s).toEqual({ capacity: 600_000n, excess: 400_000n })
    s = advanceFeeState(s, 2n)
    expect(s).toEqual({ capacity: 800_000n, excess: 300_000n })
    expect(() => consumeGas(s, 800_001n)).toThrow('insufficient capacity: capacity (800000) < gas (800001)')
    expect(toGas([100n, 2n, 3n, 400n], LOCAL_FEE_CONFIG.weights)).toBe(100n + 2000n + 3000n + 1600n)
  })
})

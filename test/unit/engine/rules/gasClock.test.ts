// Helicon's gas clock and parameters (src/engine/rules/gasClock.ts, helicon.ts). Every expected value
// is worked out by hand below from avalanchego v1.15's rules (vms/saevm/gastime, proxytime, params,
// cchain/dynamic), as each comment shows.
import { describe, expect, it } from 'vitest'
import { GasClock, compareGasTimeMs, excessForPrice } from '../../../../src/engine/rules/gasClock.js'
import { calculatePrice } from '../../../../src/engine/rules/feeState.js'
import { desiredPriceExponent, minGasCharge, minPriceOf, nextPriceExponent, nextTargetExponent, safeMaxBlockSize } from '../../../../src/engine/rules/helicon.js'

const T = 1_000_000n
const CFG = { minPrice: 1n }

describe('GasClock', () => {
  it('counts gas at 2T per second and raises the excess by half of it', () => {
    // A synchronous clock at 10.000 s with T = 1M: rate 2M gas/s, price 1 wei: excess 0.
    const c = GasClock.synchronous(10_000n, T, 1n, CFG)
    expect(c.state()).toEqual({ seconds: 10n, fraction: 0n, rate: 2_000_000n, excess: 0n, minPrice: 1n })
    // 1M gas is half a second of gas time; the excess grows by g·(R−T)/R = 500,000.
    c.tick(1_000_000n)
    expect([c.seconds, c.fraction, c.excess]).toEqual([10n, 1_000_000n, 500_000n])
    // 2.5M more: 3.5M of 2M per second = 1 s and 1.5M.
    c.tick(2_500_000n)
    expect([c.seconds, c.fraction, c.excess]).toEqual([11n, 1_500_000n, 1_750_000n])
  })

  it('fast-forwards to a block time, lowering the excess by T per second of gas time skipped', () => {
    const c = GasClock.synchronous(10_000n, T, 1n, CFG)
    c.tick(1_000_000n) // 10 s + 1.0M, excess 500,000
    // 10.600 s is 10 s + ceil(0.6e9 ns · 2M / 1e9) = 1.2M: 200,000 gas of time skipped, the excess falls by 200,000·T/R = 100,000.
    c.beforeBlock(10_600n)
    expect([c.seconds, c.fraction, c.excess]).toEqual([10n, 1_200_000n, 400_000n])
    // An earlier time leaves it.
    c.beforeBlock(10_100n)
    expect([c.seconds, c.fraction, c.excess]).toEqual([10n, 1_200_000n, 400_000n])
    // 13.000 s: 2 whole seconds and 0.8M skipped: 400,000 − 2·1M < 0, so 0.
    c.beforeBlock(13_000n)
    expect([c.seconds, c.fraction, c.excess]).toEqual([13n, 0n, 0n])
  })

  it('after a block: a new target rescales the excess (same price) and the fraction (rounding up)', () => {
    const c = GasClock.synchronous(10_000n, T, 1n, CFG)
    c.afterBlock(3_000_001n, 2_000_000n, CFG)
    // tick: 3,000,001 gas at 2M/s is 11 s + 1,000,001, excess 1,500,000 (floor of 3,000,001/2); then K 87M → 174M:
    // excess ceil(1.5M·174M/87M) = 3M; rate 4M: fraction ceil(1,000,001·4M/2M) = 2,000,002.
    expect(c.state()).toEqual({ seconds: 11n, fraction: 2_000_002n, rate: 4_000_000n, excess: 3_000_000n, minPrice: 1n })
  })

  it('prices max(minPrice, e^(x / 87T)) and keeps the excess at least what the minimum price needs', () => {
    const c = GasClock.synchronous(0n, T, 1n, CFG)
    c.tick(2n * 87_000_000n) // excess 87M = K: e^1, floored by the fake exponential to 2
    expect(c.price()).toBe(2n)
    // A minimum price of 5 wei raises the excess to the smallest whose price is 5.
    c.afterBlock(0n, T, { minPrice: 5n })
    expect(c.price()).toBe(5n)
    expect(calculatePrice(1n, c.excess, 87_000_000n)).toBe(5n)
    expect(calculatePrice(1n, c.excess - 1n, 87_000_000n)).toBe(4n)
  })

  it("inverts a synchronous block's base fee to an excess (225 gwei: 87M·ln(2.25e11) ≈ 2.2741e9)", () => {
    const k = 87_000_000n
    const x = excessForPrice(225_000_000_000n, k)
    // The largest excess priced at or under it (adjacent excesses differ by ~2,586 wei here).
    expect(calculatePrice(1n, x, k)).toBeLessThanOrEqual(225_000_000_000n)
    expect(calculatePrice(1n, x + 1n, k)).toBeGreaterThan(225_000_000_000n)
    expect(Number(x) / 87e6).toBeCloseTo(Math.log(2.25e11), 6)
    expect(excessForPrice(1n, k)).toBe(0n)
  })

  it('compares gas time with a wall time in ms', () => {
    const c = GasClock.synchronous(10_000n, T, 1n, CFG)
    c.tick(1_000_000n) // 10.5 s
    expect(compareGasTimeMs(c.state(), 10_500n)).toBe(0)
    expect(compareGasTimeMs(c.state(), 10_499n)).toBe(1)
    expect(compareGasTimeMs(c.state(), 10_501n)).toBe(-1)
    expect(compareGasTimeMs(c.state(), 11_000n)).toBe(-1)
  })
})

describe("Helicon's parameters", () => {
  it('charges at least ceil(gasLimit / 2)', () => {
    expect(minGasCharge(100_000n)).toBe(50_000n)
    expect(minGasCharge(21_001n)).toBe(10_501n)
  })

  it('limits a block to Tau·λ = 10 seconds of gas at its rate: 20M at T = 1M', () => {
    expect(safeMaxBlockSize(2_000_000n)).toBe(20_000_000n)
  })

  it("moves the exponents toward this node's vote by at most 2^15 (target) and 288230376151711744/3600 (price) a block", () => {
    expect(nextTargetExponent(0n, undefined)).toBe(0n)
    expect(nextTargetExponent(0n, 1_000_000n)).toBe(32_768n)
    expect(nextTargetExponent(100n, 50n)).toBe(50n)
    expect(nextPriceExponent(0n, 10n ** 18n)).toBe(80_063_993_375_475n)
    expect(minPriceOf(0n)).toBe(1n)
    expect(desiredPriceExponent(1n)).toBe(0n)
    // 2 wei: the smallest p with e^(p / 415828534307635077) ≥ 2, about 415828534307635077·ln 2.
    const p = desiredPriceExponent(2n)
    expect(minPriceOf(p)).toBe(2n)
    expect(minPriceOf(p - 1n)).toBe(1n)
    expect(Number(p) / 4.15828534307635e17).toBeCloseTo(Math.LN2, 3)
  })
})

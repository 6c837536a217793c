// Expected values are ported from avalanchego v1.14.2 Go test tables (file and table named per block)
// or derived by hand where noted.
import { describe, expect, it } from 'vitest'

import {
  FEE_STATE_SIZE,
  INITIAL_DELAY_EXCESS,
  MAX_DELAY_EXCESS,
  MAX_DELAY_EXCESS_DIFF,
  MAX_TARGET_EXCESS,
  MAX_TARGET_EXCESS_DIFF,
  MAX_UINT64,
  MIN_MAX_CAPACITY,
  MIN_MAX_PER_SECOND,
  MIN_TARGET_PER_SECOND,
  TARGET_CONVERSION,
  TARGET_TO_MAX_CAPACITY,
  ZERO_FEE_STATE,
  advanceSeconds,
  advanceTime,
  calculatePrice,
  consumeGas,
  decodeFeeState,
  desiredDelayExcess,
  desiredTargetExcess,
  encodeFeeState,
  feeStateAfterBlock,
  gasPrice,
  maxCapacity,
  minBuildableCapacity,
  minDelayMs,
  nextHeaderFees,
  nextMinDelayExcess,
  parentFeeState,
  targetPerSecond,
  updateTargetExcess,
  updateTargetExcessToward,
  type FeeState,
} from '../../../../src/engine/rules/feeState.js'

const nAVAX = 1_000_000_000n
const Q = MAX_TARGET_EXCESS_DIFF
const st = (capacity: bigint, excess: bigint, targetExcess: bigint): FeeState => ({ capacity, excess, targetExcess })

describe('constants (vms/evm/acp176/acp176.go)', () => {
  it('match avalanchego', () => {
    expect(TARGET_CONVERSION).toBe(33_554_432n)
    expect(MIN_MAX_PER_SECOND).toBe(2_000_000n)
    expect(MIN_MAX_CAPACITY).toBe(10_000_000n)
    expect(TARGET_TO_MAX_CAPACITY).toBe(10n)
    expect(FEE_STATE_SIZE).toBe(24)
  })
})

// acp176_test.go readerTests: name, excess, targetExcess, target, maxCapacity, gasPrice, skipDesired
const readerTests: Array<[string, bigint, bigint, bigint, bigint, bigint, boolean]> = [
  ['zero', 0n, 0n, MIN_TARGET_PER_SECOND, MIN_MAX_CAPACITY, 1n, false],
  ['almost_excess_change', 60_303_808n, 33n, MIN_TARGET_PER_SECOND, MIN_MAX_CAPACITY, 2n, true],
  ['small_excess_change', 60_303_868n, 34n, 1_000_001n, 10n * 1_000_001n, 2n, false],
  ['max_initial_excess_change', 95_672_652n, Q, 1_000_977n, 10n * 1_000_977n, 3n, true],
  ['current_target', 2_704_386_192n, 13_605_152n, 1_500_000n, 15_000_000n, nAVAX + 2n, false],
  ['3m_target', 6_610_721_802n, 36_863_312n, 3_000_000n, 30_000_000n, 100n * nAVAX + 4n, false],
  ['6m_target', 13_221_443_604n, 60_121_472n, 6_000_000n, 60_000_000n, 100n * nAVAX + 4n, false],
  ['10m_target', 22_035_739_340n, 77_261_935n, 10_000_000n, 100_000_000n, 100n * nAVAX + 5n, false],
  ['100m_target', 220_357_393_400n, 154_523_870n, 100_000_000n, 1_000_000_000n, 100n * nAVAX + 5n, false],
  ['low_1b_target', 2_203_573_881_110n, 231_785_804n, 1_000_000_000n - 24n, 10n * (1_000_000_000n - 24n), 100n * nAVAX, false],
  ['high_1b_target', 2_203_573_947_217n, 231_785_805n, 1_000_000_006n, 10n * 1_000_000_006n, 100n * nAVAX, false],
  ['largest_max_capacity', MAX_UINT64, 947_688_691n, 1_844_674_384_269_701_322n, 18_446_743_842_697_013_220n, 2n, false],
  ['largest_int64_target', MAX_UINT64, 1_001_692_466n, 9_223_371_923_824_614_091n, MAX_UINT64, 2n, false],
  ['second_largest_uint64_target', MAX_UINT64, 1_024_950_626n, 18_446_743_882_783_898_031n, MAX_UINT64, 2n, false],
  ['largest_uint64_target', MAX_UINT64, MAX_TARGET_EXCESS, MAX_UINT64, MAX_UINT64, 2n, false],
  ['largest_excess', MAX_UINT64, MAX_UINT64, MAX_UINT64, MAX_UINT64, 2n, true],
]

describe.each(readerTests)('reader %s (acp176_test.go readerTests)', (_name, excess, te, target, maxCap, price, skip) => {
  it('targetPerSecond, maxCapacity, gasPrice', () => {
    expect(targetPerSecond(te)).toBe(target)
    expect(maxCapacity(te)).toBe(maxCap)
    expect(gasPrice(st(0n, excess, te))).toBe(price)
  })
  // Upstream skips the inverse where several target excesses give the same target (its skipTestDesiredTargetExcess).
  it.skipIf(skip)(`desiredTargetExcess inverts targetPerSecond${skip ? ' (skipped: several target excesses give this target, so the inverse returns another; skipped upstream too)' : ''}`, () => {
    expect(desiredTargetExcess(target)).toBe(te)
  })
})

describe('calculatePrice (vms/components/gas/gas.go)', () => {
  it('is the EIP-4844 fake exponential', () => {
    expect(calculatePrice(1n, 0n, 1n)).toBe(1n)
    // by hand: accumulator 1e6, 1e6, 5e5, 166666, 41666, 8333, 1388, 198, 24, 2 → 2718277 / 1000 = 2718 ≈ 1000·e
    expect(calculatePrice(1000n, 1000n, 1000n)).toBe(2718n)
    expect(calculatePrice(1n, MAX_UINT64, 1n)).toBe(MAX_UINT64)
  })
})

// acp176_test.go advanceSecondsTests: initial, seconds, expected
const advanceSecondsTests: Array<[string, FeeState, bigint, FeeState]> = [
  ['0_seconds', st(0n, 2_000_000n, 13_605_152n), 0n, st(0n, 2_000_000n, 13_605_152n)],
  ['1_seconds', st(0n, 2_000_000n, 13_605_152n), 1n, st(3_000_000n, 500_000n, 13_605_152n)],
  ['5_seconds', st(0n, 15_000_000n, 13_605_152n), 5n, st(15_000_000n, 7_500_000n, 13_605_152n)],
  ['0_seconds_over_capacity', st(16_000_000n, 2_000_000n, 13_605_152n), 0n, st(15_000_000n, 2_000_000n, 13_605_152n)],
  ['max_capacity_overflow', st(0n, MAX_UINT64, 947_688_692n), 1n, st(3_689_348_878_490_565_692n, MAX_UINT64 - 3_689_348_878_490_565_692n / 2n, 947_688_692n)],
  ['max_rate_overflow', st(0n, MAX_UINT64, 1_001_692_467n), 1n, st(MAX_UINT64, 9_223_371_875_007_030_354n, 1_001_692_467n)],
]

describe.each(advanceSecondsTests)('advanceSeconds %s (acp176_test.go)', (_n, initial, seconds, expected) => {
  it('matches', () => expect(advanceSeconds(initial, seconds)).toEqual(expected))
})

// acp176_test.go advanceMillisecondsTests: initial, milliseconds, expected
const advanceMsTests: Array<[string, FeeState, bigint, FeeState]> = [
  ['0_ms', st(0n, 2_000_000n, 13_605_152n), 0n, st(0n, 2_000_000n, 13_605_152n)],
  ['1000_ms', st(0n, 2_000_000n, 13_605_152n), 1000n, st(3_000_000n, 500_000n, 13_605_152n)],
  ['5000_ms', st(0n, 15_000_000n, 13_605_152n), 5000n, st(15_000_000n, 7_500_000n, 13_605_152n)],
  ['0_ms_over_capacity', st(16_000_000n, 2_000_000n, 13_605_152n), 0n, st(15_000_000n, 2_000_000n, 13_605_152n)],
  ['max_capacity_overflow', st(0n, MAX_UINT64, 947_688_692n), 1000n, st(3_689_348_878_490_564_000n, MAX_UINT64 - 3_689_348_878_490_564_000n / 2n, 947_688_692n)],
  ['max_rate_overflow', st(0n, MAX_UINT64, 1_001_692_467n), 1000n, st(MAX_UINT64, 9_223_371_875_007_030_615n, 1_001_692_467n)],
  ['1_millisecond', st(0n, 2_000_000n, 13_605_152n), 1n, st(3_000n, 1_998_500n, 13_605_152n)],
  ['target_rounds_down', st(0n, 2_000_000n, 13_627_491n), 999n, st(2_997_000n, 501_500n, 13_627_491n)],
]

describe.each(advanceMsTests)('advanceTime (ms) %s (acp176_test.go advanceMillisecondsTests)', (_n, initial, ms, expected) => {
  it('matches', () => expect(advanceTime(initial, ms)).toEqual(expected))
})

describe('consumeGas (acp176_test.go consumeGasTests)', () => {
  const initial = st(1_000_000n, 2_000_000n, 0n)
  it('no_gas_used', () => expect(consumeGas(initial, 0n)).toEqual(initial))
  it('some_gas_used', () => expect(consumeGas(initial, 100_000n)).toEqual(st(900_000n, 2_100_000n, 0n)))
  it('some_extra_gas_used', () => expect(consumeGas(initial, 0n, 100_000n)).toEqual(st(900_000n, 2_100_000n, 0n)))
  it('both_gas_used', () => expect(consumeGas(initial, 10_000n, 100_000n)).toEqual(st(890_000n, 2_110_000n, 0n)))
  it('gas_used_capacity_exceeded', () => expect(() => consumeGas(initial, 1_000_001n)).toThrow(/insufficient capacity/))
  it('massive_extra_gas_used', () => expect(() => consumeGas(initial, 0n, 1n << 64n)).toThrow(/insufficient capacity/))
  it('extra_gas_used_capacity_exceeded', () => expect(() => consumeGas(initial, 0n, 1_000_001n)).toThrow(/insufficient capacity/))
  it('does not mutate its input', () => {
    consumeGas(initial, 5n)
    expect(initial).toEqual(st(1_000_000n, 2_000_000n, 0n))
  })
  it('saturates excess at MaxUint64 (vms/components/gas/state.go)', () => {
    expect(consumeGas(st(10n, MAX_UINT64 - 1n, 0n), 5n)).toEqual(st(5n, MAX_UINT64, 0n))
  })
})

// acp176_test.go updateTargetExcessTests: initial, desiredTargetExcess, expected
const updateTests: Array<[string, FeeState, bigint, FeeState]> = [
  ['no_change', st(0n, 2_000_000n, 0n), 0n, st(0n, 2_000_000n, 0n)],
  ['max_increase', st(0n, 2_000_000n, 0n), Q + 1n, st(0n, 2_001_954n, Q)],
  ['inverse_max_increase', st(0n, 2_001_954n, Q), 0n, st(0n, 2_000_000n, 0n)],
  ['max_decrease', st(0n, 2_000_000_000n, 2n * Q), 0n, st(0n, 1_998_047_816n, Q)],
  ['inverse_max_decrease', st(0n, 1_998_047_816n, Q), 2n * Q, st(0n, 1_999_999_999n, 2n * Q)],
  ['reduce_capacity', st(10_019_550n, 2_000_000_000n, 2n * Q), 0n, st(10_009_770n, 1_998_047_816n, Q)],
  ['overflow_max_capacity', st(MAX_UINT64, 2_000_000_000n, MAX_TARGET_EXCESS), 0n, st(MAX_UINT64, 1_998_047_867n, MAX_TARGET_EXCESS - Q)],
  ['overflow_excess', st(MAX_UINT64, MAX_UINT64, MAX_TARGET_EXCESS - Q), MAX_TARGET_EXCESS, st(MAX_UINT64, MAX_UINT64, MAX_TARGET_EXCESS)],
]

describe.each(updateTests)('updateTargetExcessToward %s (acp176_test.go)', (_n, initial, desired, expected) => {
  it('matches', () => expect(updateTargetExcessToward(initial, desired)).toEqual(expected))
})

describe('updateTargetExcess', () => {
  it('keeps the state without a desired target', () => {
    const s = st(1n, 2n, 3n)
    expect(updateTargetExcess(s)).toEqual(s)
  })
  it('steps by at most Q toward the desired target per second', () => {
    // desiredTargetExcess(1.5M) = 13_605_152 (readerTests current_target); one block moves Q
    expect(updateTargetExcess(st(0n, 0n, 0n), 1_500_000n).targetExcess).toBe(Q)
    expect(updateTargetExcess(st(0n, 0n, 13_605_152n - 5n), 1_500_000n).targetExcess).toBe(13_605_152n)
  })
})

describe('encode/decode (acp176_test.go parseTests)', () => {
  it('insufficient_length', () => expect(() => decodeFeeState(new Uint8Array(FEE_STATE_SIZE - 1))).toThrow(/insufficient length for fee state/))
  it('zero_state', () => expect(decodeFeeState(new Uint8Array(FEE_STATE_SIZE))).toEqual(ZERO_FEE_STATE))
  it('truncate_bytes', () => {
    const b = new Uint8Array(FEE_STATE_SIZE + 1)
    b[FEE_STATE_SIZE] = 1
    expect(decodeFeeState(b)).toEqual(ZERO_FEE_STATE)
  })
  it('endianess', () => {
    const b = Uint8Array.from([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28])
    const s = st(0x0102030405060708n, 0x1112131415161718n, 0x2122232425262728n)
    expect(decodeFeeState(b)).toEqual(s)
    expect(encodeFeeState(s)).toEqual(b)
  })
  it('reads from a subarray offset', () => {
    const buf = new Uint8Array(40)
    buf.set(encodeFeeState(st(7n, 8n, 9n)), 10)
    expect(decodeFeeState(buf.subarray(10))).toEqual(st(7n, 8n, 9n))
  })
  it('rejects values outside uint64', () => expect(() => encodeFeeState(st(-1n, 0n, 0n))).toThrow(RangeError))
  it('parentFeeState ignores the genesis extraData', () => {
    expect(parentFeeState(Uint8Array.of(0), 0n)).toEqual(ZERO_FEE_STATE)
    expect(parentFeeState(encodeFeeState(st(1n, 2n, 3n)), 5n)).toEqual(st(1n, 2n, 3n))
  })
})

// customheader/base_fee_test.go TestBaseFee granite rows: parent number 1, time 0,
// extra = {excess 2_704_386_192, targetExcess 13_605_152}
describe('nextHeaderFees (customheader/base_fee_test.go, gas_limit_test.go)', () => {
  const parent = st(0n, 2_704_386_192n, 13_605_152n)
  it.each([
    ['granite_decrease', 1000n, 988_571_555n],
    ['granite_partial_second', 500n, 994_269_358n],
    ['granite_1.25_seconds', 1250n, 985_734_910n],
  ])('%s', (_n, timeMs, baseFee) => {
    const got = nextHeaderFees(parent, 0n, timeMs)
    expect(got.baseFee).toBe(baseFee)
    expect(got.gasLimit).toBe(15_000_000n)
  })
  it('fortuna_decrease (whole seconds)', () => {
    expect(nextHeaderFees(parent, 0n, 1000n, false).baseFee).toBe(988_571_555n)
    // pre-Granite only whole seconds count: 999 ms after a block at t=0 s is still second 0
    expect(nextHeaderFees(parent, 0n, 999n, false).baseFee).toBe(nextHeaderFees(parent, 0n, 0n).baseFee)
  })
  it('granite_genesis_block / fortuna_initial_max_capacity', () => {
    const got = nextHeaderFees(ZERO_FEE_STATE, 0n, 0n)
    expect(got).toEqual({ state: ZERO_FEE_STATE, baseFee: 1n, gasLimit: MIN_MAX_CAPACITY })
  })
  it('gas limit is the max capacity, not the available capacity', () => {
    // by hand: 1500 ms after genesis, capacity = 2·1000 gas/ms · 1500 = 3M (gas_limit_test granite_uses_milliseconds)
    const got = nextHeaderFees(ZERO_FEE_STATE, 0n, 1500n)
    expect(got.state.capacity).toBe(3_000_000n)
    expect(got.gasLimit).toBe(10_000_000n)
    expect(() => consumeGas(got.state, MIN_MAX_PER_SECOND + 500n)).not.toThrow()
  })
  it('rejects a child older than its parent', () => {
    expect(() => nextHeaderFees(parent, 1000n, 999n)).toThrow(/invalid timestamp/)
  })
  it('idle local chain: capacity refills to 10M and the base fee is 1 wei', () => {
    const got = nextHeaderFees(st(0n, 50_000_000n, 0n), 0n, 60_000n)
    expect(got).toEqual({ state: st(10_000_000n, 0n, 0n), baseFee: 1n, gasLimit: 10_000_000n })
  })
})

describe('feeStateAfterBlock', () => {
  it('advances, consumes gasUsed + extDataGasUsed, then moves the target', () => {
    // by hand: 5 s after the parent, capacity 2000 gas/ms · 5000 = 10M (= C), excess 0 → consume 21_000 + 11_230
    expect(feeStateAfterBlock(ZERO_FEE_STATE, 0n, 5000n, 21_000n, 11_230n)).toEqual(st(9_967_770n, 32_230n, 0n))
    expect(feeStateAfterBlock(ZERO_FEE_STATE, 0n, 2000n, 0n, 0n, 1_500_000n).targetExcess).toBe(Q)
  })
  it('throws when the block uses more than the capacity', () => {
    expect(() => feeStateAfterBlock(ZERO_FEE_STATE, 0n, 1000n, 2_000_001n)).toThrow(/insufficient capacity/)
  })
  it('minBuildableCapacity (miner/worker.go)', () => {
    expect(minBuildableCapacity(10_000_000n)).toBe(8_000_000n)
    expect(minBuildableCapacity(100_000_000n)).toBe(15_000_000n)
  })
})

// vms/evm/acp226/acp226_test.go readerTests and updateExcessTests
describe('ACP-226 min delay (acp226_test.go)', () => {
  it.each([
    ['zero', 0n, 1n, false],
    ['small_excess_change', 726_820n, 2n, false],
    ['max_initial_excess_change', MAX_DELAY_EXCESS_DIFF, 1n, true],
    ['100ms_delay', 4_828_872n, 100n, false],
    ['500ms_delay', 6_516_490n, 500n, false],
    ['1000ms_delay', 7_243_307n, 1000n, false],
    ['2000ms_delay_initial', INITIAL_DELAY_EXCESS, 2000n, false],
    ['5000ms_delay', 8_930_925n, 5000n, false],
    ['60000ms_delay', 11_536_538n, 60000n, false],
    ['largest_int64_delay', 45_789_502n, 9_223_368_741_047_657_702n, false],
    ['second_largest_uint64_delay', MAX_DELAY_EXCESS - 1n, 18_446_728_723_565_431_225n, false],
    ['largest_uint64_delay', MAX_DELAY_EXCESS, MAX_UINT64, false],
    ['largest_excess_delay', MAX_UINT64, MAX_UINT64, true],
  ])('%s', (_n, excess, delay, skipDesired) => {
    expect(minDelayMs(excess)).toBe(delay)
    if (!skipDesired) expect(desiredDelayExcess(delay)).toBe(excess)
  })
  it.each([
    ['no_change', 0n, 0n, 0n],
    ['max_increase', 0n, 201n, 200n],
    ['inverse_max_increase', 200n, 0n, 0n],
    ['max_decrease', 400n, 0n, 200n],
    ['inverse_max_decrease', 200n, 400n, 400n],
    ['small_increase', 50n, 100n, 100n],
  ])('update %s', (_n, initial, desired, expected) => {
    expect(nextMinDelayExcess(initial, desired)).toBe(expected)
  })
  it('keeps the parent value without a min-delay-target', () => {
    expect(nextMinDelayExcess(INITIAL_DELAY_EXCESS)).toBe(INITIAL_DELAY_EXCESS)
  })
})

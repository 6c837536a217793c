/**
 * ACP-176 dynamic fee state (Fortuna+, millisecond-granular from Granite) and the ACP-226 minimum
 * block delay, as coreth applies them: avalanchego `vms/evm/acp176/acp176.go`,
 * `vms/evm/acp226/acp226.go`, `vms/components/gas/{gas,state}.go`,
 * `graft/coreth/plugin/evm/customheader/{dynamic_fee_state,base_fee,gas_limit}.go` (v1.14.2).
 * All values are uint64 in Go: bigint here, with the same saturating arithmetic.
 * Pure functions; states are never mutated.
 */
import { EngineError } from '../base/errors.js'

/** 2^64 − 1: Go's math.MaxUint64, the saturation value of every computation below. */
export const MAX_UINT64 = (1n << 64n) - 1n

/** P: minimum target gas per second (acp176.go MinTargetPerSecond). */
export const MIN_TARGET_PER_SECOND = 1_000_000n
/** Q: max change of targetExcess per block (acp176.go MaxTargetExcessDiff). */
export const MAX_TARGET_EXCESS_DIFF = 1n << 15n
/** Rate at which the target can change per block (acp176.go MaxTargetChangeRate). */
export const MAX_TARGET_CHANGE_RATE = 1024n
/** D = MaxTargetChangeRate · MaxTargetExcessDiff = 2^25 (acp176.go TargetConversion). */
export const TARGET_CONVERSION = MAX_TARGET_CHANGE_RATE * MAX_TARGET_EXCESS_DIFF
/** M: minimum gas price, 1 wei (acp176.go MinGasPrice). */
export const MIN_GAS_PRICE = 1n
/** Seconds to refill capacity from empty (acp176.go TimeToFillCapacity). */
export const TIME_TO_FILL_CAPACITY = 5n
/** Max gas per second = TargetToMax · target (acp176.go TargetToMax). */
export const TARGET_TO_MAX = 2n
/** K = 87 · target; 87 ≈ 60/ln 2, so the price at most doubles every ~60 s (acp176.go TargetToPriceUpdateConversion). */
export const TARGET_TO_PRICE_UPDATE_CONVERSION = 87n
/** C = 10 · target (acp176.go TargetToMaxCapacity). */
export const TARGET_TO_MAX_CAPACITY = TARGET_TO_MAX * TIME_TO_FILL_CAPACITY
/** 2,000,000 (acp176.go MinMaxPerSecond). */
export const MIN_MAX_PER_SECOND = MIN_TARGET_PER_SECOND * TARGET_TO_MAX
/** 10,000,000: the gas limit at the default target (acp176.go MinMaxCapacity). */
export const MIN_MAX_CAPACITY = MIN_MAX_PER_SECOND * TIME_TO_FILL_CAPACITY
/** Size of the header extraData fee-state prefix, 3 × u64 (acp176.go StateSize). */
export const FEE_STATE_SIZE = 24
/** D · ln(MaxUint64 / P) + 1: upper bound of the DesiredTargetExcess search (acp176.go maxTargetExcess). */
export const MAX_TARGET_EXCESS = 1_024_950_627n

/** Minimum block delay in ms, M (acp226.go MinDelayMilliseconds). */
export const MIN_DELAY_MILLISECONDS = 1n
/** D = 2^20 (acp226.go ConversionRate). */
export const DELAY_CONVERSION_RATE = 1n << 20n
/** Q: max change of minDelayExcess per block (acp226.go MaxDelayExcessDiff). */
export const MAX_DELAY_EXCESS_DIFF = 200n
/** ≈2000 ms delay; the genesis value and the default (acp226.go InitialDelayExcess). */
export const INITIAL_DELAY_EXCESS = 7_970_124n
/** Upper bound of the DesiredDelayExcess search (acp226.go maxDelayExcess). */
export const MAX_DELAY_EXCESS = 46_516_320n
/** Cortina gas limit; caps the capacity a builder waits for (upgrade/cortina GasLimit, miner/worker.go). */
export const CORTINA_GAS_LIMIT = 15_000_000n

/** ACP-176 state carried in the first 24 bytes of a Fortuna+ header's extraData (acp176.go State). */
export interface FeeState {
  capacity: bigint
  excess: bigint
  targetExcess: bigint
}

/** The state coreth starts from when the parent is the genesis block (dynamic_fee_state.go). */
export const ZERO_FEE_STATE: Readonly<FeeState> = Object.freeze({ capacity: 0n, excess: 0n, targetExcess: 0n })

/** The child of `parent` as seen by the fee logic. */
export interface NextHeaderFees {
  /** Fee state before the child's gas is consumed; `state.capacity` is the gas the child may use. */
  state: FeeState
  /** Header baseFee of the child (wei). */
  baseFee: bigint
  /** Header gasLimit of the child: the max capacity, not the available capacity (gas_limit.go). */
  gasLimit: bigint
}

function checkUint64(name: string, v: bigint): void {
  if (v < 0n || v > MAX_UINT64) throw new RangeError(`${name} out of uint64 range: ${v}`)
}

function mulWithUpperBound(a: bigint, b: bigint): bigint {
  const p = a * b
  return p > MAX_UINT64 ? MAX_UINT64 : p
}

function addOverTime(g: bigint, rate: bigint, duration: bigint): bigint {
  const total = g + rate * duration
  return total > MAX_UINT64 ? MAX_UINT64 : total
}

function subOverTime(g: bigint, rate: bigint, duration: bigint): bigint {
  const total = g - rate * duration
  return total < 0n ? 0n : total
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

/** Moves `current` toward `desired` by at most `maxDiff` (acp176.go targetExcess, acp226.go calculateDelayExcess). */
function moveToward(current: bigint, desired: bigint, maxDiff: bigint): bigint {
  const diff = current < desired ? desired - current : current - desired
  const change = minBig(diff, maxDiff)
  return current < desired ? current + change : current - change
}

/**
 * A search's answers by its argument: a revert to genesis, every block with `gas-target` and every
 * builder ask for the same one or two arguments, and one search is ~25 fake exponentials.
 */
function memoised(fn: (arg: bigint) => bigint): (arg: bigint) => bigint {
  const answers = new Map<bigint, bigint>()
  return (arg) => {
    let answer = answers.get(arg)
    if (answer === undefined) {
      answer = fn(arg)
      if (answers.size < 64) answers.set(arg, answer)
    }
    return answer
  }
}

/** Go's sort.Search over [0, n): the smallest i with pred(i) true, or n. */
function search(n: bigint, pred: (i: bigint) => boolean): bigint {
  let lo = 0n
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >> 1n
    if (pred(mid)) hi = mid
    else lo = mid + 1n
  }
  return lo
}

/**
 * minPrice · e^(excess / conversion) by EIP-4844's fake exponential, saturating at MaxUint64
 * (avalanchego `vms/components/gas/gas.go` CalculatePrice).
 */
export function calculatePrice(minPrice: bigint, excess: bigint, conversion: bigint): bigint {
  if (conversion === 0n) return 0n // Go's uint256 division by zero yields 0
  const maxOutput = conversion * MAX_UINT64
  let output = 0n
  let accum = minPrice * conversion
  for (let i = 1n; accum > 0n; i++) {
    output += accum
    if (output >= maxOutput) return MAX_UINT64
    accum = (accum * excess) / conversion / i
  }
  return output / conversion
}

/** Header extraData prefix: capacity ‖ excess ‖ targetExcess, u64 big-endian each (acp176.go Bytes). */
export function encodeFeeState(s: FeeState): Uint8Array {
  const out = new Uint8Array(FEE_STATE_SIZE)
  const view = new DataView(out.buffer)
  const fields: Array<[string, bigint]> = [
    ['capacity', s.capacity],
    ['excess', s.excess],
    ['targetExcess', s.targetExcess],
  ]
  fields.forEach(([name, v], i) => {
    checkUint64(name, v)
    view.setBigUint64(i * 8, v)
  })
  return out
}

/** Reads the fee state from a header's extraData; trailing bytes (predicate results) are ignored (acp176.go ParseState). */
export function decodeFeeState(extra: Uint8Array): FeeState {
  if (extra.length < FEE_STATE_SIZE) {
    throw new EngineError(`insufficient length for fee state: expected at least ${FEE_STATE_SIZE} bytes but got ${extra.length} bytes`)
  }
  const view = new DataView(extra.buffer, extra.byteOffset, FEE_STATE_SIZE)
  return { capacity: view.getBigUint64(0), excess: view.getBigUint64(8), targetExcess: view.getBigUint64(16) }
}

/** Fee state a child starts from: zero after the genesis block, else the parent's extraData (dynamic_fee_state.go). */
export function parentFeeState(parentExtra: Uint8Array, parentNumber: bigint): FeeState {
  return parentNumber === 0n ? { ...ZERO_FEE_STATE } : decodeFeeState(parentExtra)
}

/** targetPerSecond's last answer: a chain's target excess moves rarely, and the fake exponential's series was a tenth of a send's work. */
let lastTarget: { excess: bigint; target: bigint } | undefined

/** T = P · e^(targetExcess / D) gas per second (acp176.go Target). */
export function targetPerSecond(targetExcess: bigint): bigint {
  if (lastTarget?.excess !== targetExcess) lastTarget = { excess: targetExcess, target: calculatePrice(MIN_TARGET_PER_SECOND, targetExcess, TARGET_CONVERSION) }
  return lastTarget.target
}

/** C = 10 · T, saturating (acp176.go MaxCapacity). */
export function maxCapacity(targetExcess: bigint): bigint {
  return mulWithUpperBound(targetPerSecond(targetExcess), TARGET_TO_MAX_CAPACITY)
}

/** Base fee in wei: M · e^(excess / (87 · T)), at least 1 wei (acp176.go GasPrice). */
export function gasPrice(state: FeeState): bigint {
  const k = mulWithUpperBound(targetPerSecond(state.targetExcess), TARGET_TO_PRICE_UPDATE_CONVERSION)
  return calculatePrice(MIN_GAS_PRICE, state.excess, k)
}

/** Fortuna (pre-Granite) time step in whole seconds: capacity += 2T·s (≤ C), excess −= T·s (acp176.go AdvanceSeconds). */
export function advanceSeconds(state: FeeState, seconds: bigint): FeeState {
  checkUint64('seconds', seconds)
  const target = targetPerSecond(state.targetExcess)
  const maxPerSecond = mulWithUpperBound(target, TARGET_TO_MAX)
  const cap = mulWithUpperBound(maxPerSecond, TIME_TO_FILL_CAPACITY)
  return {
    capacity: minBig(addOverTime(state.capacity, maxPerSecond, seconds), cap),
    excess: subOverTime(state.excess, target, seconds),
    targetExcess: state.targetExcess,
  }
}

/**
 * Granite time step in milliseconds (acp176.go AdvanceMilliseconds): the per-ms rates are
 * floor(T/1000) and 2·floor(T/1000), while the cap C still comes from the per-second rate.
 */
export function advanceTime(state: FeeState, elapsedMs: bigint): FeeState {
  checkUint64('elapsedMs', elapsedMs)
  const target = targetPerSecond(state.targetExcess)
  const targetPerMs = target / 1000n
  const maxPerMs = targetPerMs * TARGET_TO_MAX
  const cap = mulWithUpperBound(mulWithUpperBound(target, TARGET_TO_MAX), TIME_TO_FILL_CAPACITY)
  return {
    capacity: minBig(addOverTime(state.capacity, maxPerMs, elapsedMs), cap),
    excess: subOverTime(state.excess, targetPerMs, elapsedMs),
    targetExcess: state.targetExcess,
  }
}

/**
 * Consumes `gas` (+ `extraGas`, the block's extDataGasUsed) from capacity and adds it to excess,
 * excess saturating at MaxUint64; throws "insufficient capacity" (acp176.go ConsumeGas, gas/state.go).
 */
export function consumeGas(state: FeeState, gas: bigint, extraGas = 0n): FeeState {
  checkUint64('gas', gas)
  if (extraGas < 0n) throw new RangeError(`extraGas out of uint64 range: ${extraGas}`)
  const total = gas + extraGas
  if (total > state.capacity) {
    throw new EngineError(`insufficient capacity: capacity (${state.capacity}) < gas (${total})`)
  }
  const excess = state.excess + total
  return {
    capacity: state.capacity - total,
    excess: excess > MAX_UINT64 ? MAX_UINT64 : excess,
    targetExcess: state.targetExcess,
  }
}

/** Smallest targetExcess whose target is ≥ `target` gas/s, by binary search (acp176.go DesiredTargetExcess). */
export const desiredTargetExcess = memoised((target) => search(MAX_TARGET_EXCESS, (guess) => targetPerSecond(guess) >= target))

/**
 * Moves targetExcess toward `desired` by at most Q, rescales excess to keep the price constant and
 * caps capacity at the new C (acp176.go UpdateTargetExcess).
 */
export function updateTargetExcessToward(state: FeeState, desired: bigint): FeeState {
  const previousTarget = targetPerSecond(state.targetExcess)
  const targetExcess = moveToward(state.targetExcess, desired, MAX_TARGET_EXCESS_DIFF)
  const newTarget = targetPerSecond(targetExcess)
  const scaled = (state.excess * newTarget) / previousTarget
  return {
    capacity: minBig(state.capacity, mulWithUpperBound(newTarget, TARGET_TO_MAX_CAPACITY)),
    excess: scaled > MAX_UINT64 ? MAX_UINT64 : scaled,
    targetExcess,
  }
}

/** Builder's `gas-target` step; without a desired target the state is kept as is (customheader/dynamic_fee_state.go). */
export function updateTargetExcess(state: FeeState, desiredTargetPerSecond?: bigint): FeeState {
  if (desiredTargetPerSecond === undefined) return { ...state }
  return updateTargetExcessToward(state, desiredTargetExcess(desiredTargetPerSecond))
}

/** Fee state before a child at `timeMs` executes (dynamic_fee_state.go feeStateBeforeBlock); Granite uses ms, Fortuna whole seconds. */
export function feeStateBeforeBlock(parent: FeeState, parentTimeMs: bigint, timeMs: bigint, granite = true): FeeState {
  if (timeMs < parentTimeMs) {
    throw new EngineError(`invalid timestamp: timestamp ${timeMs / 1000n} prior to parent timestamp ${parentTimeMs / 1000n}`)
  }
  return granite ? advanceTime(parent, timeMs - parentTimeMs) : advanceSeconds(parent, timeMs / 1000n - parentTimeMs / 1000n)
}

/** baseFee and gasLimit of a child at `timeMs` (customheader/base_fee.go BaseFee, gas_limit.go GasLimit). */
export function nextHeaderFees(parent: FeeState, parentTimeMs: bigint, timeMs: bigint, granite = true): NextHeaderFees {
  const state = feeStateBeforeBlock(parent, parentTimeMs, timeMs, granite)
  return { state, baseFee: gasPrice(state), gasLimit: maxCapacity(state.targetExcess) }
}

/** The child's own fee state, i.e. its extraData prefix (dynamic_fee_state.go feeStateAfterBlock). */
export function feeStateAfterBlock(parent: FeeState, parentTimeMs: bigint, timeMs: bigint, gasUsed: bigint, extDataGasUsed = 0n, desiredTargetPerSecond?: bigint, granite = true): FeeState {
  const before = feeStateBeforeBlock(parent, parentTimeMs, timeMs, granite)
  return updateTargetExcess(consumeGas(before, gasUsed, extDataGasUsed), desiredTargetPerSecond)
}

/** Capacity a builder waits for before building: min(gasLimit − gasLimit/5, 15M) (miner/worker.go createCurrentEnvironment). */
export function minBuildableCapacity(gasLimit: bigint): bigint {
  return minBig(gasLimit - gasLimit / TIME_TO_FILL_CAPACITY, CORTINA_GAS_LIMIT)
}

/** ACP-226 minimum delay in ms after a block with this minDelayExcess: M · e^(excess / 2^20) (acp226.go Delay). */
export function minDelayMs(delayExcess: bigint): bigint {
  return calculatePrice(MIN_DELAY_MILLISECONDS, delayExcess, DELAY_CONVERSION_RATE)
}

/** Smallest delay excess whose delay is ≥ `delayMs` (acp226.go DesiredDelayExcess; config `min-delay-target`). */
export const desiredDelayExcess = memoised((delayMs) => search(MAX_DELAY_EXCESS, (guess) => minDelayMs(guess) >= delayMs))

/** Child's minDelayExcess: the parent's, moved ≤ 200 toward the desired one if any (customheader/min_delay_excess.go). */
export function nextMinDelayExcess(parentDelayExcess: bigint, desiredDelayExcessValue?: bigint): bigint {
  if (desiredDelayExcessValue === undefined) return parentDelayExcess
  return moveToward(parentDelayExcess, desiredDelayExcessValue, MAX_DELAY_EXCESS_DIFF)
}

/** ACP-176 state a dev chain starts from: the target of `gas-target`, capacity full, no excess. */
export function genesisFeeState(gasTarget: number | undefined): FeeState {
  const targetExcess = desiredTargetExcess(BigInt(gasTarget ?? DEFAULT_GAS_TARGET))
  return { capacity: maxCapacity(targetExcess), excess: 0n, targetExcess }
}

/**
 * Gas per second a development chain targets: 20M gas/s gives 200M-gas blocks and ~40M gas/s
 * sustained, so bursts of thousands of transfers mine at once. coreth starts from the zero fee
 * state (1M gas/s) and moves 32,768 per block; docs/API.md documents this difference.
 */
export const DEFAULT_GAS_TARGET = 20_000_000

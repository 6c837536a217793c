/**
 * Helicon's constants and dynamic parameters (avalanchego v1.15: `vms/saevm/params/params.go`,
 * `vms/saevm/cchain/dynamic/{target,price,math}.go`, `vms/saevm/worstcase/state.go`). The ACP-226
 * delay keeps Granite's functions (feeState.ts); the target exponent is ACP-176's target excess.
 */
import { MAX_TARGET_EXCESS_DIFF, MAX_UINT64, calculatePrice, targetPerSecond } from './feeState.js'
import type { GasPriceConfig } from './gasClock.js'

/** Blocks settle what finished executing at least Tau = 5 s (of gas time) before their own time. */
export const TAU_MS = 5000n
/** λ = 2: a transaction is charged at least half its gas limit; a block holds Tau·λ seconds of gas. */
export const LAMBDA = 2n
const MAX_GAS_SECONDS_PER_BLOCK = (TAU_MS / 1000n) * LAMBDA
/** Closed queue of at most 3 full blocks (MaxFullBlocksInClosedQueue) bounds the safe rate. */
const MAX_SAFE_RATE = MAX_UINT64 / (3n * MAX_GAS_SECONDS_PER_BLOCK)

/** ACP-283: p ↦ e^(p / this) wei (dynamic.PriceExponent conversionRate). */
const PRICE_CONVERSION = 415_828_534_307_635_077n
/** ACP-283: the minimum price moves at most ×2 per 3,600 blocks (dynamic.PriceExponent.Toward). */
const MAX_PRICE_EXPONENT_DIFF = 288_230_376_151_711_744n / 3_600n
/** Upper bound of DesiredPriceExponent's search (MaxUint64 − 37). */
const MAX_PRICE_EXPONENT = MAX_UINT64 - 37n

/** A transaction's charge at least: ceil(gasLimit / λ) (coreth hooks MinimumGasConsumption under Helicon). */
export function minGasCharge(gasLimit: bigint): bigint {
  return (gasLimit + LAMBDA - 1n) / LAMBDA
}

/** The bytes of transactions a block holds at most (saevm params TargetBlockBytes: 2 MiB − 512 KiB). */
const TARGET_BLOCK_BYTES = 1_572_864n

/**
 * The least gas limit a transaction of `size` bytes may carry: its share of a block's bytes no more
 * than its share of the block's gas, ceil(size·blockGasLimit / 1.5 MiB) (saevm txgossip minGasForSize).
 */
export function minGasForSize(size: bigint, blockGasLimit: bigint): bigint {
  if (blockGasLimit === 0n) return MAX_UINT64
  const min = (size * blockGasLimit + TARGET_BLOCK_BYTES - 1n) / TARGET_BLOCK_BYTES
  return min > MAX_UINT64 ? MAX_UINT64 : min
}

/** The block gas limit at a gas rate: min(rate, safe)·Tau·λ (worstcase.SafeMaxBlockSize): 20·T. */
export function safeMaxBlockSize(rate: bigint): bigint {
  return (rate < MAX_SAFE_RATE ? rate : MAX_SAFE_RATE) * MAX_GAS_SECONDS_PER_BLOCK
}

/** ACP-283's minimum gas price of a price exponent, ≥ 1 wei (dynamic.PriceExponent.Price). */
export function minPriceOf(priceExponent: bigint): bigint {
  return calculatePrice(1n, priceExponent, PRICE_CONVERSION)
}

/** The smallest price exponent whose price reaches `price` (dynamic.DesiredPriceExponent; chain config `min-price-target`). */
export function desiredPriceExponent(price: bigint): bigint {
  let lo = 0n
  let hi = MAX_PRICE_EXPONENT
  while (lo < hi) {
    const mid = lo + (hi - lo) / 2n
    if (minPriceOf(mid) >= price) hi = mid
    else lo = mid + 1n
  }
  return lo
}

/** Moves `current` toward `desired` by at most `maxDiff`; no vote keeps it (dynamic.toward). */
function toward(current: bigint, desired: bigint | undefined, maxDiff: bigint): bigint {
  if (desired === undefined) return current
  const diff = current < desired ? desired - current : current - desired
  const change = diff < maxDiff ? diff : maxDiff
  return current < desired ? current + change : current - change
}

export const nextTargetExponent = (parent: bigint, desired: bigint | undefined): bigint => toward(parent, desired, MAX_TARGET_EXCESS_DIFF)
export const nextPriceExponent = (parent: bigint, desired: bigint | undefined): bigint => toward(parent, desired, MAX_PRICE_EXPONENT_DIFF)

/** What the gas clock runs at after a block with these exponents (cchain hooks GasConfigAfter): its target and minimum price. */
export function gasConfigAfter(targetExponent: bigint, priceExponent: bigint): { target: bigint; cfg: GasPriceConfig } {
  return { target: targetPerSecond(targetExponent), cfg: { minPrice: minPriceOf(priceExponent) } }
}

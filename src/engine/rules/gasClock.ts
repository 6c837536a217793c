/**
 * Helicon's gas clock (ACP-194 with ACP-176's continuous pricing): time counted in gas at a rate
 * R = 2·T gas per second, an excess that gas raises by g·(R−T)/R and time lowers by T per second,
 * and the price max(minPrice, e^(excess / (87·T))). avalanchego v1.15 `vms/saevm/proxytime/proxytime.go`
 * and `vms/saevm/gastime/{gastime,acp176,config}.go`, with Go's uint64 arithmetic (bigint here,
 * bounded where Go bounds it). docs/EVM.md "Helicon" says how blocks use it.
 */
import { MAX_UINT64, calculatePrice } from './feeState.js'

/** R = 2·T (gastime.TargetToRate). */
const TARGET_TO_RATE = 2n
/** 87 ≈ 60 / ln 2: the price at most doubles every ~60 s of full blocks (cchain hooks GasConfigAfter). */
export const TARGET_TO_EXCESS_SCALING = 87n
const MAX_TARGET = MAX_UINT64 / TARGET_TO_RATE
const NANOS = 1_000_000_000n

const clampTarget = (t: bigint): bigint => (t < 1n ? 1n : t > MAX_TARGET ? MAX_TARGET : t)
const boundedMul = (a: bigint, b: bigint): bigint => (a * b > MAX_UINT64 ? MAX_UINT64 : a * b)

/** What the clock prices with after a block (gastime.GasPriceConfig; the scaling is always 87 on the C-Chain). */
export interface GasPriceConfig {
  minPrice: bigint
}

/** A clock's state as a block's execution leaves it (what the settled header fields and the store keep). */
export interface GasClockState {
  seconds: bigint
  fraction: bigint
  /** Gas per second: 2·target. */
  rate: bigint
  excess: bigint
  minPrice: bigint
}

export class GasClock {
  private constructor(
    public seconds: bigint,
    public fraction: bigint,
    public rate: bigint,
    public target: bigint,
    public excess: bigint,
    public minPrice: bigint,
  ) {}

  /**
   * A synchronous block's clock (blocks.synchronousGasTime, gastime.New): at the block's time, its
   * header's base fee inverted to an excess, nanosecond rate until the target's rate is set.
   */
  static synchronous(timeMs: bigint, target: bigint, startingPrice: bigint, cfg: GasPriceConfig): GasClock {
    const t = clampTarget(target)
    const excess = excessForPrice(startingPrice, boundedMul(t, TARGET_TO_EXCESS_SCALING))
    const clock = new GasClock(timeMs / 1000n, (timeMs % 1000n) * 1_000_000n, NANOS, t, excess, cfg.minPrice)
    clock.setRate(t * TARGET_TO_RATE)
    clock.enforceMinExcess()
    return clock
  }

  /** A clock from its stored state (hook.SettledGasTime, gastime.FromProxyTime). */
  static from(s: GasClockState): GasClock {
    const clock = new GasClock(s.seconds, s.fraction, s.rate, s.rate / TARGET_TO_RATE, s.excess, s.minPrice)
    clock.enforceMinExcess()
    return clock
  }

  state(): GasClockState {
    return { seconds: this.seconds, fraction: this.fraction, rate: this.rate, excess: this.excess, minPrice: this.minPrice }
  }

  clone(): GasClock {
    return new GasClock(this.seconds, this.fraction, this.rate, this.target, this.excess, this.minPrice)
  }

  /** The price of gas now: the base fee (gastime.Time.Price). */
  price(): bigint {
    const p = calculatePrice(1n, this.excess, boundedMul(this.target, TARGET_TO_EXCESS_SCALING))
    return p > this.minPrice ? p : this.minPrice
  }

  /** Fast-forwards to a block's time, if later (gastime BeforeBlock / FastForwardToTime). */
  beforeBlock(timeMs: bigint): void {
    const nanos = (timeMs % 1000n) * 1_000_000n
    const frac = ceilDiv(nanos * this.rate, NANOS)
    this.fastForwardTo(timeMs / 1000n, frac)
  }

  /** Gas consumed: the clock runs on, the excess grows by g·(R−T)/R (gastime Tick). */
  tick(gas: bigint): void {
    const total = this.fraction + gas
    this.seconds += total / this.rate
    this.fraction = total % this.rate
    const grown = this.excess + (gas * (this.rate - this.target)) / this.rate
    this.excess = grown > MAX_UINT64 ? MAX_UINT64 : grown
  }

  /** After a block's gas: tick, then the next target and minimum price take effect (gastime AfterBlock). */
  afterBlock(used: bigint, target: bigint, cfg: GasPriceConfig): void {
    const t = clampTarget(target)
    this.tick(used)
    this.excess = scaleExcess(this.excess, boundedMul(t, TARGET_TO_EXCESS_SCALING), boundedMul(this.target, TARGET_TO_EXCESS_SCALING))
    this.target = t
    this.setRate(t * TARGET_TO_RATE)
    this.minPrice = cfg.minPrice
    this.enforceMinExcess()
  }

  private fastForwardTo(toSeconds: bigint, toFraction: bigint): void {
    const to = toSeconds + toFraction / this.rate
    const toFrac = toFraction % this.rate
    if (to < this.seconds || (to === this.seconds && toFrac <= this.fraction)) return
    let sec = to - this.seconds
    let num: bigint
    if (this.fraction > toFrac) {
      sec--
      num = this.rate - (this.fraction - toFrac)
    } else {
      num = toFrac - this.fraction
    }
    this.seconds = to
    this.fraction = toFrac
    if (sec === 0n && num === 0n) return
    const T = this.target
    this.excess = this.excess / T >= sec ? this.excess - sec * T : 0n
    const quo = (num * T) / this.rate
    this.excess = this.excess > quo ? this.excess - quo : 0n
    this.enforceMinExcess()
  }

  /** proxytime SetRate: the fraction rescaled, rounding up. */
  private setRate(rate: bigint): void {
    let frac = ceilDiv(this.fraction * rate, this.rate)
    if (frac >= rate) {
      frac -= rate
      this.seconds++
    }
    this.fraction = frac
    this.rate = rate
  }

  private enforceMinExcess(): void {
    const k = boundedMul(this.target, TARGET_TO_EXCESS_SCALING)
    if (calculatePrice(1n, this.excess, k) >= this.minPrice) return
    const min = excessForPrice(this.minPrice, k)
    if (min > this.excess) this.excess = min
  }
}

/** Compares a clock's gas time with a wall time in ms (proxytime Compare against proxytime.Of). */
export function compareGasTimeMs(c: Pick<GasClockState, 'seconds' | 'fraction' | 'rate'>, timeMs: bigint): number {
  const sec = timeMs / 1000n
  if (c.seconds !== sec) return c.seconds > sec ? 1 : -1
  const ours = c.fraction * NANOS
  const theirs = (timeMs % 1000n) * 1_000_000n * c.rate
  return ours === theirs ? 0 : ours > theirs ? 1 : -1
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}

/** The excess keeps its price when K changes: ceil(x·K'/K) (gastime scaleExcess). */
function scaleExcess(x: bigint, newK: bigint, oldK: bigint): bigint {
  const scaled = ceilDiv(x * newK, oldK)
  return scaled > MAX_UINT64 ? MAX_UINT64 : scaled
}

/** The largest excess whose price does not exceed `price` (0 for a price of 1 or less) (gastime excessForPrice). */
export function excessForPrice(price: bigint, k: bigint): bigint {
  if (price <= 1n) return 0n
  let lo = 1n
  let hi = MAX_UINT64
  while (lo < hi) {
    const mid = lo + (hi - lo) / 2n
    if (calculatePrice(1n, mid, k) >= price) hi = mid
    else lo = mid + 1n
  }
  return calculatePrice(1n, lo, k) > price ? lo - 1n : lo
}

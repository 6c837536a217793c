import type { Block } from '../chain/block.js'
import type { BlockClock } from '../rules/blockClock.js'
import type { BlockOverrides } from '../chain/blockOverrides.js'
import type { Chain } from '../chain/chain.js'
import { EngineError } from '../base/errors.js'
import { goFixed6 } from '../../util/goFloat.js'
import { feeStateBeforeBlock, gasPrice, maxCapacity } from '../rules/feeState.js'
import { BlockFeesCache } from './blockFees.js'
import { TipWindow } from './tipWindow.js'
import { SAE_HISTORY_MAX_DEPTH, checkSaePercentiles, saeSuggestedTip } from './saeFees.js'

/** coreth eth/gasprice defaults (ethconfig/config.go). */
const TIP_BLOCKS = 40n
const TIP_PERCENTILE = 40n
const TIP_MAX_AGE_SECONDS = 80n
const MAX_TIP = 150_000_000_000n
const FEE_HISTORY_MAX_DEPTH = 25_000n
/** coreth's price-options-max-tip default (plugin/evm/config/default_config.go). */
const PRICE_OPTIONS_MAX_TIP = 20_000_000_000n

export interface FeeHistory {
  oldestBlock: bigint
  baseFeePerGas?: bigint[]
  gasUsedRatio: number[] | null
  reward?: bigint[][]
}

export interface FeeOracleOptions {
  /** The lowest tip suggested (the pool's price limit). */
  minTip: bigint
  /** Blocks one eth_feeHistory covers; larger counts are clamped. */
  maxBlocks: bigint
  /** Reward percentiles in one eth_feeHistory at most. */
  maxPercentiles: number
}

/**
 * Base fee, tip and fee history as coreth answers them (coreth: internal/ethapi/api.go,
 * eth/gasprice/gasprice.go); under Helicon as saevm's estimator does (saeFees.ts).
 */
export class FeeOracle {
  private tipCache: { head: Block; tip: bigint } | undefined
  private lastTip: bigint
  /** saevm's last suggestion (its estimator starts from 1 wei). */
  private saeTip: bigint | undefined
  private readonly blockFees: BlockFeesCache
  private readonly window = new TipWindow(TIP_BLOCKS)

  constructor(
    private readonly chain: Chain,
    /** The builder's clock and header overrides: "now" is the time the next block would get. */
    private readonly nextBlock: { clock: BlockClock; overrides: BlockOverrides },
    private readonly opts: FeeOracleOptions,
  ) {
    this.lastTip = opts.minTip
    this.blockFees = new BlockFeesCache(chain)
  }

  private nextCache: { head: Block; ms: bigint; baseFee: bigint; gasLimit: bigint; floor: bigint } | undefined

  /** Fee state of a block built now (at the clock's time for it); memoised per head and millisecond (admission asks per tx). */
  private next(): { baseFee: bigint; gasLimit: bigint; floor: bigint } {
    const head = this.chain.head
    const ms = this.nextBlock.clock.propose(head.header).ms
    const c = this.nextCache
    if (c !== undefined && c.head === head && c.ms === ms) return c
    if (this.chain.opts.helicon) {
      const floor = this.chain.executions.worstBaseFeeAt(head, ms > head.header.timeMilliseconds ? ms : head.header.timeMilliseconds)
      this.nextCache = { head, ms, ...this.chain.executions.nextBounds(head), floor }
      return this.nextCache
    }
    const parentMs = head.header.timeMilliseconds
    if (this.chain.subnetEvm !== undefined) {
      // subnet-evm's fee window at the clock's time (its EstimateNextBaseFee: never before the head's).
      const { fees } = this.chain.subnetEvm.nextFees(head, this.chain.delayExcessOf(head), ms > parentMs ? ms : parentMs)
      this.nextCache = { head, ms, baseFee: fees.baseFee ?? 0n, gasLimit: fees.gasLimit, floor: fees.baseFee ?? 0n }
      return this.nextCache
    }
    const state = feeStateBeforeBlock(this.chain.feeStateOf(head), parentMs, ms > parentMs ? ms : parentMs)
    const baseFee = gasPrice(state)
    this.nextCache = { head, ms, baseFee, gasLimit: maxCapacity(state.targetExcess), floor: baseFee }
    return this.nextCache
  }

  /** eth_baseFee: the base fee of a block built now on the head (or the one anvil_setNextBlockBaseFeePerGas set). */
  nextBaseFee(): bigint {
    return this.nextBlock.overrides.baseFee ?? this.next().baseFee
  }

  /**
   * The base fee a transaction's fee cap must reach to go into a block built now: eth_baseFee before
   * Helicon; under it the worst case of that block, where eth_baseFee is the bound at the head's end
   * (before the time since lowers it: 225 gwei on a new chain, whose first block's is 1 wei).
   */
  admissionBaseFee(): bigint {
    return this.nextBlock.overrides.baseFee ?? this.next().floor
  }

  /** Gas limit of the next block (ACP-176 max capacity, or the one evm_setBlockGasLimit set). */
  nextGasLimit(): bigint {
    return this.nextBlock.overrides.gasLimit ?? this.next().gasLimit
  }

  /**
   * eth_maxPriorityFeePerGas: the 40th percentile of the effective tips of the last 40 blocks, back to
   * the first one over 80 s old, clamped to [tx-pool-price-limit, 150 gwei]; the last answer when
   * they hold none (coreth eth/gasprice/gasprice.go). Worked out once per head, from the tip window.
   */
  suggestTipCap(): bigint {
    const head = this.chain.head
    if (this.tipCache?.head === head) return this.tipCache.tip
    if (this.chain.opts.helicon) {
      this.saeTip = saeSuggestedTip(this.blockFees.of(head), (b) => this.blockFees.parentOf(b), this.nextBlock.clock.nowSeconds(), this.saeTip)
      this.tipCache = { head, tip: this.saeTip }
      return this.saeTip
    }
    this.window.moveTo(this.blockFees.of(head), (b) => this.blockFees.parentOf(b))
    let tip = this.window.percentile(TIP_PERCENTILE, this.nextBlock.clock.nowSeconds(), TIP_MAX_AGE_SECONDS) ?? this.lastTip
    if (tip < this.opts.minTip) tip = this.opts.minTip
    if (tip > MAX_TIP) tip = MAX_TIP
    this.lastTip = tip
    this.tipCache = { head, tip }
    return tip
  }

  /**
   * eth_suggestPriceOptions: slow, normal and fast tips, each with a fee cap of twice the next base
   * fee plus the tip. coreth (internal/ethapi/api.coreth.go, its default 95 %, 105 % and 20 gwei):
   * slow max(95 % of the tip capped at 20 gwei, 1 wei), normal the capped tip, fast 105 % of the tip;
   * saevm (sae/rpc/custom.go): slow max(95 %, 1 wei), normal and fast each at least the one before.
   */
  priceOptions(): Record<'slow' | 'normal' | 'fast', { tip: bigint; feeCap: bigint }> {
    const tip = this.suggestTipCap()
    const double = this.nextBaseFee() * 2n
    const max = (a: bigint, b: bigint) => (a > b ? a : b)
    let slow: bigint
    let normal: bigint
    let fast: bigint
    if (this.chain.opts.helicon) {
      slow = max((tip * 95n) / 100n, 1n)
      normal = max(tip, slow)
      fast = max((tip * 105n) / 100n, normal)
    } else {
      const capped = tip < PRICE_OPTIONS_MAX_TIP ? tip : PRICE_OPTIONS_MAX_TIP
      slow = max((capped * 95n) / 100n, 1n)
      normal = capped
      fast = (tip * 105n) / 100n
    }
    const option = (t: bigint) => ({ tip: t, feeCap: double + t })
    return { slow: option(slow), normal: option(normal), fast: option(fast) }
  }

  /** eth_gasPrice: suggested tip plus the next base fee. */
  gasPrice(): bigint {
    return this.suggestTipCap() + this.nextBaseFee()
  }

  /**
   * eth_feeHistory as geth answers it (eth/gasprice/feehistory.go): a count of 0 is an empty answer
   * before any check; percentiles over the limit, out of [0, 100] or not ascending are geth's
   * "invalid reward percentile" (-32000, Go's %f); baseFeePerGas has one entry more than the
   * blocks, the base fee of the block after the newest (the next block's when that is the head).
   * Within coreth's depth limit, and the ratio against the gas limit.
   */
  feeHistory(blockCount: bigint, last: Block, percentiles: number[] | undefined): FeeHistory {
    const headNumber = this.chain.head.header.number
    const lastNumber = last.header.number
    if (this.chain.opts.helicon) {
      // saevm's order: the percentiles, then the depth, then a count of 0.
      if (percentiles !== undefined) checkSaePercentiles(percentiles, this.opts.maxPercentiles)
      if (lastNumber + SAE_HISTORY_MAX_DEPTH < headNumber) {
        throw new EngineError(`requested block is too far behind accepted head: block ${lastNumber} requested, accepted head is ${headNumber} (max depth ${SAE_HISTORY_MAX_DEPTH})`)
      }
      if (blockCount === 0n) return { oldestBlock: 0n, gasUsedRatio: null }
    } else {
      if (blockCount === 0n) return { oldestBlock: 0n, gasUsedRatio: null }
      if (percentiles !== undefined) checkPercentiles(percentiles, this.opts.maxPercentiles)
      if (headNumber > FEE_HISTORY_MAX_DEPTH - 1n && lastNumber < headNumber - (FEE_HISTORY_MAX_DEPTH - 1n)) {
        throw new EngineError(`request beyond historical limit: requested ${lastNumber}, head ${headNumber}`)
      }
    }
    const maxBlocks = this.opts.maxBlocks
    if (blockCount > maxBlocks) blockCount = maxBlocks
    const oldest = lastNumber + 1n >= blockCount ? lastNumber + 1n - blockCount : 0n
    const baseFees: bigint[] = []
    const ratios: number[] = []
    const rewards: bigint[][] = []
    for (let n = oldest; n <= lastNumber; n++) {
      const block = this.chain.blockByNumber(n)!
      baseFees.push(block.header.baseFee)
      ratios.push(block.header.gasLimit === 0n ? 0 : Number(block.header.gasUsed) / Number(block.header.gasLimit))
      if (percentiles !== undefined) rewards.push(this.blockRewards(block, percentiles))
    }
    baseFees.push(lastNumber === headNumber ? this.nextBaseFee() : this.chain.blockByNumber(lastNumber + 1n)!.header.baseFee)
    const out: FeeHistory = { oldestBlock: oldest, baseFeePerGas: baseFees, gasUsedRatio: ratios }
    if (percentiles !== undefined && percentiles.length > 0) out.reward = rewards
    return out
  }

  /** geth's processBlock rewards: the tip at which the block's gas, in tip order, passes each percentile of its gas used. */
  private blockRewards(block: Block, percentiles: number[]): bigint[] {
    if (block.txs.length === 0) return percentiles.map(() => 0n)
    const items = this.blockFees.byTip(block)
    const out: bigint[] = []
    let idx = 0
    let sum = items[0]!.gas
    for (const p of percentiles) {
      const threshold = BigInt(Math.floor((Number(block.header.gasUsed) * p) / 100))
      while (sum < threshold && idx < items.length - 1) {
        idx++
        sum += items[idx]!.gas
      }
      out.push(items[idx]!.tip)
    }
    return out
  }
}

/** geth's reward percentile checks, in its order and words (eth/gasprice/feehistory.go FeeHistory). */
function checkPercentiles(percentiles: number[], max: number): void {
  if (percentiles.length > max) throw new EngineError(`invalid reward percentile: over the query limit ${max}`)
  percentiles.forEach((p, i) => {
    if (p < 0 || p > 100) throw new EngineError(`invalid reward percentile: ${goFixed6(p)}`)
    const prev = percentiles[i - 1]
    if (prev !== undefined && p <= prev) throw new EngineError(`invalid reward percentile: #${i - 1}:${goFixed6(prev)} >= #${i}:${goFixed6(p)}`)
  })
}

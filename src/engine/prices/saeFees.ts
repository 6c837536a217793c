import { EngineError } from '../base/errors.js'
import { goFixed6 } from '../../util/goFloat.js'
import type { BlockFees } from './blockFees.js'

/*
 * The gas price estimator of Helicon's C-Chain (avalanchego v1.15 `vms/saevm/gasprice/estimator.go`,
 * its DefaultConfig): what eth_maxPriorityFeePerGas and eth_feeHistory answer under Helicon, where
 * coreth's oracle (feeOracle.ts) answers before it.
 */

const SUGGESTED_TIP_PERCENTILE = 40
const MIN_SUGGESTED_TIP = 1n
const MAX_SUGGESTED_TIP = 150n
const SUGGESTED_TIP_MAX_BLOCKS = 20
const SUGGESTED_TIP_MAX_SECONDS = 60n
/** HistoryMaxBlocksFromHead: the newest block eth_feeHistory may start back from is at most this far behind the head. */
export const SAE_HISTORY_MAX_DEPTH = 25_000n

/**
 * SuggestGasTipCap: the 40th percentile (by count) of the effective tips of the transactions in the
 * head and up to 19 blocks before it, back to the first over a minute old, clamped to [1, 150] wei;
 * `last` (at first 1 wei) when they hold none.
 */
export function saeSuggestedTip(head: BlockFees, parentOf: (b: BlockFees) => BlockFees | undefined, nowSeconds: bigint, last: bigint | undefined): bigint {
  const tips: bigint[] = []
  let block: BlockFees | undefined = head
  for (let i = 0; i < SUGGESTED_TIP_MAX_BLOCKS && block !== undefined && block.number > 0n; i++) {
    if (block.timestamp < nowSeconds - SUGGESTED_TIP_MAX_SECONDS) break
    tips.push(...block.tips)
    block = parentOf(block)
  }
  if (tips.length === 0) return last ?? MIN_SUGGESTED_TIP
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const tip = tips[Math.floor(((tips.length - 1) * SUGGESTED_TIP_PERCENTILE) / 100)]!
  return tip < MIN_SUGGESTED_TIP ? MIN_SUGGESTED_TIP : tip > MAX_SUGGESTED_TIP ? MAX_SUGGESTED_TIP : tip
}

/** validatePercentiles, in saevm's words (Go's %f). */
export function checkSaePercentiles(percentiles: number[], max: number): void {
  const prefix = 'percentile out of range or misordered'
  if (percentiles.length > max) throw new EngineError(`${prefix}: requested ${percentiles.length} percentiles, max ${max}`)
  percentiles.forEach((p, i) => {
    if (p < 0 || p > 100) throw new EngineError(`${prefix}: value ${goFixed6(p)} at index ${i}`)
    const prev = percentiles[i - 1]
    if (prev !== undefined && p <= prev) throw new EngineError(`${prefix}: index ${i} (${goFixed6(p)}) must be greater than index ${i - 1} (${goFixed6(prev)})`)
  })
}

import { bytesToHex } from '@ethereumjs/util'
import type { Block } from '../chain/block.js'
import type { Chain } from '../chain/chain.js'
import type { Receipt } from '../chain/receipt.js'
import { feeCaps } from '../chain/feeCaps.js'
import { BoundedCache } from '../../util/boundedCache.js'

/** Blocks whose fee facts are kept: the tip window's 40, and the chain a loadFixture revert goes back to. */
const KEPT_BLOCKS = 2048

/** What the fee oracle needs of a block, worked out once: its place in the chain, its time, its transactions' effective tips. */
export interface BlockFees {
  hash: string
  parentHash: string
  number: bigint
  timestamp: bigint
  /** The block's gas used (the header's). */
  gasUsed: bigint
  /** Each transaction's effective tip (geth's EffectiveGasTip: its fee cap above the base fee, at most its tip cap), in block order. */
  tips: bigint[]
  /** Each transaction's gas used, from its receipt (eth_feeHistory's rewards weigh tips by it); its gas limit in a Helicon block (saevm block_cache.go tipPercentiles: its builder does not execute). */
  gas: bigint[] | undefined
  /** (tip, gas) sorted by tip, stable (geth's sort in processBlock); made when eth_feeHistory first asks. */
  byTip: { tip: bigint; gas: bigint }[] | undefined
}

/**
 * The fee facts of recent blocks by hash. A block's are recorded when it is committed (the chain's
 * head event), so neither eth_maxPriorityFeePerGas nor eth_feeHistory reads a block or its receipts
 * back; a block is named by its hash, so what was recorded stays true after evm_revert (a block
 * mined again after the revert is a new hash).
 */
export class BlockFeesCache {
  private readonly kept = new BoundedCache<string, BlockFees>(KEPT_BLOCKS)

  constructor(private readonly chain: Chain) {
    chain.events.on('head', (block: Block, receipts: readonly Receipt[]) => {
      this.kept.set(bytesToHex(block.hash), blockFees(block, receipts))
    })
  }

  /** The block's fee facts (read from the chain only when not kept: a block committed before this process started). */
  of(block: Block): BlockFees {
    const key = bytesToHex(block.hash)
    let fees = this.kept.get(key)
    if (fees === undefined) {
      fees = blockFees(block, undefined)
      this.kept.set(key, fees)
    }
    return fees
  }

  /** The parent's fee facts, or undefined where the chain has no parent (genesis, a fork's first block). */
  parentOf(fees: BlockFees): BlockFees | undefined {
    const kept = this.kept.get(fees.parentHash)
    if (kept !== undefined) return kept
    const parent = this.chain.blockByHash(hexBytes(fees.parentHash))
    return parent === undefined ? undefined : this.of(parent)
  }

  /** eth_feeHistory's sorted (tip, gas) of a block with transactions. */
  byTip(block: Block): { tip: bigint; gas: bigint }[] {
    const fees = this.of(block)
    if (fees.byTip === undefined) {
      const gas = (fees.gas ??= this.chain.receipts(block).map((r) => r.gasUsed))
      // Array.prototype.sort is stable, as geth's slices.SortStableFunc.
      fees.byTip = fees.tips.map((tip, i) => ({ tip, gas: gas[i] ?? 0n })).sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
    }
    return fees.byTip
  }
}

function blockFees(block: Block, receipts: readonly Receipt[] | undefined): BlockFees {
  const { header } = block
  return {
    hash: bytesToHex(block.hash),
    parentHash: bytesToHex(header.parentHash),
    number: header.number,
    timestamp: header.timestamp,
    gasUsed: header.gasUsed,
    tips: block.txs.map((tx) => {
      const { feeCap, tipCap } = feeCaps(tx)
      const room = feeCap - header.baseFee
      return room < tipCap ? room : tipCap
    }),
    gas: header.helicon !== undefined ? block.txs.map((tx) => tx.gasLimit) : receipts?.map((r) => r.gasUsed),
    byTip: undefined,
  }
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
}

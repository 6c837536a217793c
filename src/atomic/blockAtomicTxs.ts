import type { Block } from '../engine/block.js'
import { type AtomicTx, decodeAtomicTxBatch } from './tx.js'

// Decoded on first use and kept while the block is: most reads of a block never look at its atomic txs.
const decoded = new WeakMap<Block, readonly AtomicTx[]>()

/** A block's atomic txs (coreth ExtractAtomicTxs of its extData), applied after its EVM txs. */
export function blockAtomicTxs(block: Block): readonly AtomicTx[] {
  let txs = decoded.get(block)
  if (txs === undefined) {
    txs = decodeAtomicTxBatch(block.extData)
    decoded.set(block, txs)
  }
  return txs
}

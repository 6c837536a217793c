import type { Block } from '../engine/chain/block.js'
import { type AtomicTx, decodeAtomicTxBatch } from './tx.js'

/** A block's atomic txs (coreth ExtractAtomicTxs of its extData), applied after its EVM txs. */
export function blockAtomicTxs(block: Block): readonly AtomicTx[] {
  return decodeAtomicTxBatch(block.extData)
}

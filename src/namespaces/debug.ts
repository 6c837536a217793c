import { RLP } from '@ethereumjs/rlp'
import { z } from 'zod'
import { encodeBlock, headerFields } from '../engine/block.js'
import { encodeConsensusReceipt } from '../engine/receipt.js'
import { hex } from '../rpc/format.js'
import { BlockRef, Hash32 } from '../rpc/schemas.js'
import type { MethodTable, RpcContext } from '../rpc/types.js'
import { method } from '../rpc/types.js'

/** The raw-data methods of geth's DebugAPI (internal/ethapi/api.go): consensus encodings. */
export function debugRawMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return {
    /** Handler for `debug_getRawHeader`: RLP of the header (coreth's field layout). */
    debug_getRawHeader: method(z.tuple([BlockRef]), ([ref]) => hex(RLP.encode(headerFields(engine.resolveBlock(ref).header)))),
    /** Handler for `debug_getRawBlock`: RLP of the block ([header, txs, uncles, version, extData] as coreth). */
    debug_getRawBlock: method(z.tuple([BlockRef]), ([ref]) => {
      const block = engine.resolveBlock(ref)
      return hex(encodeBlock(block.header, block.txs, block.extData))
    }),
    /** Handler for `debug_getRawReceipts`: each receipt's EIP-2718 consensus encoding. */
    debug_getRawReceipts: method(z.tuple([BlockRef]), ([ref]) =>
      engine.chain.receipts(engine.resolveBlock(ref)).map((r) => hex(encodeConsensusReceipt(r)))),
    /** Handler for `debug_getRawTransaction`: the transaction's canonical encoding; "0x" when unknown (geth). */
    debug_getRawTransaction: method(z.tuple([Hash32]), ([hash]) => {
      const found = engine.transaction(hash)
      if (found === undefined) return '0x'
      const tx = 'mined' in found ? found.mined.block.txs[found.mined.index]! : found.pooled.tx
      return hex(tx.serialize())
    }),
  }
}

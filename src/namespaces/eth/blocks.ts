import { z } from 'zod'
import type { Block } from '../../engine/chain/block.js'
import { formatBlock, formatHeader, formatReceipt, formatTx, hex, quantity } from '../../rpc/format.js'
import { BlockRef, BlockTag, Bool, Hash32, Uint } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** Blocks, headers, uncles and per-block transaction access. */
export function ethBlockMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  const byHash = (hash: Uint8Array) => engine.findBlock({ blockHash: hash })
  const byNumber = (ref: ReturnType<typeof BlockTag.parse>) => engine.findBlock(ref)
  /** `use` on the block a number or tag names; `pending` is geth's pending block (src/engine/mining/pendingBlock.ts), built on demand. */
  const atNumber = <T>(ref: ReturnType<typeof BlockTag.parse>, use: (block: Block | undefined, pending: boolean) => T): T | Promise<T> =>
    ref === 'pending' ? engine.pendingBlock().then((block) => use(block, true)) : use(byNumber(ref), false)
  // geth GetBlockByNumber / GetHeaderByNumber: a pending block's hash, nonce and miner are null.
  const pendingNulls = (out: Record<string, unknown>, pending: boolean) => (pending ? Object.assign(out, { hash: null, nonce: null, miner: null }) : out)
  const txAt = (block: Block | undefined, index: bigint) => (block === undefined || index >= BigInt(block.txs.length) ? null : formatTx(block.txs[Number(index)]!, { block, index: Number(index) }))
  // geth newRPCRawTransactionFromBlockIndex: a nil hexutil.Bytes, "0x", for a block or index that does not exist.
  const rawTxAt = (block: Block | undefined, index: bigint) => (block === undefined || index >= BigInt(block.txs.length) ? '0x' : hex(block.txs[Number(index)]!.serialize()))
  // The head's number as text, made again only when the head moves (batches of eth_blockNumber ask it dozens of times).
  let head = engine.head.header
  let headNumber = quantity(head.number)
  return inService('internal-blockchain', {
    /** Handler for `eth_blockNumber`. */
    eth_blockNumber: method(z.tuple([]), () => {
      const now = engine.head.header
      if (now !== head) headNumber = quantity((head = now).number)
      return headNumber
    }),
    /** Handler for `eth_getBlockByNumber`. */
    eth_getBlockByNumber: method(z.tuple([BlockTag, Bool]), ([ref, full]) => atNumber(ref, (block, pending) => (block === undefined ? null : pendingNulls(formatBlock(block, full), pending)))),
    /** Handler for `eth_getBlockByHash`. */
    eth_getBlockByHash: method(z.tuple([Hash32, Bool]), ([hash, full]) => {
      const block = byHash(hash)
      return block === undefined ? null : formatBlock(block, full)
    }),
    /** Handler for `eth_getHeaderByNumber`. */
    eth_getHeaderByNumber: method(z.tuple([BlockTag]), ([ref]) => atNumber(ref, (block, pending) => (block === undefined ? null : pendingNulls(formatHeader(block), pending)))),
    /** Handler for `eth_getHeaderByHash`. */
    eth_getHeaderByHash: method(z.tuple([Hash32]), ([hash]) => {
      const block = byHash(hash)
      return block === undefined ? null : formatHeader(block)
    }),
    // coreth's TransactionAPI (internal-transaction), the rest is BlockChainAPI (internal-blockchain).
    ...inService('internal-transaction', {
      /** Handler for `eth_getBlockTransactionCountByNumber`. */
      eth_getBlockTransactionCountByNumber: method(z.tuple([BlockTag]), ([ref]) => atNumber(ref, (block) => (block === undefined ? null : quantity(block.txs.length)))),
      /** Handler for `eth_getBlockTransactionCountByHash`. */
      eth_getBlockTransactionCountByHash: method(z.tuple([Hash32]), ([hash]) => {
        const block = byHash(hash)
        return block === undefined ? null : quantity(block.txs.length)
      }),
      /** Handler for `eth_getTransactionByBlockNumberAndIndex`. */
      eth_getTransactionByBlockNumberAndIndex: method(z.tuple([BlockTag, Uint]), ([ref, index]) => atNumber(ref, (block) => txAt(block, index))),
      /** Handler for `eth_getTransactionByBlockHashAndIndex`. */
      eth_getTransactionByBlockHashAndIndex: method(z.tuple([Hash32, Uint]), ([hash, index]) => txAt(byHash(hash), index)),
      /** Handler for `eth_getRawTransactionByBlockNumberAndIndex`: the transaction's EIP-2718 bytes. */
      eth_getRawTransactionByBlockNumberAndIndex: method(z.tuple([BlockTag, Uint]), ([ref, index]) => atNumber(ref, (block) => rawTxAt(block, index))),
      /** Handler for `eth_getRawTransactionByBlockHashAndIndex`. */
      eth_getRawTransactionByBlockHashAndIndex: method(z.tuple([Hash32, Uint]), ([hash, index]) => rawTxAt(byHash(hash), index)),
    }),
    /** Handler for `eth_getBlockReceipts`. */
    eth_getBlockReceipts: method(z.tuple([BlockRef]), ([ref]) => {
      const block = engine.findBlock(ref)
      if (block === undefined) return null
      const receipts = engine.receipts(block)
      return receipts.map((_, i) => formatReceipt(block, receipts, i))
    }),
    // The C-Chain has no uncles: counts are 0 for known blocks, null for unknown ones (geth).
    /** Handler for `eth_getUncleCountByBlockNumber`. */
    eth_getUncleCountByBlockNumber: method(z.tuple([BlockTag]), ([ref]) => (byNumber(ref) === undefined ? null : '0x0')),
    /** Handler for `eth_getUncleCountByBlockHash`. */
    eth_getUncleCountByBlockHash: method(z.tuple([Hash32]), ([hash]) => (byHash(hash) === undefined ? null : '0x0')),
    /** Handler for `eth_getUncleByBlockNumberAndIndex`. */
    eth_getUncleByBlockNumberAndIndex: method(z.tuple([BlockTag, Uint]), () => null),
    /** Handler for `eth_getUncleByBlockHashAndIndex`. */
    eth_getUncleByBlockHashAndIndex: method(z.tuple([Hash32, Uint]), () => null),
  })
}

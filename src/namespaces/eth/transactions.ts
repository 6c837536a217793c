import { z } from 'zod'
import { fillTransaction } from '../../engine/accounts/fillTransaction.js'
import { formatReceipt, formatTx, rawTxHex } from '../../rpc/format.js'
import { CallRequest, Data, Hash32 } from '../../rpc/schemas.js'
import { signTxResult } from '../../rpc/signTxResult.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** Sending and looking up transactions. */
export function ethTransactionMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-transaction', {
    /** Handler for `eth_sendRawTransaction`. */
    eth_sendRawTransaction: method(z.tuple([Data]), ([raw]) => engine.sendRawTransaction(raw)),
    /** Handler for `eth_getTransactionByHash`: mined, or pending in the pool. */
    eth_getTransactionByHash: method(z.tuple([Hash32]), ([hash]) => {
      const found = engine.transaction(hash)
      if (found === undefined) return null
      if ('mined' in found) return formatTx(found.mined.block.txs[found.mined.index]!, found.mined)
      return formatTx(found.pooled.tx)
    }),
    /** Handler for `eth_getRawTransactionByHash`: the EIP-2718 bytes of a mined or pooled transaction, "0x" when unknown (geth). */
    eth_getRawTransactionByHash: method(z.tuple([Hash32]), ([hash]) => rawTxHex(engine.transaction(hash))),
    /** Handler for `eth_getTransactionReceipt`: null until mined. */
    eth_getTransactionReceipt: method(z.tuple([Hash32]), ([hash]) => {
      const loc = engine.txLocation(hash)
      return loc === undefined ? null : formatReceipt(loc.block, engine.receipts(loc.block), loc.index)
    }),
    /** Handler for `eth_fillTransaction`: geth's defaults (nonce, gas, fees, chain ID), unsigned. */
    eth_fillTransaction: method(z.tuple([CallRequest]), async ([req]) => signTxResult(await fillTransaction(engine, req), { filled: true })),
  })
}

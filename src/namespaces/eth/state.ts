import { z } from 'zod'
import { hex, quantity } from '../../rpc/format.js'
import { Address, BlockRef, StorageSlot } from '../../rpc/schemas.js'
import type { MethodTable, RpcContext } from '../../rpc/types.js'
import { method } from '../../rpc/types.js'

/** Account state at a block. */
export function ethStateMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return {
    /** Handler for `eth_getBalance`. */
    eth_getBalance: method(z.tuple([Address, BlockRef.optional()]), async ([address, ref]) =>
      quantity(await engine.balance(address, ref ?? 'latest'))),
    /** Handler for `eth_getTransactionCount`; `pending` counts the pool. */
    eth_getTransactionCount: method(z.tuple([Address, BlockRef.optional()]), async ([address, ref]) =>
      quantity(await engine.nonce(address, ref ?? 'latest'))),
    /** Handler for `eth_getCode`. */
    eth_getCode: method(z.tuple([Address, BlockRef.optional()]), async ([address, ref]) =>
      hex(await engine.code(address, ref ?? 'latest'))),
    /** Handler for `eth_getStorageAt`. */
    eth_getStorageAt: method(z.tuple([Address, StorageSlot, BlockRef.optional()]), async ([address, slot, ref]) =>
      hex(await engine.storage(address, slot, ref ?? 'latest'))),
  }
}

import { z } from 'zod'
import { hex, quantity } from '../../rpc/format.js'
import { InvalidParamsError } from '../../engine/base/errors.js'
import { CLIENT_LIMIT_EXCEEDED, RpcError } from '../../rpc/errors.js'
import { Address, BlockRef, StorageRequests, StorageSlot, decodeStorageKey } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, inServiceOne, method } from '../../rpc/types.js'

/** geth maxGetStorageSlots: the most slots one eth_getStorageValues may read. */
export const MAX_GET_STORAGE_SLOTS = 1024

/** Account state at a block. */
export function ethStateMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-blockchain', {
    /** Handler for `eth_getBalance`. */
    eth_getBalance: method(z.tuple([Address, BlockRef.optional()]), ([address, ref]) => {
      // Answered at once from the flat state (no promise, no request timer); a block older than it covers reads the trie.
      const now = engine.balanceNow(address, ref ?? 'latest')
      return now === undefined ? engine.balance(address, ref ?? 'latest').then(quantity) : quantity(now)
    }),
    /** Handler for `eth_getTransactionCount`; `pending` counts the pool (coreth's TransactionAPI). */
    eth_getTransactionCount: inServiceOne(
      'internal-transaction',
      method(z.tuple([Address, BlockRef.optional()]), async ([address, ref]) => quantity(await engine.nonce(address, ref ?? 'latest'))),
    ),
    /** Handler for `eth_getCode`. */
    eth_getCode: method(z.tuple([Address, BlockRef.optional()]), async ([address, ref]) => hex(await engine.code(address, ref ?? 'latest'))),
    /** Handler for `eth_getStorageAt`. */
    eth_getStorageAt: method(z.tuple([Address, StorageSlot, BlockRef.optional()]), async ([address, key, ref]) => {
      const slot = decodeStorageKey(key)
      if (typeof slot === 'string') {
        engine.resolveBlock(ref ?? 'latest') // geth looks the state up first: an unknown block is reported before a bad key
        throw new InvalidParamsError(slot)
      }
      return hex(await engine.storage(address, slot, ref ?? 'latest'))
    }),
    /** Handler for `eth_getStorageValues` (geth 1.16): several slots of several accounts at one block. */
    eth_getStorageValues: method(z.tuple([StorageRequests, BlockRef.optional()]), async ([requests, ref]) => {
      let total = 0
      for (const r of requests) {
        total += r.keys.length
        if (total > MAX_GET_STORAGE_SLOTS) throw new RpcError(CLIENT_LIMIT_EXCEEDED, `too many slots (max ${MAX_GET_STORAGE_SLOTS})`)
      }
      if (total === 0) throw new InvalidParamsError('empty request')
      const at = ref ?? 'latest'
      engine.resolveBlock(at)
      const out: Record<string, string[]> = {}
      for (const r of requests) {
        const values: string[] = []
        for (const key of r.keys) values.push(hex(await engine.storage(r.address, key, at)))
        out[hex(r.address)] = values
      }
      return out
    }),
  })
}

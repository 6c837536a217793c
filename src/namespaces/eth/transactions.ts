import { createTx } from '@ethereumjs/tx'
import { keccak256 } from '../../util/crypto.js'
import { z } from 'zod'
import { formatReceipt, formatTx, hex, quantity } from '../../rpc/format.js'
import { CallRequest, Data, Hash32 } from '../../rpc/schemas.js'
import type { MethodTable, RpcContext } from '../../rpc/types.js'
import { inService, method } from '../../rpc/types.js'

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
    /** Handler for `eth_getTransactionReceipt`: null until mined. */
    eth_getTransactionReceipt: method(z.tuple([Hash32]), ([hash]) => {
      const loc = engine.txLocation(hash)
      return loc === undefined ? null : formatReceipt(loc.block, engine.receipts(loc.block), loc.index)
    }),
    /** Handler for `eth_fillTransaction`: geth's defaults (nonce, gas, fees, chain ID), unsigned. */
    eth_fillTransaction: method(z.tuple([CallRequest]), async ([req]) => {
      const from = req.from ?? new Uint8Array(20)
      const nonce = req.nonce ?? (await engine.nonce(from, 'pending'))
      const legacy = req.gasPrice !== undefined
      const tip = req.maxPriorityFeePerGas ?? engine.fees.suggestTipCap()
      const feeCap = req.maxFeePerGas ?? tip + 2n * engine.fees.nextBaseFee()
      const gas = req.gas ?? (await engine.estimateGas({ ...req, nonce }, 'pending'))
      const common = engine.txCommon
      const base = { nonce, gasLimit: gas, to: req.to ?? undefined, value: req.value ?? 0n, data: req.input ?? new Uint8Array() }
      const tx = legacy
        ? createTx({ ...base, type: req.accessList ? 1 : 0, gasPrice: req.gasPrice!, accessList: req.accessList?.map((i) => [i.address, i.storageKeys]) as never, chainId: engine.chainId }, { common })
        : createTx({ ...base, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList: (req.accessList ?? []).map((i) => [i.address, i.storageKeys]) as never, chainId: engine.chainId }, { common })
      const raw = tx.serialize()
      // geth types.Transaction JSON of the unsigned transaction: an unsigned legacy transaction (v = 0) is
      // not "protected", so it has no chainId; `hash` is tx.Hash() = keccak256 of the unsigned encoding.
      const json: Record<string, unknown> = { type: quantity(tx.type) }
      if (tx.type !== 0) json.chainId = quantity(engine.chainId)
      Object.assign(json, { nonce: quantity(nonce), to: base.to ? hex(base.to) : null, gas: quantity(gas) })
      if (legacy) json.gasPrice = quantity(req.gasPrice!)
      else {
        json.maxPriorityFeePerGas = quantity(tip)
        json.maxFeePerGas = quantity(feeCap)
        // Not in geth's txJSON, but required by the execution-apis schema of a filled EIP-1559 transaction.
        json.gasPrice = quantity(feeCap)
      }
      Object.assign(json, { value: quantity(base.value), input: hex(base.data) })
      if (tx.type !== 0) json.accessList = (req.accessList ?? []).map((i) => ({ address: hex(i.address), storageKeys: i.storageKeys.map(hex) }))
      Object.assign(json, { v: '0x0', r: '0x0', s: '0x0' })
      if (tx.type !== 0) json.yParity = '0x0'
      json.hash = hex(keccak256(raw))
      return { raw: hex(raw), tx: json }
    }),
  })
}

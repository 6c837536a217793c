import { z } from 'zod'
import { toChecksumAddress } from '@ethereumjs/util'
import type { PoolTx } from '../engine/pool/txPool.js'
import { formatTx, quantity, type Json } from '../rpc/format.js'
import { Address } from '../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../rpc/types.js'

type BySender<T> = Record<string, Record<string, T>>

/** Groups pool transactions as geth's TxPoolAPI does: checksummed sender -> decimal nonce -> value. */
function group<T>(txs: readonly PoolTx[], value: (p: PoolTx) => T): BySender<T> {
  const out: BySender<T> = {}
  const sorted = [...txs].sort((a, b) => (a.senderHex < b.senderHex ? -1 : a.senderHex > b.senderHex ? 1 : a.nonce < b.nonce ? -1 : 1))
  for (const p of sorted) (out[toChecksumAddress(p.senderHex)] ??= {})[p.nonce.toString()] = value(p)
  return out
}

/** geth's inspect line: "<to>: <value> wei + <gas> gas × <gasPrice> wei". */
function summary(p: PoolTx): string {
  const to = p.tx.to === undefined ? 'contract creation' : toChecksumAddress(p.tx.to.toString())
  return `${to}: ${p.tx.value} wei + ${p.tx.gasLimit} gas × ${p.feeCap} wei`
}

/** The `txpool_` namespace (geth internal/ethapi TxPoolAPI). */
export function txpoolMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  const tx = (p: PoolTx): Json => formatTx(p.tx)
  return inService('internal-tx-pool', {
    /** Handler for `txpool_content`. */
    txpool_content: method(z.tuple([]), () => {
      const { pending, queued } = engine.poolContent()
      return { pending: group(pending, tx), queued: group(queued, tx) }
    }),
    /** Handler for `txpool_contentFrom`: one sender's transactions, keyed by nonce. */
    txpool_contentFrom: method(z.tuple([Address]), ([address]) => {
      const sender = '0x' + Buffer.from(address).toString('hex')
      const { pending, queued } = engine.poolContent()
      const mine = (list: PoolTx[]) =>
        Object.fromEntries(
          list
            .filter((p) => p.senderHex === sender)
            .sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
            .map((p) => [p.nonce.toString(), tx(p)]),
        )
      return { pending: mine(pending), queued: mine(queued) }
    }),
    /** Handler for `txpool_status`. */
    txpool_status: method(z.tuple([]), () => {
      const { pending, queued } = engine.poolSize()
      return { pending: quantity(pending), queued: quantity(queued) }
    }),
    /** Handler for `txpool_inspect`. */
    txpool_inspect: method(z.tuple([]), () => {
      const { pending, queued } = engine.poolContent()
      return { pending: group(pending, summary), queued: group(queued, summary) }
    }),
  })
}

/**
 * geth SignTransactionResult {raw, tx} (internal/ethapi/api.go), the answer of eth_fillTransaction,
 * eth_signTransaction and personal_signTransaction; `tx` is geth's types.Transaction JSON
 * (core/types/transaction_marshalling.go) of the signed or, for eth_fillTransaction, unsigned transaction.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { keccak256 } from '../util/crypto.js'
import { hex, quantity, type Json } from './format.js'

/** geth isProtectedV: a legacy V other than 0, 1, 27 and 28 carries the chain ID (EIP-155). */
const isProtectedV = (v: bigint): boolean => v > 255n || (v !== 0n && v !== 1n && v !== 27n && v !== 28n)

/**
 * `filled`: the execution-apis schema of eth_fillTransaction wants `gasPrice` on an EIP-1559 transaction too
 * (its fee cap), which geth's JSON lacks.
 */
export function signTxResult(tx: TypedTransaction, opts: { filled?: boolean } = {}): { raw: string; tx: Record<string, Json> } {
  const t = tx as unknown as { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; accessList?: [Uint8Array, Uint8Array[]][]; chainId?: bigint }
  const raw = tx.serialize()
  const v = tx.v ?? 0n
  const out: Record<string, Json> = { type: quantity(tx.type) }
  if (tx.type !== 0 || isProtectedV(v)) out.chainId = quantity(t.chainId ?? tx.common.chainId())
  out.nonce = quantity(tx.nonce)
  out.to = tx.to === undefined ? null : hex(tx.to.bytes)
  out.gas = quantity(tx.gasLimit)
  if (tx.type === 2) {
    out.maxPriorityFeePerGas = quantity(t.maxPriorityFeePerGas!)
    out.maxFeePerGas = quantity(t.maxFeePerGas!)
    if (opts.filled === true) out.gasPrice = quantity(t.maxFeePerGas!)
  } else {
    out.gasPrice = quantity(t.gasPrice!)
  }
  out.value = quantity(tx.value)
  out.input = hex(tx.data)
  if (tx.type !== 0) out.accessList = (t.accessList ?? []).map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) }))
  out.v = quantity(v)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== 0) out.yParity = quantity(v)
  // tx.Hash(): keccak256 of the encoding, signed or not.
  out.hash = hex(keccak256(raw))
  return { raw: hex(raw), tx: out }
}

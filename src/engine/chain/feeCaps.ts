import { Capability, type TypedTransaction } from '@ethereumjs/tx'

/** A transaction's fee cap and tip cap: EIP-1559's two fields, or a legacy/EIP-2930 gas price as both. */
export function feeCaps(tx: TypedTransaction): { feeCap: bigint; tipCap: bigint } {
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    const t = tx as TypedTransaction & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
    return { feeCap: t.maxFeePerGas, tipCap: t.maxPriorityFeePerGas }
  }
  const p = (tx as TypedTransaction & { gasPrice: bigint }).gasPrice
  return { feeCap: p, tipCap: p }
}

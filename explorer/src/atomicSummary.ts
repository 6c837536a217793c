/** One line about an atomic tx: which chains it moves AVAX between, and how much. */
import { amountText, letterOf } from './atomicView.js'
import type { DecodedTx } from './codec.js'
import type { Ctx } from './context.js'

export function atomicSummary(ctx: Ctx, tx: DecodedTx): { between: string; amount: string; source?: string; destination?: string } {
  const here = tx.chain === 'C' ? letterOf(ctx, tx.blockchainID) : tx.chain
  if (tx.type === 'ExportTx') {
    const destination = letterOf(ctx, tx.destinationChain)
    const moved = tx.outs.filter((o) => o.kind === 'utxo' && o.exported)
    const total = moved.reduce((s, o) => s + (o.kind === 'utxo' ? o.amount : 0n), 0n)
    return { between: `${here} → ${destination}`, amount: moved.length === 0 ? '—' : amountText(ctx, total, moved[0]!.assetID), source: here, destination }
  }
  if (tx.type === 'ImportTx') {
    const source = letterOf(ctx, tx.sourceChain)
    const moved = tx.ins.filter((i) => i.kind === 'utxo' && i.imported)
    const total = moved.reduce((s, i) => s + i.amount, 0n)
    return { between: `${source} → ${here}`, amount: moved.length === 0 ? '—' : amountText(ctx, total, moved[0]!.assetID), source, destination: here }
  }
  return { between: here, amount: '—' }
}

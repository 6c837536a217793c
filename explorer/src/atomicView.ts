/** How an atomic tx's inputs and outputs read: amounts in AVAX (nAVAX), owners as X-/P-/C- addresses. */
import { bytesToHex, cb58Encode, formatAddress } from './bytes.js'
import type { TxInput, TxOutput } from './codec.js'
import { type Ctx, chainName } from './context.js'
import { h, link, mono } from './dom.js'
import { avaxFromNano, grouped } from './format.js'

/** The asset's name when it is AVAX, else its ID. */
export function assetName(ctx: Ctx, assetID: Uint8Array): string {
  const id = cb58Encode(assetID)
  return id === ctx.doc.avaxAssetID ? 'AVAX' : id
}

export function amountText(ctx: Ctx, amount: bigint, assetID: Uint8Array): string {
  return assetName(ctx, assetID) === 'AVAX' ? avaxFromNano(amount) : `${grouped(amount)} of ${cb58Encode(assetID)}`
}

/** Owners of a UTXO output on chain `letter` (the chain it lives on). */
export function owners(ctx: Ctx, addresses: readonly Uint8Array[], letter: string): HTMLElement {
  return h(
    'span',
    { class: 'owners' },
    addresses.map((a, i) => [i > 0 ? ', ' : '', link(ctx.r(`/address/${formatAddress(letter, ctx.doc.hrp, a)}`), mono(formatAddress(letter, ctx.doc.hrp, a)))]),
  )
}

/** Table cells of one input: what it spends, its amount. */
export function inputCells(ctx: Ctx, input: TxInput, sourceChain: string): (Node | string)[] {
  if (input.kind === 'evm') {
    const addr = bytesToHex(input.address)
    return [link(ctx.r(`/address/${addr}`), mono(addr)), `C-Chain account, nonce ${input.nonce}`, amountText(ctx, input.amount, input.assetID)]
  }
  const from = cb58Encode(input.txID)
  return [
    h('span', {}, link(ctx.r(`/atomic/${from}`), mono(from)), `:${input.outputIndex}`),
    input.imported ? `UTXO imported from ${sourceChain}` : 'UTXO',
    amountText(ctx, input.amount, input.assetID) + (input.locktime !== undefined && input.locktime > 0n ? ` (locked until ${input.locktime})` : ''),
  ]
}

/** Table cells of one output: who gets it, where, how much. */
export function outputCells(ctx: Ctx, output: TxOutput, chain: string, destinationChain: string): (Node | string)[] {
  if (output.kind === 'evm') {
    const addr = bytesToHex(output.address)
    return [link(ctx.r(`/address/${addr}`), mono(addr)), 'C-Chain account', amountText(ctx, output.amount, output.assetID)]
  }
  if (output.kind === 'other') return [`output type ${output.typeID}`, output.exported ? `exported to ${destinationChain}` : chain, '—']
  const where = output.exported ? destinationChain : chain
  const lock = output.stakeLocktime !== undefined ? ` (stakeable lock until ${output.stakeLocktime})` : output.locktime > 0n ? ` (locked until ${output.locktime})` : ''
  return [owners(ctx, output.addresses, where), output.exported ? `exported to ${where}` : `UTXO on ${where}`, amountText(ctx, output.amount, output.assetID) + lock]
}

/** The letter a chain ID names (X, P, C, or an extra chain's path). */
export const letterOf = (ctx: Ctx, id: Uint8Array | undefined): string => (id === undefined ? '—' : chainName(ctx.doc, id))

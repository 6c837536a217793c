/**
 * An atomic tx (or any X-/P-Chain tx) by its CB58 ID: type, the chains it moves AVAX between, inputs,
 * outputs, and its status on each side: accepted where it was issued, and on the other chain whether
 * the UTXOs it exported still wait in shared memory or were imported.
 */
import { atomicSummary } from '../atomicSummary.js'
import { inputCells, letterOf, outputCells } from '../atomicView.js'
import { cb58Encode, formatAddress } from '../bytes.js'
import { type ChainLetter, type DecodedTx, decodeTx, decodeUTXO, fromAvalancheHex } from '../codec.js'
import type { Ctx } from '../context.js'
import { fields, h, link, mono, note, section, table } from '../dom.js'
import { grouped } from '../format.js'
import { gorilla, gorillaOrUndefined } from '../rpc.js'

const CHAIN_NAMES: Record<string, string> = { C: 'C-Chain', X: 'X-Chain', P: 'P-Chain' }

/** The chain's getTx and getTxStatus (coreth plugin/evm/atomic/vm/api.go; avalanchego vms/avm/service.go, vms/platformvm/service.go). */
function methods(ctx: Ctx, chain: string): { path: string; getTx: string; status: string; getUTXOs: string } | undefined {
  if (chain === 'X') return { path: ctx.paths.X, getTx: 'avm.getTx', status: 'avm.getTxStatus', getUTXOs: 'avm.getUTXOs' }
  if (chain === 'P') return { path: ctx.paths.P, getTx: 'platform.getTx', status: 'platform.getTxStatus', getUTXOs: 'platform.getUTXOs' }
  if (chain === 'C') return { path: ctx.paths.avax, getTx: 'avax.getAtomicTx', status: 'avax.getAtomicTxStatus', getUTXOs: 'avax.getUTXOs' }
  return undefined
}

async function statusOn(ctx: Ctx, chain: string, txID: string): Promise<{ status: string; blockHeight?: string }> {
  const m = methods(ctx, chain)
  if (m === undefined) return { status: 'not a chain this explorer reads' }
  return (await gorillaOrUndefined(m.path, m.status, { txID })) ?? { status: 'Unknown' }
}

/** Whether the UTXOs `tx` exported to `destination` still wait there, for each exported output. */
async function exportedSide(ctx: Ctx, txID: string, tx: DecodedTx, source: string, destination: string): Promise<string> {
  const m = methods(ctx, destination)
  if (m === undefined) return 'not a chain this explorer reads'
  const exported = tx.outs.filter((o) => o.kind === 'utxo' && o.exported)
  const addrs = [...new Set(exported.flatMap((o) => (o.kind === 'utxo' ? o.addresses.map((a) => formatAddress(destination, ctx.doc.hrp, a)) : [])))]
  if (addrs.length === 0) return 'no exported outputs'
  const res = await gorilla(m.path, m.getUTXOs, { addresses: addrs, sourceChain: source, encoding: 'hex', limit: 1024 })
  const waiting = (res.utxos as string[]).map((u) => decodeUTXO(fromAvalancheHex(u))).filter((u) => cb58Encode(u.txID) === txID).length
  if (waiting === exported.length) return `exported: ${waiting} UTXO${waiting === 1 ? '' : 's'} waiting to be imported on ${destination}`
  if (waiting === 0) return `imported on ${destination} (the exported UTXOs were spent)`
  return `partly imported on ${destination}: ${waiting} of ${exported.length} UTXOs still waiting`
}

export async function atomicPage(ctx: Ctx, main: HTMLElement, txID: string): Promise<void> {
  let found: { chain: ChainLetter; hex: string } | undefined
  for (const chain of ['C', 'X', 'P'] as const) {
    const m = methods(ctx, chain)!
    const res = await gorillaOrUndefined(m.path, m.getTx, { txID, encoding: 'hex' })
    if (res !== undefined) {
      found = { chain, hex: res.tx }
      break
    }
  }
  if (found === undefined) {
    main.replaceChildren(h('h1', { tabindex: -1 }, 'Transaction not found'), note(`No C-Chain atomic transaction, X-Chain or P-Chain transaction has the ID ${txID}.`))
    return
  }
  let tx: DecodedTx
  try {
    tx = decodeTx(fromAvalancheHex(found.hex), found.chain)
  } catch (err) {
    main.replaceChildren(h('h1', { tabindex: -1 }, `${CHAIN_NAMES[found.chain]} transaction`), note(`It could not be decoded: ${(err as Error).message}`, 'note bad'))
    return
  }
  const here = found.chain === 'C' ? letterOf(ctx, tx.blockchainID) : found.chain
  const summary = atomicSummary(ctx, tx)
  const own = await statusOn(ctx, found.chain, txID)
  const sides: (Node | string)[][] = [
    [
      here,
      h(
        'span',
        { id: `status-${here}` },
        own.status,
        own.blockHeight !== undefined ? [' in block ', link(ctx.r(`/block/${own.blockHeight}`), `#${grouped(BigInt(own.blockHeight))}`)] : '',
        ' (where it was issued)',
      ),
    ],
  ]
  if (tx.type === 'ExportTx' && summary.destination !== undefined) {
    const text = own.status === 'Accepted' ? await exportedSide(ctx, txID, tx, here, summary.destination) : 'nothing exported until it is accepted'
    sides.push([summary.destination, h('span', { id: `status-${summary.destination}` }, text)])
  }
  if (tx.type === 'ImportTx' && summary.source !== undefined) {
    const sources = [...new Set(tx.ins.flatMap((i) => (i.kind === 'utxo' && i.imported ? [cb58Encode(i.txID)] : [])))]
    const states = await Promise.all(sources.map(async (id) => [id, (await statusOn(ctx, summary.source!, id)).status] as const))
    sides.push([
      summary.source,
      h(
        'span',
        { id: `status-${summary.source}` },
        states.map(([id, st], i) => [i > 0 ? '; ' : '', 'export ', link(ctx.r(`/atomic/${id}`), mono(id)), ` ${st}`]),
      ),
    ])
  }
  const dest = summary.destination ?? here
  main.replaceChildren(
    h('h1', { tabindex: -1 }, found.chain === 'C' ? 'Atomic transaction' : `${CHAIN_NAMES[found.chain]} transaction`),
    fields([
      ['ID', mono(txID)],
      ['Type', h('span', { id: 'atomic-type' }, tx.type)],
      ['Issued on', CHAIN_NAMES[here] ?? here],
      ['Moves', h('span', { id: 'atomic-between' }, summary.between)],
      ['Amount', summary.amount],
      tx.sourceChain !== undefined && ['Source chain', `${letterOf(ctx, tx.sourceChain)} · ${cb58Encode(tx.sourceChain)}`],
      tx.destinationChain !== undefined && ['Destination chain', `${letterOf(ctx, tx.destinationChain)} · ${cb58Encode(tx.destinationChain)}`],
      tx.networkID !== undefined && ['Network ID', String(tx.networkID)],
      tx.memo !== undefined && tx.memo.length > 0 && ['Memo', mono(new TextDecoder().decode(tx.memo))],
    ]),
    section('Status on each side', table('Status on each side', ['Chain', 'Status'], sides)),
    section(
      'Inputs',
      table(
        'Inputs',
        ['Spends', 'Kind', 'Amount'],
        tx.ins.map((i) => inputCells(ctx, i, summary.source ?? here)),
      ),
    ),
    section(
      'Outputs',
      table(
        'Outputs',
        ['To', 'Where', 'Amount'],
        tx.outs.map((o) => outputCells(ctx, o, here, dest)),
      ),
    ),
  )
}

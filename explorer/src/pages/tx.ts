/** A transaction: status, parties, value, fee, gas, its input decoded where the selector is known, logs and the revert reason. */
import type { Ctx } from '../context.js'
import { fields, h, link, mono, note, section } from '../dom.js'
import { avaxFromWei, big, grouped, gwei, num } from '../format.js'
import { RpcError } from '../rpc.js'
import { decodeCall, decodeLog, decodeRevert } from '../selectors.js'
import { icmSection } from '../icmView.js'

const TX_TYPES: Record<number, string> = { 0: 'legacy', 1: 'access list (EIP-2930)', 2: 'dynamic fee (EIP-1559)', 3: 'blob (EIP-4844)', 4: 'set code (EIP-7702)' }

/**
 * Why a mined tx reverted: the tx replayed with eth_call on the state before its block, whose error
 * carries the revert data (geth: internal/ethapi/errors.go revertError). Txs before it in the same
 * block are not replayed, so a revert that depends on them may not show again.
 */
async function revertReason(ctx: Ctx, tx: any): Promise<{ text: string; data?: string }> {
  const call: Record<string, string> = { from: tx.from, data: tx.input, value: tx.value, gas: tx.gas }
  if (tx.to !== null) call.to = tx.to
  try {
    await ctx.api.call('eth_call', [call, '0x' + (big(tx.blockNumber) - 1n).toString(16)])
    return { text: 'the replay on the parent block did not revert: the reason depends on an earlier transaction of the same block' }
  } catch (err) {
    if (!(err instanceof RpcError)) throw err
    const data = typeof err.data === 'string' ? err.data : undefined
    return { text: decodeRevert(data) ?? err.message, ...(data !== undefined && { data }) }
  }
}

function callView(ctx: Ctx, input: string): HTMLElement {
  if (input === '0x') return h('span', {}, 'none (a plain transfer)')
  const call = decodeCall(input)
  const raw = h('details', {}, h('summary', {}, `Raw input (${(input.length - 2) / 2} bytes)`), h('pre', { class: 'mono wrap' }, input))
  if (call === undefined) return h('div', {}, h('p', {}, `Selector ${input.slice(0, 10)} (not in the built-in table)`), raw)
  const args = call.args.map((a, i) => [i > 0 ? ', ' : '', a.type === 'address' ? link(ctx.r(`/address/${a.value}`), mono(a.value)) : mono(a.value)])
  return h('div', {}, h('p', { class: 'call' }, mono(`${call.name}(`), args, mono(')')), raw)
}

export async function txPage(ctx: Ctx, main: HTMLElement, hash: string): Promise<void> {
  const [tx, receipt] = await Promise.all([ctx.api.call('eth_getTransactionByHash', [hash]), ctx.api.call('eth_getTransactionReceipt', [hash])])
  if (tx === null) {
    main.replaceChildren(h('h1', { tabindex: -1 }, 'Transaction not found'), note(`No transaction ${hash} on this chain (nor in its pool).`))
    return
  }
  const pending = receipt === null
  const ok = !pending && receipt.status === '0x1'
  const statusText = pending ? 'pending' : ok ? 'success' : 'reverted'
  const reason = !pending && !ok ? await revertReason(ctx, tx) : undefined
  const type = num(tx.type)
  const gasPrice = pending ? big(tx.gasPrice ?? tx.maxFeePerGas) : big(receipt.effectiveGasPrice)
  const logs: any[] = pending ? [] : receipt.logs
  const interchain = await icmSection(ctx, logs)
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Transaction'),
    fields([
      ['Hash', mono(tx.hash)],
      ['Status', h('span', { id: 'tx-status', class: ok ? 'good' : pending ? '' : 'bad' }, statusText)],
      reason !== undefined && ['Revert reason', h('span', { id: 'revert-reason', class: 'bad' }, reason.text)],
      ['Block', pending ? 'not yet mined' : h('span', {}, link(ctx.r(`/block/${num(tx.blockNumber)}`), `#${grouped(num(tx.blockNumber))}`), ` · position ${num(tx.transactionIndex)}`)],
      ['From', link(ctx.r(`/address/${tx.from}`), mono(tx.from))],
      [
        'To',
        tx.to !== null
          ? link(ctx.r(`/address/${tx.to}`), mono(tx.to))
          : h('span', {}, 'contract creation', receipt?.contractAddress ? [': ', link(ctx.r(`/address/${receipt.contractAddress}`), mono(receipt.contractAddress))] : ''),
      ],
      ['Value', avaxFromWei(big(tx.value))],
      ['Fee', pending ? '—' : avaxFromWei(big(receipt.gasUsed) * gasPrice)],
      ['Gas used', pending ? '—' : `${grouped(num(receipt.gasUsed))} of ${grouped(num(tx.gas))} limit`],
      ['Gas price', gwei(gasPrice)],
      tx.maxFeePerGas !== undefined && ['Max fee / priority fee', `${gwei(big(tx.maxFeePerGas))} / ${gwei(big(tx.maxPriorityFeePerGas))}`],
      ['Nonce', String(num(tx.nonce))],
      ['Type', `${type} · ${TX_TYPES[type] ?? 'unknown'}`],
    ]),
    section('Input', callView(ctx, tx.input)),
    section(
      'Logs',
      logs.length === 0
        ? note(pending ? 'Not mined yet.' : 'No logs.')
        : h(
            'ol',
            { class: 'logs' },
            logs.map((l) => {
              const ev = decodeLog(l.topics, l.data)
              return h(
                'li',
                {},
                fields([
                  ['Index', String(num(l.logIndex))],
                  ['Emitted by', link(ctx.r(`/address/${l.address}`), mono(l.address))],
                  [
                    'Event',
                    ev === undefined
                      ? 'not in the built-in table'
                      : h(
                          'span',
                          { class: 'call' },
                          mono(`${ev.name}(`),
                          ev.args.map((a, i) => [i > 0 ? ', ' : '', mono(a.value)]),
                          mono(')'),
                        ),
                  ],
                  [
                    'Topics',
                    h(
                      'div',
                      { class: 'mono wrap small' },
                      l.topics.map((t: string) => h('div', {}, t)),
                    ),
                  ],
                  ['Data', h('div', { class: 'mono wrap small' }, l.data)],
                ]),
              )
            }),
          ),
    ),
    ...interchain,
    ...(reason?.data !== undefined ? [section('Revert data', h('pre', { class: 'mono wrap' }, reason.data))] : []),
  )
}

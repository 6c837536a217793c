/** A block: its header with the Avalanche fields, its transactions and its atomic transactions. */
import { atomicSummary } from '../atomicSummary.js'
import { cb58Encode } from '../bytes.js'
import { blockAtomicTxs } from '../codec.js'
import type { Ctx } from '../context.js'
import { fields, h, link, mono, shortMono, note, section, table } from '../dom.js'
import { age, avaxFromWei, big, grouped, gwei, isoTime, num, percent } from '../format.js'

export async function blockPage(ctx: Ctx, main: HTMLElement, ref: string): Promise<void> {
  const byHash = /^0x[0-9a-fA-F]{64}$/.test(ref)
  const block = byHash ? await ctx.api.call('eth_getBlockByHash', [ref, true]) : /^\d+$/.test(ref) ? await ctx.api.call('eth_getBlockByNumber', ['0x' + BigInt(ref).toString(16), true]) : null
  if (block === null) {
    main.replaceChildren(h('h1', { tabindex: -1 }, 'Block not found'), note(`No block ${ref} on this chain.`))
    return
  }
  const n = num(block.number)
  const [receipts, head]: [any[] | null, string] = await Promise.all([ctx.api.call('eth_getBlockReceipts', [block.number]).catch(() => null), ctx.api.call('eth_blockNumber')])
  const status = new Map((receipts ?? []).map((r) => [r.transactionHash, r]))
  let atomic: ReturnType<typeof blockAtomicTxs> = []
  let atomicError: string | undefined
  try {
    atomic = blockAtomicTxs(block.blockExtraData ?? '0x')
  } catch (err) {
    atomicError = `blockExtraData could not be decoded: ${(err as Error).message}`
  }
  const ts = num(block.timestamp)
  main.replaceChildren(
    h('h1', { tabindex: -1 }, `Block ${grouped(n)}`),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Neighbouring blocks' },
      n > 0 ? link(ctx.r(`/block/${n - 1}`), `← Block ${grouped(n - 1)}`) : null,
      ' ',
      n < num(head) ? link(ctx.r(`/block/${n + 1}`), `Block ${grouped(n + 1)} →`) : null,
    ),
    section(
      'Header',
      fields([
        ['Number', String(n)],
        ['Hash', mono(block.hash)],
        ['Parent', n > 0 ? link(ctx.r(`/block/${block.parentHash}`), mono(block.parentHash)) : mono(block.parentHash)],
        // Granite blocks carry the time in milliseconds too (timestampMilliseconds).
        [
          'Time',
          h('span', {}, h('time', { datetime: isoTime(ts), 'data-ts': ts }, age(ts)), ` · ${block.timestampMilliseconds ? new Date(num(block.timestampMilliseconds)).toISOString() : isoTime(ts)}`),
        ],
        ['Transactions', String(block.transactions.length)],
        ['Atomic transactions', String(atomic.length)],
        ['Gas used', `${grouped(num(block.gasUsed))} of ${grouped(num(block.gasLimit))} (${percent(big(block.gasUsed), big(block.gasLimit))})`],
        ['Base fee', gwei(big(block.baseFeePerGas))],
        ['Coinbase', link(ctx.r(`/address/${block.miner}`), mono(block.miner))],
        ['State root', mono(block.stateRoot)],
        ['Transactions root', mono(block.transactionsRoot)],
        ['Receipts root', mono(block.receiptsRoot)],
        ['Size', `${grouped(num(block.size))} bytes`],
        ['Extra data', mono(block.extraData)],
      ]),
    ),
    section(
      'Avalanche fields',
      fields([
        ['Ext data hash', mono(block.extDataHash ?? '—')],
        ['Ext data gas used', block.extDataGasUsed === undefined ? '—' : grouped(num(block.extDataGasUsed))],
        ['Block gas cost', block.blockGasCost === undefined ? '—' : grouped(num(block.blockGasCost))],
        ['Min delay excess', block.minDelayExcess === undefined ? '—' : grouped(num(block.minDelayExcess))],
        // Helicon (ACP-194): the last block this one settles, and the gas price exponents it votes.
        ['Settled height', block.settledHeight === undefined ? '—' : link(ctx.r(`/block/${num(block.settledHeight)}`), grouped(num(block.settledHeight)))],
        ['Target exponent', block.targetExponent === undefined ? '—' : String(big(block.targetExponent))],
        ['Min price exponent', block.minPriceExponent === undefined ? '—' : String(big(block.minPriceExponent))],
        ['Block extra data', `${Math.max(0, ((block.blockExtraData ?? '0x').length - 2) / 2)} bytes`],
      ]),
    ),
    section(
      'Transactions',
      table(
        `Transactions of block ${n}`,
        ['Transaction', 'Status', 'From', 'To', 'Value', 'Gas used'],
        block.transactions.map((t: any) => {
          const r = status.get(t.hash)
          return [
            link(ctx.r(`/tx/${t.hash}`), shortMono(t.hash), t.hash),
            r === undefined ? '—' : r.status === '0x1' ? 'success' : h('span', { class: 'bad' }, 'reverted'),
            link(ctx.r(`/address/${t.from}`), shortMono(t.from), t.from),
            t.to === null ? 'contract creation' : link(ctx.r(`/address/${t.to}`), shortMono(t.to), t.to),
            avaxFromWei(big(t.value)),
            r === undefined ? '—' : grouped(num(r.gasUsed)),
          ]
        }),
        'No transactions.',
      ),
    ),
    section(
      'Atomic transactions',
      atomicError !== undefined
        ? note(atomicError, 'note bad')
        : table(
            `Atomic transactions of block ${n}`,
            ['Atomic transaction', 'Type', 'Between', 'Amount'],
            atomic.map(({ id, tx }) => {
              const s = atomicSummary(ctx, tx)
              return [link(ctx.r(`/atomic/${cb58Encode(id)}`), shortMono(cb58Encode(id), 8), cb58Encode(id)), tx.type, s.between, s.amount]
            }),
            'No atomic transactions.',
          ),
    ),
  )
}

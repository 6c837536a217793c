/** Home: the head, the latest blocks and transactions, and the gas/base-fee plot, updated from newHeads. */
import type { Ctx } from '../context.js'
import { fields, h, link, mono, shortMono, section, table } from '../dom.js'
import { age, avaxFromWei, big, grouped, gwei, isoTime, num } from '../format.js'
import { gasPlot } from '../plot.js'
import { activeRules } from '../precompiles.js'

const LIST = 10
const PLOTTED = 30

export async function home(ctx: Ctx, main: HTMLElement): Promise<void> {
  const head = num(await ctx.api.call('eth_blockNumber'))
  const numbers: number[] = []
  for (let n = head; n >= 0 && numbers.length < PLOTTED; n--) numbers.push(n)
  const answers = await ctx.api.batch(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: ['0x' + n.toString(16), true] })))
  let blocks: any[] = answers.flatMap((a) => (a.ok && a.value !== null ? [a.value] : []))
  // A subnet-evm chain (it serves eth_getActiveRulesAt) links to its stateful precompiles.
  const [chainId, rules] = await Promise.all([ctx.api.call('eth_chainId').then(num), activeRules(ctx.api)])
  const precompiles = rules === undefined ? undefined : Object.keys(rules.precompiles ?? {}).length

  const headNumber = h('span', { id: 'head-number' }, grouped(head))
  const headFee = h('span', {}, blocks[0] === undefined ? '—' : gwei(big(blocks[0].baseFeePerGas)))
  const headAge = h('span', {}, '')
  // Helicon: the last block the head settles (safe/finalized); a chain kept at Granite has none.
  const settled = h('span', { id: 'settled-height' }, '—')
  const plotBox = h('div', { class: 'plot-box' })
  const blocksBox = h('div', {})
  const txsBox = h('div', {})

  const render = () => {
    const top = blocks[0]
    headNumber.textContent = top === undefined ? '—' : grouped(num(top.number))
    headFee.textContent = top === undefined ? '—' : gwei(big(top.baseFeePerGas))
    headAge.textContent = top === undefined ? '' : ` (${age(num(top.timestamp))})`
    settled.replaceChildren(top?.settledHeight === undefined ? '—' : link(ctx.r(`/block/${num(top.settledHeight)}`), `#${grouped(num(top.settledHeight))}`))
    plotBox.replaceChildren(gasPlot(blocks.slice(0, PLOTTED)))
    blocksBox.replaceChildren(
      table(
        'Latest blocks',
        ['Block', 'Age', 'Transactions', 'Gas used', 'Base fee'],
        blocks
          .slice(0, LIST)
          .map((b) => [
            link(ctx.r(`/block/${num(b.number)}`), `#${grouped(num(b.number))}`),
            h('time', { datetime: isoTime(num(b.timestamp)), 'data-ts': num(b.timestamp) }, age(num(b.timestamp))),
            String(b.transactions.length),
            grouped(num(b.gasUsed)),
            gwei(big(b.baseFeePerGas)),
          ]),
      ),
    )
    const txs = blocks.flatMap((b) => [...b.transactions].reverse()).slice(0, LIST)
    txsBox.replaceChildren(
      table(
        'Latest transactions',
        ['Transaction', 'Block', 'From', 'To', 'Value'],
        txs.map((t) => [
          link(ctx.r(`/tx/${t.hash}`), shortMono(t.hash), t.hash),
          link(ctx.r(`/block/${num(t.blockNumber)}`), `#${grouped(num(t.blockNumber))}`),
          link(ctx.r(`/address/${t.from}`), shortMono(t.from), t.from),
          t.to === null ? 'contract creation' : link(ctx.r(`/address/${t.to}`), shortMono(t.to), t.to),
          avaxFromWei(big(t.value)),
        ]),
        'No transactions in the latest blocks.',
      ),
    )
  }
  render()

  main.replaceChildren(
    h('h1', { tabindex: -1 }, `${ctx.chain.path === 'C' ? 'C-Chain' : `Chain ${ctx.chain.path}`} overview`),
    fields([
      ['Head block', h('span', {}, headNumber, headAge)],
      ['Settled', settled],
      ['Base fee', headFee],
      ['EVM chain ID', String(chainId)],
      precompiles !== undefined && ['Stateful precompiles', h('span', { id: 'precompiles-link' }, link(ctx.r('/precompiles'), `${precompiles} active`))],
      ['Blockchain ID', mono(ctx.chain.id)],
      ['Network ID', String(ctx.doc.networkID)],
    ]),
    section('Gas used and base fee', plotBox),
    h('div', { class: 'columns' }, section('Latest blocks', blocksBox), section('Latest transactions', txsBox)),
  )

  // One fetch at a time, in head order: a burst of heads fills in block by block.
  let queue = Promise.resolve()
  ctx.onHead((header) => {
    queue = queue.then(async () => {
      const n = num(header.number)
      if (blocks.some((b) => num(b.number) === n)) return
      const block = await ctx.api.call('eth_getBlockByNumber', [header.number, true])
      if (block === null) return
      blocks = [block, ...blocks.filter((b) => num(b.number) !== n)].sort((a, b) => num(b.number) - num(a.number)).slice(0, PLOTTED)
      render()
      ctx.announce(`New block ${grouped(n)} with ${block.transactions.length} transaction${block.transactions.length === 1 ? '' : 's'}`)
    })
  })
}

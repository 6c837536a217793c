/**
 * A subnet-evm chain's stateful precompiles: the ones active and since when, the fee config in effect,
 * the reward manager's address, and each allow list's accounts with their roles; read again at each
 * new head. On another chain (eth_getActiveRulesAt not served) it says there is nothing to show.
 */
import type { Ctx } from '../context.js'
import { fields, h, link, mono, note, section, shortMono, table } from '../dom.js'
import { grouped, gwei, isoTime } from '../format.js'
import { type ActivePrecompile, BLACKHOLE, type PrecompilesView, readPrecompiles, roleName } from '../precompiles.js'

/** The fee config's keys (subnet-evm commontype.FeeConfig) as the page names them, and how it writes each value. */
const FEE_FIELDS: readonly [string, string, (v: number) => string][] = [
  ['gasLimit', 'Gas limit', (v) => grouped(v)],
  ['targetBlockRate', 'Target block rate', (v) => `${grouped(v)} s`],
  ['minBaseFee', 'Minimum base fee', (v) => gwei(BigInt(v))],
  ['targetGas', 'Target gas', (v) => grouped(v)],
  ['baseFeeChangeDenominator', 'Base fee change denominator', (v) => grouped(v)],
  ['minBlockGasCost', 'Minimum block gas cost', (v) => grouped(v)],
  ['maxBlockGasCost', 'Maximum block gas cost', (v) => grouped(v)],
  ['blockGasCostStep', 'Block gas cost step', (v) => grouped(v)],
]

const since = (t: number): Node | string => (t === 0 ? 'genesis (timestamp 0)' : h('time', { datetime: isoTime(t) }, `${isoTime(t)} (${t})`))

const addressLink = (ctx: Ctx, address: string): Node => link(ctx.r(`/address/${address}`), shortMono(address), address)

function activeTable(ctx: Ctx, active: readonly ActivePrecompile[]): HTMLElement {
  return table(
    'Active precompiles',
    ['Precompile', 'Address', 'Config key', 'Active since', 'Accounts with a role'],
    active.map((p) => [p.known?.name ?? p.key, p.known === undefined ? '—' : addressLink(ctx, p.known.address), mono(p.key), since(p.since), p.roles === undefined ? '—' : String(p.roles.length)]),
    'No stateful precompile is active.',
  )
}

/** One allow list's accounts with a role, under a heading naming it (the table's caption is for screen readers). */
function rolesTable(ctx: Ctx, p: ActivePrecompile): HTMLElement {
  const { name, address } = p.known!
  return h(
    'div',
    { id: `roles-${p.key}` },
    h('h3', {}, name, ' ', mono(address, 'h3-mono')),
    table(
      `${name} roles`,
      ['Account', 'Role', 'Last change'],
      (p.roles ?? []).map((x) => [
        addressLink(ctx, x.account),
        roleName(x.role),
        x.last === undefined ? 'named in the chain config' : link(ctx.r(`/tx/${x.last.txHash}`), `${roleName(x.last.oldRole)} → ${roleName(x.last.role)} in block #${grouped(x.last.blockNumber)}`),
      ]),
      'No account holds a role.',
    ),
  )
}

function content(ctx: Ctx, v: PrecompilesView): HTMLElement[] {
  const allowLists = v.active.filter((p) => p.roles !== undefined)
  const { feeConfig, lastChangedAt } = v.fee
  return [
    fields([
      ['As of block', h('span', { id: 'precompiles-block' }, link(ctx.r(`/block/${v.blockNumber}`), `#${grouped(v.blockNumber)}`))],
      ['Active precompiles', String(v.active.length)],
    ]),
    section('Active precompiles', activeTable(ctx, v.active)),
    section(
      'Fee config',
      fields([
        ...FEE_FIELDS.filter(([key]) => feeConfig[key] !== undefined).map(([key, label, show]) => [label, show(feeConfig[key]!)] as const),
        ['Last changed', lastChangedAt === 0 ? 'at genesis' : link(ctx.r(`/block/${lastChangedAt}`), `block #${grouped(lastChangedAt)}`)],
      ]),
    ),
    v.reward !== undefined &&
      section(
        'Reward manager',
        fields([
          [
            'Reward address',
            v.reward.feeRecipientsAllowed
              ? 'none: each block’s coinbase takes its fees'
              : h('span', {}, link(ctx.r(`/address/${v.reward.address}`), mono(v.reward.address)), v.reward.address === BLACKHOLE ? ' (the blackhole: fees are burned)' : ''),
          ],
          ['Fee recipients allowed', v.reward.feeRecipientsAllowed ? 'yes' : 'no'],
        ]),
      ),
    allowLists.length > 0 &&
      section(
        'Roles',
        note('The accounts each allow list gives a role: those the chain config names (genesis and upgrades) and those of its RoleSet events, each with its role read now (readAllowList).'),
        h(
          'div',
          { class: 'role-tables' },
          allowLists.map((p) => rolesTable(ctx, p)),
        ),
      ),
  ].filter((x): x is HTMLElement => x !== false)
}

export async function precompilesPage(ctx: Ctx, main: HTMLElement): Promise<void> {
  const first = await readPrecompiles(ctx.api)
  if (first === undefined) {
    main.replaceChildren(
      h('h1', { tabindex: -1 }, 'No stateful precompiles'),
      note(`${ctx.chain.path === 'C' ? 'The C-Chain' : `Chain ${ctx.chain.path}`} is not a subnet-evm chain (it does not serve eth_getActiveRulesAt): it has no stateful precompiles.`),
    )
    return
  }
  const body = h('div', {}, content(ctx, first))
  const problem = h('p', { class: 'note bad', hidden: true })
  main.replaceChildren(h('h1', { tabindex: -1 }, `Stateful precompiles of ${ctx.chain.path}`), problem, body)

  // Read again at each new head (a burst of heads: one read running, one more after it).
  let running = false
  let again = false
  const refresh = async () => {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        const v = await readPrecompiles(ctx.api)
        if (v !== undefined) body.replaceChildren(...content(ctx, v))
        problem.hidden = true
      } while (again)
    } catch (err) {
      problem.textContent = `Could not read the precompiles again: ${(err as Error).message}`
      problem.hidden = false
    } finally {
      running = false
    }
  }
  ctx.onHead(() => void refresh())
}

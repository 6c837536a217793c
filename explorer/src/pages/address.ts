/**
 * An address: on the chain on view its balance, nonce, code and recent transactions; on X and P (the
 * same key) its balances and UTXOs, and the UTXOs exported to it that wait to be imported.
 */
import { amountText, owners } from '../atomicView.js'
import { cb58Encode, formatAddress, hexToBytes, parseAddress } from '../bytes.js'
import { decodeUTXO, fromAvalancheHex } from '../codec.js'
import type { Ctx } from '../context.js'
import { fields, h, link, mono, shortMono, note, section, table } from '../dom.js'
import { avaxFromNano, avaxFromWei, big, grouped, num } from '../format.js'
import { gorilla } from '../rpc.js'

/** Blocks back from the head searched for the address's transactions (batches of SCAN_BATCH). */
export const SCAN_BLOCKS = 256
const SCAN_BATCH = 64
const SHOWN = 25

type KeyAnswer = { found: true; address: string; shortAddress: string; X: string; P: string; C: string } | { found: false; error: string }

async function keyOf(ctx: Ctx, address: string): Promise<KeyAnswer> {
  const res = await fetch(`/explorer/key.json?chain=${encodeURIComponent(ctx.chain.path)}&address=${encodeURIComponent(address)}`)
  return (await res.json()) as KeyAnswer
}

async function recentTxs(ctx: Ctx, address: string): Promise<{ txs: any[]; from: number; to: number }> {
  const head = num(await ctx.api.call('eth_blockNumber'))
  const lowest = Math.max(0, head - SCAN_BLOCKS + 1)
  const want = address.toLowerCase()
  const txs: any[] = []
  for (let top = head; top >= lowest && txs.length < SHOWN; top -= SCAN_BATCH) {
    const numbers: number[] = []
    for (let n = top; n > top - SCAN_BATCH && n >= lowest; n--) numbers.push(n)
    const answers = await ctx.api.batch(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: ['0x' + n.toString(16), true] })))
    for (const a of answers) {
      if (!a.ok || a.value === null) continue
      for (const t of [...a.value.transactions].reverse()) if (t.from.toLowerCase() === want || (t.to ?? '').toLowerCase() === want) txs.push(t)
    }
  }
  return { txs: txs.slice(0, SHOWN), from: lowest, to: head }
}

function cChainSection(ctx: Ctx, address: string, balance: bigint, nonce: number, code: string, found: Awaited<ReturnType<typeof recentTxs>>): HTMLElement[] {
  const want = address.toLowerCase()
  const size = (code.length - 2) / 2
  return [
    fields([
      ['Balance', h('span', { id: 'c-balance' }, avaxFromWei(balance))],
      ['Nonce', String(nonce)],
      ['Kind', size > 0 ? `contract (${grouped(size)} bytes of code)` : 'account (no code)'],
    ]),
    size > 0 ? h('details', {}, h('summary', {}, 'Code'), h('pre', { class: 'mono wrap small' }, code)) : h('span', {}),
    section(
      'Recent transactions',
      note(`Transactions from or to this address in blocks ${grouped(found.from)} to ${grouped(found.to)} (the last ${SCAN_BLOCKS}), newest first.`),
      table(
        'Recent transactions',
        ['Transaction', 'Block', 'Direction', 'Counterparty', 'Value'],
        found.txs.map((t) => {
          const out = t.from.toLowerCase() === want
          const other = out ? t.to : t.from
          return [
            link(ctx.r(`/tx/${t.hash}`), shortMono(t.hash), t.hash),
            link(ctx.r(`/block/${num(t.blockNumber)}`), `#${grouped(num(t.blockNumber))}`),
            out && (t.to ?? '').toLowerCase() === want ? 'self' : out ? 'out' : 'in',
            other === null ? 'contract creation' : link(ctx.r(`/address/${other}`), shortMono(other), other),
            avaxFromWei(big(t.value)),
          ]
        }),
        'No transactions in the blocks searched.',
      ),
    ),
  ]
}

/** UTXO rows of one chain's getUTXOs (its own, or those `sourceChain` exported to it). */
async function utxoRows(ctx: Ctx, chain: 'X' | 'P' | 'C', address: string, sourceChain?: string): Promise<(Node | string)[][]> {
  const path = chain === 'X' ? ctx.paths.X : chain === 'P' ? ctx.paths.P : ctx.paths.avax
  const method = chain === 'X' ? 'avm.getUTXOs' : chain === 'P' ? 'platform.getUTXOs' : 'avax.getUTXOs'
  const res = await gorilla(path, method, { addresses: [address], encoding: 'hex', limit: 1024, ...(sourceChain !== undefined && { sourceChain }) })
  return (res.utxos as string[]).map((text) => {
    const u = decodeUTXO(fromAvalancheHex(text))
    const id = cb58Encode(u.txID)
    const o = u.output
    return [
      h('span', {}, link(ctx.r(`/atomic/${id}`), shortMono(id, 8), id), `:${u.outputIndex}`),
      sourceChain === undefined ? `on ${chain}` : `exported from ${sourceChain}, waiting to be imported on ${chain}`,
      o.kind === 'utxo'
        ? amountText(ctx, o.amount, o.assetID) + (o.stakeLocktime !== undefined ? ` (stakeable lock until ${o.stakeLocktime})` : '')
        : o.kind === 'other'
          ? `output type ${o.typeID}`
          : '—',
      o.kind === 'utxo' ? h('span', {}, owners(ctx, o.addresses, chain), o.threshold > 1 ? ` (${o.threshold} of ${o.addresses.length})` : '') : '—',
    ]
  })
}

async function xpSection(ctx: Ctx, shortAddr: Uint8Array, evmAddress?: string): Promise<HTMLElement> {
  const x = formatAddress('X', ctx.doc.hrp, shortAddr)
  const p = formatAddress('P', ctx.doc.hrp, shortAddr)
  const c = formatAddress('C', ctx.doc.hrp, shortAddr)
  const [xBal, pBal] = await Promise.all([gorilla(ctx.paths.X, 'avm.getBalance', { address: x, assetID: 'AVAX' }), gorilla(ctx.paths.P, 'platform.getBalance', { addresses: [p] })])
  const rows = (
    await Promise.all([
      utxoRows(ctx, 'X', x),
      utxoRows(ctx, 'P', p),
      utxoRows(ctx, 'C', c, 'X'),
      utxoRows(ctx, 'C', c, 'P'),
      utxoRows(ctx, 'X', x, 'C'),
      utxoRows(ctx, 'X', x, 'P'),
      utxoRows(ctx, 'P', p, 'C'),
      utxoRows(ctx, 'P', p, 'X'),
    ])
  ).flat()
  return section(
    'X-Chain and P-Chain',
    fields([
      ['X-Chain address', link(ctx.r(`/address/${x}`), mono(x))],
      ['P-Chain address', link(ctx.r(`/address/${p}`), mono(p))],
      ['C-Chain atomic address', mono(c)],
      evmAddress !== undefined && ['C-Chain account', link(ctx.r(`/address/${evmAddress}`), mono(evmAddress))],
      ['X-Chain balance', h('span', { id: 'x-balance' }, avaxFromNano(BigInt(xBal.balance)))],
      ['P-Chain balance', h('span', { id: 'p-balance' }, avaxFromNano(BigInt(pBal.balance)))],
      BigInt(pBal.lockedStakeable ?? '0') > 0n && ['P-Chain locked (stakeable)', avaxFromNano(BigInt(pBal.lockedStakeable))],
    ]),
    table('UTXOs', ['UTXO', 'Where', 'Amount', 'Owners'], rows, 'No UTXOs.'),
  )
}

export async function addressPage(ctx: Ctx, main: HTMLElement, address: string): Promise<void> {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) {
    const [balance, nonce, code, found, key] = await Promise.all([
      ctx.api.call('eth_getBalance', [address, 'latest']),
      ctx.api.call('eth_getTransactionCount', [address, 'latest']),
      ctx.api.call('eth_getCode', [address, 'latest']),
      recentTxs(ctx, address),
      keyOf(ctx, address),
    ])
    const xp = key.found
      ? await xpSection(ctx, hexToBytes(key.shortAddress))
      : section('X-Chain and P-Chain', note(`Not known: X and P addresses are another hash of the same key, and no transaction signed by this address was found (${key.error}).`))
    main.replaceChildren(h('h1', { tabindex: -1 }, 'Address ', mono(address, 'h1-mono')), ...cChainSection(ctx, address, big(balance), num(nonce), code, found), xp)
    return
  }
  const parsed = parseAddress(address)
  if (parsed === undefined || parsed.bytes.length !== 20) {
    main.replaceChildren(h('h1', { tabindex: -1 }, 'Not an address'), note(`${address} is neither a 0x address nor an X-/P-/C- address.`))
    return
  }
  const key = await keyOf(ctx, address)
  const xp = await xpSection(ctx, parsed.bytes, key.found ? key.address : undefined)
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Address ', mono(address, 'h1-mono')),
    note(key.found ? 'The same key signs for the C-Chain account below.' : `Its C-Chain account is not known: no transaction signed by this key was found (${key.error}).`),
    xp,
  )
}

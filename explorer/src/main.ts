/** The explorer's entry: the chain switch, the search field, the live head and the hash router. */
import type { ChainsDoc, Ctx, ExplorerChain } from './context.js'
import { h, note } from './dom.js'
import { age, grouped, num } from './format.js'
import { addressPage } from './pages/address.js'
import { atomicPage } from './pages/atomic.js'
import { blockPage } from './pages/block.js'
import { home } from './pages/home.js'
import { precompilesPage } from './pages/precompiles.js'
import { txPage } from './pages/tx.js'
import { EvmApi, type LiveState, subscribeHeads } from './rpc.js'
import { resolveSearch } from './search.js'

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T

/** `#/chain/<path>/block/12` -> the chain's path (undefined = the C-Chain), the page and its argument. */
function parseRoute(hash: string): { chain?: string; page: string; arg: string } {
  let parts = hash.replace(/^#\/?/, '').split('/')
  let chain: string | undefined
  if (parts[0] === 'chain' && parts.length >= 2) {
    chain = decodeURIComponent(parts[1]!)
    parts = parts.slice(2)
  }
  return { chain, page: parts[0] ?? '', arg: decodeURIComponent(parts.slice(1).join('/')) }
}

async function start(): Promise<void> {
  const main = byId<HTMLElement>('main')
  const status = byId<HTMLElement>('status')
  const select = byId<HTMLSelectElement>('chain-select')
  const liveText = byId<HTMLElement>('live-text')
  const liveHead = byId<HTMLAnchorElement>('live-head')
  const live = byId<HTMLElement>('live')
  const form = byId<HTMLFormElement>('search-form')
  const input = byId<HTMLInputElement>('search')
  const searchError = byId<HTMLElement>('search-error')

  byId<HTMLAnchorElement>('skip').addEventListener('click', (ev) => {
    ev.preventDefault()
    ;(main.querySelector('h1') ?? main).focus()
  })

  const doc = (await (await fetch('/explorer/chains.json')).json()) as ChainsDoc
  for (const c of doc.chains) {
    select.append(h('option', { value: c.path, disabled: c.error !== undefined }, c.path === 'C' ? 'C-Chain' : c.path, c.error !== undefined ? ' (not running)' : ''))
  }

  let chain: ExplorerChain = doc.chains[0]!
  let stopLive: (() => void) | undefined
  let headHandlers: ((header: any) => void)[] = []
  let navigation = 0
  let first = true

  const r = (route: string) => (chain.id === doc.chains[0]!.id ? route : `/chain/${encodeURIComponent(chain.path)}${route}`)

  const watch = () => {
    stopLive?.()
    liveHead.textContent = '—'
    stopLive = subscribeHeads(
      chain.path,
      (header) => {
        liveHead.textContent = `#${grouped(num(header.number))}`
        liveHead.href = '#' + r(`/block/${num(header.number)}`)
        for (const cb of headHandlers) cb(header)
      },
      (state: LiveState) => {
        live.dataset.state = state
        liveText.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'offline, retrying'
      },
    )
    const api = new EvmApi(chain.path)
    api.call('eth_blockNumber').then(
      (n) => {
        if (liveHead.textContent === '—') {
          liveHead.textContent = `#${grouped(num(n))}`
          liveHead.href = '#' + r(`/block/${num(n)}`)
        }
      },
      () => {},
    )
  }

  const render = async () => {
    const route = parseRoute(location.hash)
    const wanted = doc.chains.find((c) => c.path === route.chain || c.aliases.includes(route.chain ?? '') || c.id === route.chain) ?? doc.chains[0]!
    if (wanted.id !== chain.id || stopLive === undefined) {
      chain = wanted
      select.value = chain.path
      watch()
    }
    const mine = ++navigation
    headHandlers = []
    const ctx: Ctx = {
      doc,
      chain,
      api: new EvmApi(chain.path),
      r,
      onHead: (cb) => {
        if (mine === navigation) headHandlers.push(cb)
      },
      announce: (text) => {
        status.textContent = text
      },
      paths: { avax: `/ext/bc/${encodeURIComponent(chain.path)}/avax`, X: '/ext/bc/X', P: '/ext/bc/P' },
    }
    // Each page renders into its own element: a slow answer for a page left meanwhile lands nowhere.
    const page = h('div', { class: 'page' }, note('Loading…'))
    main.replaceChildren(page)
    main.setAttribute('aria-busy', 'true')
    try {
      if (route.page === '' || route.page === 'home') await home(ctx, page)
      else if (route.page === 'block') await blockPage(ctx, page, route.arg)
      else if (route.page === 'tx') await txPage(ctx, page, route.arg)
      else if (route.page === 'address') await addressPage(ctx, page, route.arg)
      else if (route.page === 'atomic') await atomicPage(ctx, page, route.arg)
      else if (route.page === 'precompiles') await precompilesPage(ctx, page)
      else page.replaceChildren(h('h1', { tabindex: -1 }, 'Page not found'), note(`Nothing is at ${location.hash}.`))
    } catch (err) {
      if (mine !== navigation) return
      page.replaceChildren(h('h1', { tabindex: -1 }, 'Could not load this page'), note((err as Error).message, 'note bad'))
    }
    if (mine !== navigation) return
    main.removeAttribute('aria-busy')
    const title = page.querySelector('h1')?.textContent ?? ''
    document.title = `${title} · ${chain.path === 'C' ? 'C-Chain' : chain.path} · cchain-node explorer`
    // Moving between pages puts the focus on the new page's heading (not on the first load).
    if (!first) page.querySelector<HTMLElement>('h1')?.focus()
    first = false
  }

  select.addEventListener('change', () => {
    const c = doc.chains.find((x) => x.path === select.value)!
    location.hash = c.id === doc.chains[0]!.id ? '#/' : `#/chain/${encodeURIComponent(c.path)}/`
  })

  form.addEventListener('submit', (ev) => {
    ev.preventDefault()
    searchError.textContent = ''
    input.removeAttribute('aria-invalid')
    const ctx = { r, api: new EvmApi(chain.path) } as Ctx
    resolveSearch(ctx, input.value).then(
      (res) => {
        if ('route' in res) {
          if (location.hash === '#' + res.route) void render()
          else location.hash = res.route
        } else {
          searchError.textContent = res.error
          input.setAttribute('aria-invalid', 'true')
        }
      },
      (err: Error) => {
        searchError.textContent = err.message
      },
    )
  })

  // `/` jumps to the search field from anywhere but a text field (aria-keyshortcuts on the field says so).
  document.addEventListener('keydown', (ev) => {
    const target = ev.target as HTMLElement
    if (ev.key !== '/' || ev.ctrlKey || ev.metaKey || ev.altKey || target.matches('input, textarea, select')) return
    ev.preventDefault()
    input.focus()
    input.select()
  })

  window.addEventListener('hashchange', () => void render())
  // Ages tick without a reload.
  window.setInterval(() => {
    for (const t of document.querySelectorAll<HTMLElement>('time[data-ts]')) t.textContent = age(Number(t.dataset.ts))
  }, 5000)
  await render()
}

start().catch((err: Error) => {
  byId<HTMLElement>('main').replaceChildren(h('h1', {}, 'The explorer could not start'), note(err.message, 'note bad'))
})

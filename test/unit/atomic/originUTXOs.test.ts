import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { OriginUTXOs, avaxPath } from '../../../src/atomic/originUTXOs.js'
import { encodeUTXO, utxoInputID } from '../../../src/avalanche/avax.js'
import { cb58Decode, cb58Encode } from '../../../src/avalanche/cb58.js'
import { encodeBytes } from '../../../src/avalanche/encoding.js'
import { OriginUnreachableError } from '../../../src/fork/errors.js'
import { OriginClient } from '../../../src/fork/originClient.js'
import { type Database, openDatabase } from '../../../src/store/db.js'
import { OriginUTXOMarks } from '../../../src/store/originUTXOMarks.js'
import { SharedMemory } from '../../../src/store/sharedMemory.js'
import { tempDirs } from '../../helpers/tempDirs.js'

/*
 * A fork's origin's atomic UTXOs against an origin served here (avalanchego's avax.getUTXOs paging,
 * a 404 path, a method it does not know), on a real LevelDB: what lands in shared memory, in what
 * order, once per address, and what is never asked or never brought back.
 */

const log = pino({ level: 'silent' })
const tempDir = tempDirs('cchain-origin-utxos-')
const X = new Uint8Array(32).fill(0xaa)
const P = new Uint8Array(32)
const C = new Uint8Array(32).fill(0xcc)
const AVAX = new Uint8Array(32).fill(0x11)
const chains = { xChainID: X, pChainID: P, cChainID: C }
const addr = (n: number): Uint8Array => new Uint8Array(20).fill(n)
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** A UTXO of output `i` of a tx named by `seed`, owned by `owners`. */
function utxo(seed: string, owners: Uint8Array[]): Uint8Array {
  const txID = new Uint8Array(createHash('sha256').update(seed).digest())
  return encodeUTXO({ utxoID: { txID, outputIndex: 0 }, assetID: AVAX, out: { amount: 1000n, locktime: 0n, threshold: 1, addrs: owners } })
}

/** What the origin holds per address (hex), newest first, and every request it got. */
const held = new Map<string, Uint8Array[]>()
const requests: { path: string; query: string; params: any }[] = []
const PAGE = 1024
let server: Server
let base: string
/** Called with each request's path once its answer is made, before it is sent. */
let answered: ((path: string) => void) | undefined

/** avalanchego's avax.getUTXOs over `held`, the cursor an opaque position, resumed inclusively. */
function getUTXOs(params: any): unknown {
  const list = (params.addresses as string[]).flatMap((a) => held.get(hexOf(cb58Decode(a))) ?? [])
  const from = params.startIndex === undefined ? 0 : Number(params.startIndex.utxo)
  const page = list.slice(from, from + Math.min(params.limit, PAGE))
  return { numFetched: String(page.length), utxos: page.map((b) => encodeBytes('hex', b)), endIndex: { address: params.addresses.at(-1), utxo: String(from + page.length - 1) }, encoding: 'hex' }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const [path, query = ''] = req.url!.split('?')
      const msg = JSON.parse(body)
      requests.push({ path: path!, query, params: msg.params?.[0] })
      if (path === '/gone/ext/bc/C/avax') {
        res.statusCode = 404
        res.end('404 page not found\n')
        return
      }
      res.setHeader('content-type', 'application/json')
      if (path === '/plain/ext/bc/C/avax') res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: 'rpc: can\'t find service "avax"' } }))
      else {
        const result = getUTXOs(msg.params[0])
        answered?.(path!)
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }))
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((r) => server.close(r))
  tempDir.removeAll()
})

let db: Database
let sm: SharedMemory
let dir: string
beforeEach(async () => {
  held.clear()
  requests.length = 0
  answered = undefined
  dir = tempDir()
  db = await openDatabase(dir)
  sm = await SharedMemory.open(db, { cChainID: C })
})
afterEach(async () => {
  if (db.status === 'open') await db.close()
})

const client = (url: string): OriginClient => new OriginClient({ url, log, attempts: 1, timeoutMs: 5000 })

/** The fetcher of a fork of `url` (undefined: not a fork), or of whatever origin `origin` answers at each call. */
function fetcher(url: string | undefined | (() => OriginClient | undefined)): OriginUTXOs {
  const fixed = typeof url === 'string' ? client(url) : undefined
  const origin = typeof url === 'function' ? url : () => fixed
  return new OriginUTXOs({ origin, sharedMemory: sm, marks: new OriginUTXOMarks(db), chains, peerChains: [X, P], exclusive: (fn) => fn(), log })
}

const listed = (owner: Uint8Array, source = X): string[] => sm.indexed('inbound', source, [owner], new Uint8Array(20), undefined, 5000).values.map(hexOf)

describe('avaxPath', () => {
  it("maps avalanchego's RPC path of a chain to its avax path; nothing else", () => {
    expect(avaxPath('/ext/bc/C/rpc')).toBe('/ext/bc/C/avax')
    expect(avaxPath('/ext/bc/C/rpc/')).toBe('/ext/bc/C/avax')
    expect(avaxPath('/v1/some-key/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc')).toBe('/v1/some-key/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/avax')
    for (const other of ['/', '', '/rpc', '/ext/bc/C/ws', '/ext/bc/C/avax', '/ext/bc/rpc', '/ext/bc/C/rpc/x']) expect(avaxPath(other)).toBeUndefined()
  })
})

describe('OriginUTXOs', () => {
  it("pages through the origin's UTXOs of an address into shared memory, in the origin's order, once", async () => {
    const many = Array.from({ length: 1500 }, (_, i) => utxo(`a${i}`, [addr(1)]))
    held.set(hexOf(addr(1)), [...many])
    const f = fetcher(`${base}/ext/bc/C/rpc?key=secret`)
    await f.fetch([addr(1)], X)
    expect(listed(addr(1))).toEqual(many.map(hexOf))
    // Two pages (the second resumed at the first's end), the chain by its alias, the address as a CB58 short ID, the URL's query kept.
    expect(requests.map((r) => [r.path, r.query, r.params.sourceChain, r.params.addresses, r.params.startIndex?.utxo])).toEqual([
      ['/ext/bc/C/avax', 'key=secret', 'X', [cb58Encode(addr(1))], undefined],
      ['/ext/bc/C/avax', 'key=secret', 'X', [cb58Encode(addr(1))], '1023'],
    ])
    // Fetched once: a new export on the origin is not seen, and the origin is not asked again, not even after a reopen.
    held.get(hexOf(addr(1)))!.unshift(utxo('later', [addr(1)]))
    await f.fetch([addr(1)], X)
    await db.close()
    db = await openDatabase(dir)
    sm = await SharedMemory.open(db, { cChainID: C })
    await fetcher(`${base}/ext/bc/C/rpc`).fetch([addr(1)], X)
    expect(requests).toHaveLength(2)
    expect(listed(addr(1))).toEqual(many.map(hexOf))
  })

  it('fetches per source chain; a chain it does not import from, or a chain that is not a fork, asks nothing', async () => {
    const fromP = utxo('p', [addr(2)])
    held.set(hexOf(addr(2)), [fromP])
    await fetcher(`${base}/ext/bc/C/rpc`).fetch([addr(2)], P)
    expect(requests.map((r) => r.params.sourceChain)).toEqual(['P'])
    expect(listed(addr(2), P)).toEqual([hexOf(fromP)])
    expect(listed(addr(2), X)).toEqual([])
    await fetcher(`${base}/ext/bc/C/rpc`).fetch([addr(2)], C)
    await fetcher(undefined).fetch([addr(2)], X)
    expect(requests).toHaveLength(1)
  })

  it('never brings back a UTXO imported here: fetched again for its other owner, it stays consumed', async () => {
    const shared = utxo('shared', [addr(3), addr(4)])
    held.set(hexOf(addr(3)), [shared])
    held.set(hexOf(addr(4)), [shared])
    const f = fetcher(`${base}/ext/bc/C/rpc`)
    await f.fetch([addr(3)], X)
    expect(listed(addr(4))).toEqual([hexOf(shared)])
    await sm.apply([{ direction: 'inbound', peerChain: X, removes: [utxoInputID({ txID: new Uint8Array(createHash('sha256').update('shared').digest()), outputIndex: 0 })] }])
    await f.fetch([addr(4)], X)
    expect(requests).toHaveLength(2)
    expect(listed(addr(3))).toEqual([])
    expect(listed(addr(4))).toEqual([])
  })

  it('two queries at once for one address put its UTXOs once', async () => {
    const one = utxo('once', [addr(5)])
    held.set(hexOf(addr(5)), [one])
    const f = fetcher(`${base}/ext/bc/C/rpc`)
    await Promise.all([f.fetch([addr(5)], X), f.fetch([addr(5)], X)])
    expect(requests).toHaveLength(1)
    expect(listed(addr(5))).toEqual([hexOf(one)])
  })

  it("a fork made of another origin while a fetch is under way (anvil_reset forking) keeps the new origin's UTXOs, not the old one's", async () => {
    const before = utxo('old origin', [addr(9)])
    const after = utxo('new origin', [addr(9)])
    held.set(hexOf(addr(9)), [before])
    let current = client(`${base}/old/ext/bc/C/rpc`)
    answered = (path) => {
      if (path !== '/old/ext/bc/C/avax') return
      current = client(`${base}/new/ext/bc/C/rpc`)
      held.set(hexOf(addr(9)), [after])
    }
    await fetcher(() => current).fetch([addr(9)], X)
    expect(requests.map((r) => r.path)).toEqual(['/old/ext/bc/C/avax', '/new/ext/bc/C/avax'])
    expect(listed(addr(9))).toEqual([hexOf(after)])
  })

  it('a plain EVM origin: a URL of another shape is never asked; a 404 or an unknown service is asked once, then never again', async () => {
    held.set(hexOf(addr(6)), [utxo('x', [addr(6)])])
    await fetcher(`${base}/`).fetch([addr(6)], X)
    expect(requests).toEqual([])
    for (const path of ['/gone', '/plain']) {
      const f = fetcher(`${base}${path}/ext/bc/C/rpc`)
      await f.fetch([addr(6)], X)
      await f.fetch([addr(7)], X)
      await f.fetch([addr(6)], P)
    }
    expect(requests.map((r) => r.path)).toEqual(['/gone/ext/bc/C/avax', '/plain/ext/bc/C/avax'])
    expect(listed(addr(6))).toEqual([])
  })

  it('an unreachable origin fails naming it and marks nothing: the address is fetched once it answers', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    const down = fetcher(`http://127.0.0.1:${port}/ext/bc/C/rpc`)
    await expect(down.fetch([addr(8)], X)).rejects.toThrow(OriginUnreachableError)
    await expect(down.fetch([addr(8)], X)).rejects.toThrow(`fork origin http://127.0.0.1:${port} is unreachable: `)
    expect(new OriginUTXOMarks(db).has(X, addr(8))).toBe(false)
    const one = utxo('back', [addr(8)])
    held.set(hexOf(addr(8)), [one])
    await fetcher(`${base}/ext/bc/C/rpc`).fetch([addr(8)], X)
    expect(listed(addr(8))).toEqual([hexOf(one)])
  })
})

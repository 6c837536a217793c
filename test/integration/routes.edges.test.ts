/**
 * avalanchego's routes at the edges: CORS and preflights on every API a browser wallet or dApp calls
 * (rs/cors in front of every route: avalanchego api/server/server.go), and the API aliases
 * avalanchego registers for the primary network's chains (genesis/aliases.go).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { rawHttp, type RawResponse } from '../helpers/rawHttp.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { AVAX, LOCAL_C, LOCAL_P, LOCAL_X } from '../helpers/constants.js'

const BROWSER = 'http://localhost:3000'
const EVIL = 'http://evil.example'

let tn: TestNode
beforeAll(async () => {
  tn = await startTestNode({ chain: { 'admin-api-enabled': true } })
})
afterAll(() => tn.close())

/** A call each path serves, and what its answer's result must be. */
type Served = { path: string; method: string; params: unknown; result: (r: unknown) => void }
const evm = (path: string): Served => ({ path, method: 'eth_chainId', params: [], result: (r) => expect(r).toBe('0xa868') })
const avax = (path: string): Served => ({ path, method: 'avax.getAtomicTxStatus', params: { txID: LOCAL_X }, result: (r) => expect(r).toEqual({ status: 'Unknown' }) })
const native = (path: string): Served => ({ ...avax(path), method: 'native.getAtomicTxStatus' })
const avm = (path: string): Served => ({ path, method: 'avm.getAssetDescription', params: { assetID: 'AVAX' }, result: (r) => expect(r).toMatchObject({ assetID: AVAX, symbol: 'AVAX' }) })
const platform = (path: string): Served => ({ path, method: 'platform.getHeight', params: {}, result: (r) => expect(r).toMatchObject({ height: expect.any(String) }) })

const C_BASES = ['/ext/bc/C', `/ext/bc/${LOCAL_C}`, '/ext/bc/evm', '/ext/C', '/ext/evm']
const X_PATHS = ['/ext/bc/X', `/ext/bc/${LOCAL_X}`, '/ext/bc/avm', '/ext/X', '/ext/avm']
const P_PATHS = ['/ext/bc/P', `/ext/bc/${LOCAL_P}`, '/ext/bc/platform', '/ext/P', '/ext/platform']

/** Every browser-facing API path with a call it serves. */
const SERVED: Served[] = [
  ...C_BASES.flatMap((b) => [evm(`${b}/rpc`), avax(`${b}/avax`), native(`${b}/native`)]),
  ...X_PATHS.map(avm),
  ...P_PATHS.map(platform),
  { path: '/ext/info', method: 'info.getNetworkID', params: {}, result: (r) => expect(r).toEqual({ networkID: '12345' }) },
  { path: '/ext/health', method: 'health.liveness', params: {}, result: (r) => expect(r).toMatchObject({ healthy: true }) },
]

const corsHeaders = (res: RawResponse): string[] => Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawHttp(tn.port, { path, body, headers: { 'content-type': 'application/json', ...headers } })
}

function preflight(path: string, origin: string, method = 'POST'): Promise<RawResponse> {
  return rawHttp(tn.port, { method: 'OPTIONS', path, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } })
}

describe('CORS on every API a browser calls (docs/SECURITY.md, N3)', () => {
  it.each(SERVED.map((s) => [s.path, s] as const))('a preflight from http://localhost:3000 succeeds at %s, and its POST carries the allow-origin header', async (_path, s) => {
    const pre = await preflight(s.path, BROWSER)
    expect(pre.status).toBe(200)
    expect(pre.body).toBe('')
    expect(pre.headers['access-control-allow-origin']).toBe(BROWSER)
    expect(pre.headers['access-control-allow-methods']).toBe('POST')
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type')
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined()
    expect(pre.headers.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }), { origin: BROWSER })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe(BROWSER)
    expect(res.headers['access-control-allow-credentials']).toBeUndefined()
    expect(res.headers.vary).toBe('Origin')
    s.result(JSON.parse(res.body).result)
  })

  it('an origin that is neither loopback nor configured gets no CORS headers, on a preflight or a call', async () => {
    for (const s of SERVED) {
      const pre = await preflight(s.path, EVIL)
      expect(pre.status, s.path).toBe(200)
      expect(corsHeaders(pre), s.path).toEqual([])
      const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }), { origin: EVIL })
      expect(res.status, s.path).toBe(200)
      expect(corsHeaders(res), s.path).toEqual([])
    }
  })

  it('a preflight asking for a method or a header rs/cors does not allow gets no CORS headers', async () => {
    expect(corsHeaders(await preflight('/ext/bc/X', BROWSER, 'PUT'))).toEqual([])
    const custom = await rawHttp(tn.port, {
      method: 'OPTIONS',
      path: '/ext/bc/C/avax',
      headers: { origin: BROWSER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    })
    expect(custom.status).toBe(200)
    expect(corsHeaders(custom)).toEqual([])
    const accept = await rawHttp(tn.port, {
      method: 'OPTIONS',
      path: '/ext/info',
      headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'post', 'access-control-request-headers': 'accept,Content-Type' },
    })
    expect(accept.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173')
    expect(accept.headers['access-control-allow-methods']).toBe('POST')
    expect(accept.headers['access-control-allow-headers']).toBe('Accept, Content-Type')
  })

  it('the health GETs carry CORS headers and answer preflights', async () => {
    for (const path of ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness']) {
      const res = await rawHttp(tn.port, { method: 'GET', path, headers: { origin: BROWSER } })
      expect(res.status, path).toBe(200)
      expect(res.headers['access-control-allow-origin'], path).toBe(BROWSER)
      expect((await preflight(path, BROWSER, 'GET')).headers['access-control-allow-methods'], path).toBe('GET')
    }
  })

  it('the keystore and admin APIs stay without CORS: a preflight there is 405 with no CORS headers', async () => {
    for (const path of ['/ext/bc/C/admin', '/ext/C/admin']) {
      const pre = await preflight(path, BROWSER)
      expect(pre.status, path).toBe(405)
      expect(corsHeaders(pre), path).toEqual([])
    }
  })
})

describe("avalanchego's API aliases (genesis/aliases.go): each answers as the canonical path", () => {
  it.each(SERVED.map((s) => [s.path, s] as const))('%s answers 200 to a real call', async (_path, s) => {
    const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }))
    expect(res.status).toBe(200)
    s.result(JSON.parse(res.body).result)
  })

  it('the WebSocket at /ext/C/ws, /ext/evm/ws and /ext/bc/evm/ws', async () => {
    for (const base of ['/ext/C', '/ext/evm', '/ext/bc/evm']) {
      const ws = new WebSocket(`ws://127.0.0.1:${tn.port}${base}/ws`)
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }))
      const msg = await new Promise<string>((resolve) => ws.once('message', (m) => resolve(m.toString())))
      expect(JSON.parse(msg), base).toEqual({ jsonrpc: '2.0', id: 7, result: '0xa868' })
      ws.close()
    }
  })

  it('the admin API at /ext/bc/evm/admin, /ext/C/admin and /ext/evm/admin', async () => {
    for (const base of ['/ext/bc/C', '/ext/bc/evm', '/ext/C', '/ext/evm']) {
      const res = await post(`${base}/admin`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getVMConfig', params: {} }))
      expect(res.status, base).toBe(200)
      expect(JSON.parse(res.body).result.config['admin-api-enabled'], base).toBe(true)
    }
  })

  it('no alias avalanchego does not register: /ext/<chain ID>, /ext/bc/<X or P alias>/rpc, /ext/X/rpc', async () => {
    for (const path of [`/ext/${LOCAL_X}`, `/ext/${LOCAL_C}/rpc`, '/ext/X/rpc', '/ext/avm/avax', '/ext/platform/rpc', '/ext/info/rpc']) {
      const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))
      expect(res.status, path).toBe(404)
    }
  })
})

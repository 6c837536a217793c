import { once } from 'node:events'
import { connect } from 'node:net'
import { rawHttp } from '../helpers/rawHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import pino from 'pino'
import WebSocket from 'ws'
import { Dispatcher } from '../../src/rpc/dispatch.js'
import { method } from '../../src/rpc/types.js'
import { createServer, type Server } from '../../src/server/server.js'

const log = pino({ level: 'silent' })
const rpc = new Dispatcher(
  {
    eth_chainId: method(z.tuple([]), () => '0xa868'),
    echo: method(z.tuple([z.string()]), ([s]) => s),
  },
  { batchRequestLimit: 1000, batchResponseMaxSize: 25_000_000, log },
)

const BODY_LIMIT = 1024
const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
let server: Server
let port: number

const http = (opts: Parameters<typeof rawHttp>[1]) => rawHttp(port, opts)
const post = (body: string, contentType = 'application/json', path?: string) => http({ body, path, headers: { 'content-type': contentType } })

beforeAll(async () => {
  server = createServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimit: BODY_LIMIT,
    log,
    chains: new Map([
      ['C', { rpc }],
      ['2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', { rpc }],
    ]),
  })
  port = (await server.listen()).port
})
afterAll(() => server.close())

describe('POST /ext/bc/:chain/rpc', () => {
  it('answers JSON-RPC with 200 application/json, by alias and by blockchain ID', async () => {
    for (const chain of ['C', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5']) {
      const res = await post(CHAIN_ID_CALL, 'application/json', `/ext/bc/${chain}/rpc`)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.body).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
    }
  })

  it.each(['application/json; charset=utf-8', 'application/json-rpc', 'application/jsonrequest'])('accepts %s', async (ct) => {
    expect((await post(CHAIN_ID_CALL, ct)).status).toBe(200)
  })

  it('answers on the fast path (src/server/rpcFastPath.ts) exactly as the Fastify route does (a query string goes to Fastify)', async () => {
    const bodies = [
      CHAIN_ID_CALL,
      '{"jsonrpc":"2.0","method":"eth_chainId"}',
      `[${CHAIN_ID_CALL},{"jsonrpc":"2.0","id":"é","method":"echo","params":["ü"]}]`,
      '{"jsonrpc":',
      '',
      '{"jsonrpc":"2.0","id":1e3,"method":"nope"}',
    ]
    const headerSets: Record<string, string>[] = [{}, { origin: 'http://localhost:5173' }, { origin: 'http://evil.example' }]
    for (const body of bodies) {
      for (const extra of headerSets) {
        for (const ct of ['application/json', 'application/json-rpc; charset=utf-8']) {
          const send = (path: string) => http({ body, path, headers: { 'content-type': ct, ...extra } })
          const [fast, slow] = [await send('/ext/bc/C/rpc'), await send('/ext/bc/C/rpc?via=fastify')]
          const { date: _d1, ...fastHeaders } = fast.headers
          const { date: _d2, ...slowHeaders } = slow.headers
          expect({ status: fast.status, headers: fastHeaders, body: fast.body }).toEqual({ status: slow.status, headers: slowHeaders, body: slow.body })
        }
      }
    }
  })

  it('answers -32700 with HTTP 200 for a non-JSON body', async () => {
    const res = await post('{"jsonrpc":')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
  })

  const gethError = (status: number, body: string) => ({ status, type: 'text/plain; charset=utf-8', nosniff: 'nosniff', body })
  const fault = (res: Awaited<ReturnType<typeof http>>) => ({ status: res.status, type: res.headers['content-type'], nosniff: res.headers['x-content-type-options'], body: res.body })

  it("415 with geth's text for other content types, or none (geth rpc/http.go validateRequest)", async () => {
    const refused = gethError(415, 'invalid content type, only application/json is supported\n')
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/json, text/plain', 'application/json;;', 'application/json; charset']) {
      expect(fault(await post(CHAIN_ID_CALL, ct)), ct).toEqual(refused)
    }
    expect(fault(await http({ body: CHAIN_ID_CALL }))).toEqual(refused)
    expect(fault(await http({}))).toEqual(refused)
    // Go's mime.ParseMediaType: any case, parameters, a trailing semicolon.
    for (const ct of ['Application/JSON', 'application/json;charset=UTF-8', 'application/json; foo="a;b"', 'application/json;']) {
      expect((await post(CHAIN_ID_CALL, ct)).body, ct).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
    }
  })

  it("413 with geth's text for a declared length over the limit", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['x'.repeat(BODY_LIMIT)] })
    expect(fault(await post(body))).toEqual(gethError(413, `content length too large (${Buffer.byteLength(body)}>${BODY_LIMIT})\n`))
  })

  it("405 with geth's text for PUT and DELETE", async () => {
    const headers = { 'content-type': 'application/json', 'content-length': String(CHAIN_ID_CALL.length) }
    for (const method of ['PUT', 'DELETE']) expect(fault(await http({ method, body: CHAIN_ID_CALL, headers }))).toEqual(gethError(405, 'method not allowed\n'))
  })

  it('an empty GET is the health check: 200, empty (geth ServeHTTP); a GET with a JSON body or a PATCH is served; a GET with a query is not the health check', async () => {
    const health = await http({ method: 'GET' })
    expect([health.status, health.body, health.headers['content-type'], health.headers['content-length']]).toEqual([200, '', undefined, '0'])
    expect((await http({ method: 'GET', path: '/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc' })).status).toBe(200)
    for (const method of ['GET', 'PATCH']) {
      // Node's client sends a GET body without a length unless told one.
      const served = await http({ method, body: CHAIN_ID_CALL, headers: { 'content-type': 'application/json', 'content-length': String(CHAIN_ID_CALL.length) } })
      expect([served.status, served.body]).toEqual([200, '{"jsonrpc":"2.0","id":1,"result":"0xa868"}'])
    }
    expect(fault(await http({ method: 'GET', path: '/ext/bc/C/rpc?x=1' }))).toEqual(gethError(415, 'invalid content type, only application/json is supported\n'))
    expect((await http({ method: 'GET', path: '/ext/bc/C/rpc?' })).status).toBe(200)
    // An unknown chain is still 404.
    expect((await http({ method: 'GET', path: '/ext/bc/X/rpc' })).status).toBe(404)
  })

  it('404 for unknown paths and unknown chains', async () => {
    expect((await post(CHAIN_ID_CALL, 'application/json', '/ext/bc/C/nope')).status).toBe(404)
    const res = await post(CHAIN_ID_CALL, 'application/json', '/ext/bc/X/rpc')
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toEqual({ error: 'unknown blockchain "X": no EVM chain of this node has that ID or alias' })
  })

  it('403 for a Host that is not allowed, IP literals and localhost pass', async () => {
    const withHost = (host: string) => http({ body: CHAIN_ID_CALL, headers: { host, 'content-type': 'application/json' } })
    expect((await withHost('evil.example')).status).toBe(403)
    expect((await withHost('evil.example:9650')).status).toBe(403)
    expect((await withHost(`localhost:${port}`)).status).toBe(200)
    expect((await withHost('[::1]:9650')).status).toBe(200)
    expect((await withHost('10.0.0.1')).status).toBe(200)
  })

  it('CORS only for loopback origins: the origin echoed, never *, no credentials; none for others', async () => {
    const withOrigin = (origin: string, method = 'POST') =>
      http({
        method,
        body: method === 'POST' ? CHAIN_ID_CALL : undefined,
        headers: { origin, 'content-type': 'application/json', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
    const local = await withOrigin('http://localhost:5173')
    expect(local.status).toBe(200)
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(local.headers['access-control-allow-credentials']).toBeUndefined()
    // A preflight answers as rs/cors does in front of avalanchego: 200, the asked method and headers.
    const preflight = await withOrigin('http://127.0.0.1:3000', 'OPTIONS')
    expect(preflight.status).toBe(200)
    expect(preflight.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000')
    expect(preflight.headers['access-control-allow-methods']).toBe('POST')
    expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type')
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined()
    for (const method of ['POST', 'OPTIONS']) {
      const evil = await withOrigin('http://evil.example', method)
      expect(evil.headers['access-control-allow-origin']).toBeUndefined()
    }
    const plain = await http({ method: 'OPTIONS' })
    expect(plain.status).toBe(204)
    expect(plain.headers.allow).toBe('POST, OPTIONS')
  })
})

describe('transport limits from the options (--http-allowed-hosts, --http-allowed-origins, --http-max-body-size)', () => {
  let custom: Server
  let customPort: number
  beforeAll(async () => {
    custom = createServer({
      host: '127.0.0.1',
      port: 0,
      bodyLimit: 64,
      log,
      chains: new Map([['C', { rpc }]]),
      allowedHosts: ['node.test'],
      allowedOrigins: ['https://app.example'],
      http: { headersTimeoutMs: 2_000, requestTimeoutMs: 3_000, keepAliveTimeoutMs: 1_000, maxConnections: 16 },
    })
    customPort = (await custom.listen()).port
  })
  afterAll(() => custom.close())

  it('applies them', async () => {
    const call = (headers: Record<string, string>, body = CHAIN_ID_CALL) => rawHttp(customPort, { body, headers: { 'content-type': 'application/json', ...headers } })
    expect((await call({ host: 'node.test:9650' })).status).toBe(200)
    expect((await call({ host: 'other.test' })).status).toBe(403)
    expect((await call({ origin: 'https://app.example' })).headers['access-control-allow-origin']).toBe('https://app.example')
    expect((await call({}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['x'.repeat(64)] }))).status).toBe(413)
    expect(custom.fastify.server.headersTimeout).toBe(2_000)
    expect(custom.fastify.server.maxConnections).toBe(16)
  })
})

describe('--http-allowed-origins *', () => {
  it('answers any origin with `*`, as rs/cors does for avalanchego configured so, still without credentials', async () => {
    const any = createServer({ host: '127.0.0.1', port: 0, log, chains: new Map([['C', { rpc }]]), roots: ['C'], allowedOrigins: ['*'] })
    const anyPort = (await any.listen()).port
    try {
      for (const path of ['/ext/bc/C/rpc', '/ext/C/rpc']) {
        const res = await rawHttp(anyPort, { path, body: CHAIN_ID_CALL, headers: { 'content-type': 'application/json', origin: 'https://dapp.example' } })
        expect(res.body).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
        expect(res.headers['access-control-allow-origin']).toBe('*')
        const pre = await rawHttp(anyPort, { method: 'OPTIONS', path, headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' } })
        expect(pre.headers['access-control-allow-origin']).toBe('*')
        expect(pre.headers['access-control-allow-credentials']).toBeUndefined()
      }
    } finally {
      await any.close()
    }
  })
})

describe('slow clients (docs/SECURITY.md, L9, L10)', () => {
  it('a slow-loris connection gets 408 once its headers took 10 s, not at the next 30 s check of Node', async () => {
    expect(server.fastify.server.headersTimeout).toBe(10_000)
    expect(server.fastify.server.requestTimeout).toBe(30_000)
    const t0 = Date.now()
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (d: Buffer) => {
      answer += d.toString()
    })
    await once(socket, 'connect')
    socket.write('POST /ext/bc/C/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write('X-Slow: 1\r\n')
    }, 1000)
    await once(socket, 'close')
    clearInterval(drip)
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout')
    expect(Date.now() - t0).toBeLessThan(12_500)
  }, 20_000)
})

describe('GET /ext/bc/:chain/ws', () => {
  function open(headers: Record<string, string> = {}): { ws: WebSocket; messages: string[]; opened: Promise<unknown> } {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/C/ws`, { headers })
    const messages: string[] = []
    ws.on('message', (m: Buffer) => messages.push(m.toString()))
    return { ws, messages, opened: once(ws, 'open') }
  }
  async function next(ws: WebSocket): Promise<string> {
    const [m] = await once(ws, 'message')
    return (m as Buffer).toString()
  }

  it('round-trips calls and keeps the connection after a parse error', async () => {
    const { ws, opened } = open()
    await opened
    const first = next(ws)
    ws.send(CHAIN_ID_CALL)
    expect(await first).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
    const second = next(ws)
    ws.send('not json')
    expect(JSON.parse(await second).error.code).toBe(-32700)
    const third = next(ws)
    ws.send('[{"jsonrpc":"2.0","id":2,"method":"echo","params":["hi"]}]')
    expect(JSON.parse(await third)).toEqual([{ jsonrpc: '2.0', id: 2, result: 'hi' }])
    const closed = once(ws, 'close')
    ws.close()
    await closed
  })

  it('closes with 1009 on a message over the limit', async () => {
    const { ws, opened } = open()
    const closed = once(ws, 'close')
    await opened
    ws.send('x'.repeat(BODY_LIMIT + 1))
    const [code] = await closed
    expect(code).toBe(1009)
  })

  it('refuses the upgrade for a bad Host or a foreign Origin', async () => {
    for (const headers of [{ host: 'evil.example' }, { origin: 'http://evil.example' }]) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/C/ws`, { headers })
      ws.on('error', () => {}) // terminate() before the handshake emits one; the status is what we check
      const refused = new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!)))
      const closed = new Promise((resolve) => ws.on('close', resolve))
      expect(await refused).toBe(403)
      ws.terminate()
      await closed
    }
    const { ws, opened } = open({ origin: 'http://localhost:3000' })
    await opened
    const closed = once(ws, 'close')
    ws.close()
    await closed
  })
})

import { once } from 'node:events'
import { type Socket, connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Dispatcher } from '../../src/rpc/dispatch.js'
import { method } from '../../src/rpc/types.js'
import { createServer, type Server } from '../../src/server/server.js'

/*
 * Keep-alive connections read without node:http (src/server/rpcSockets.ts): the same bytes as the
 * Fastify route, answers in request order, node:http taking a connection at its first request the
 * socket path does not read, and node:http's timeouts and close.
 */

const log = pino({ level: 'silent' })
const rpc = new Dispatcher(
  {
    eth_chainId: method(z.tuple([]), () => '0xa868'),
    echo: method(z.tuple([z.string()]), ([s]) => s),
    slow: method(z.tuple([]), async () => {
      await sleep(100)
      return 'late'
    }),
  },
  { batchRequestLimit: 1000, batchResponseMaxSize: 25_000_000, log },
)
const CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":"0xa868"}'

function start(http: { headersTimeoutMs?: number; requestTimeoutMs?: number; keepAliveTimeoutMs?: number } = {}): Promise<{ server: Server; port: number }> {
  const server = createServer({ host: '127.0.0.1', port: 0, bodyLimit: 1024, log, chains: new Map([['C', { rpc }]]), http })
  return server.listen().then(({ port }) => ({ server, port }))
}

const request = (body: string, headers: Record<string, string> = {}, path = '/ext/bc/C/rpc') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries({ 'Content-Type': 'application/json', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

/** A raw client connection: the answers it got, each as its status line, headers (Date left out) and body. */
class Client {
  readonly socket: Socket
  private buffered = Buffer.alloc(0)
  private readonly waiting: (() => void)[] = []
  closed = false

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.socket.on('data', (d: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, d])
      for (const w of this.waiting.splice(0)) w()
    })
    this.socket.on('close', () => {
      this.closed = true
      for (const w of this.waiting.splice(0)) w()
    })
  }

  /** The next answer: its bytes without the Date line; undefined if the connection closed first. */
  async answer(): Promise<string | undefined> {
    for (;;) {
      const text = this.buffered.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      const length = end === -1 ? undefined : /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1]
      if (length !== undefined && this.buffered.length >= end + 4 + Number(length)) {
        const size = end + 4 + Number(length)
        const answer = this.buffered.subarray(0, size).toString('utf8')
        this.buffered = this.buffered.subarray(size)
        return answer.replace(/\r\nDate: [^\r]*/, '')
      }
      if (this.closed) return undefined
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    }
  }

  /** Sends eth_chainId (or `text`): whether the answer is eth_chainId's. */
  async chainId(text = request(CALL)): Promise<boolean> {
    this.socket.write(text)
    return (await this.answer())?.endsWith(ANSWER) === true
  }

  async closedWithin(ms: number): Promise<boolean> {
    if (!this.closed) await Promise.race([once(this.socket, 'close'), sleep(ms)])
    return this.closed
  }
}

let server: Server
let port: number
beforeAll(async () => ({ server, port } = await start()))
afterAll(() => server.close())

describe('keep-alive connections read without node:http', () => {
  it('answer with the bytes the Fastify route sends, request after request on one connection', async () => {
    const fast = new Client(port)
    const slow = new Client(port)
    const bodies = [
      CALL,
      '{"jsonrpc":"2.0","method":"eth_chainId"}',
      `[${CALL},{"jsonrpc":"2.0","id":"é","method":"echo","params":["ü"]}]`,
      '{"jsonrpc":',
      '',
      '{"jsonrpc":"2.0","id":1e3,"method":"nope"}',
    ]
    for (const body of bodies) {
      const headerSets: Record<string, string>[] = [{}, { Origin: 'http://localhost:5173' }, { Origin: 'http://evil.example' }, { 'Content-Type': 'application/json-rpc; charset=utf-8' }]
      for (const headers of headerSets) {
        fast.socket.write(request(body, headers))
        slow.socket.write(request(body, headers, '/ext/bc/C/rpc?via=fastify'))
        expect(await fast.answer(), body).toBe(await slow.answer())
      }
    }
    fast.socket.destroy()
    slow.socket.destroy()
  })

  it('answer pipelined requests in order, a slow one holding the later ones; node:http takes the connection from the first request it must read', async () => {
    const client = new Client(port)
    const slowCall = '{"jsonrpc":"2.0","id":2,"method":"slow"}'
    client.socket.write(request(slowCall) + request(CALL) + request(CALL, { 'Content-Type': 'text/plain' }) + request(CALL))
    const answers = [await client.answer(), await client.answer(), await client.answer(), await client.answer()]
    expect(answers.map((a) => a?.split('\r\n')[0])).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 415 Unsupported Media Type', 'HTTP/1.1 200 OK'])
    expect(answers.map((a) => a?.split('\r\n\r\n')[1])).toEqual(['{"jsonrpc":"2.0","id":2,"result":"late"}', ANSWER, 'invalid content type, only application/json is supported\n', ANSWER])
    expect(await client.chainId()).toBe(true)
    client.socket.destroy()
  })

  it('answer a request that arrives in pieces once it is whole, and the ones after', async () => {
    const client = new Client(port)
    expect(await client.chainId()).toBe(true)
    const whole = request(CALL)
    for (const cut of [40, whole.length - 10]) {
      client.socket.write(whole.slice(0, cut))
      await sleep(50)
      expect(await client.chainId(whole.slice(cut))).toBe(true)
    }
    expect(await client.chainId()).toBe(true)
    client.socket.destroy()
  })

  it("answer a client that ends its side in the middle of a request with node:http's parse error (Fastify's 400)", async () => {
    for (const cut of [40, request(CALL).length - 10]) {
      const client = new Client(port)
      expect(await client.chainId()).toBe(true)
      client.socket.end(request(CALL).slice(0, cut))
      expect(await client.answer()).toBe('HTTP/1.1 400 Bad Request\r\nContent-Length: 65\r\nContent-Type: application/json\r\n\r\n{"error":"Bad Request","message":"Client Error","statusCode":400}')
      expect(await client.closedWithin(2000)).toBe(true)
    }
  })

  it('end the connection when the client ends its side, after answering what it sent', async () => {
    const client = new Client(port)
    client.socket.end(request(CALL))
    expect((await client.answer())?.endsWith(ANSWER)).toBe(true)
    expect(await client.closedWithin(2000)).toBe(true)
  })

  it("give node:http's 408 to a connection silent for the headers timeout, or to a request whose head is not whole within it from its first byte", async () => {
    const { server, port } = await start({ headersTimeoutMs: 1500 })
    const TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nContent-Length: 71\r\nContent-Type: application/json\r\n\r\n{"error":"Request Timeout","message":"Client Timeout","statusCode":408}'
    try {
      // Silent; silent a while, then a head dripped; a head dripped after a first request.
      for (const [first, wait] of [
        [false, undefined],
        [false, 1000],
        [true, 1000],
      ] as const) {
        let from = Date.now()
        const client = new Client(port)
        let drip: NodeJS.Timeout | undefined
        if (first) expect(await client.chainId()).toBe(true)
        if (wait !== undefined) {
          await sleep(wait)
          from = Date.now()
          client.socket.write('POST /ext/bc/C/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n')
          drip = setInterval(() => client.socket.write('X-Slow: 1\r\n'), 200)
        }
        expect(await client.closedWithin(6000)).toBe(true)
        clearInterval(drip)
        expect(await client.answer()).toBe(TIMEOUT)
        // Checked once a second, as node:http checks.
        expect(Date.now() - from).toBeGreaterThanOrEqual(1500 - 50)
        expect(Date.now() - from).toBeLessThan(1500 + 1500)
      }
    } finally {
      await server.close()
    }
  })

  it("give node:http's 408 to a request whose body is not whole within the request timeout", async () => {
    const { server, port } = await start({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 })
    try {
      const client = new Client(port)
      const t0 = Date.now()
      client.socket.write(request(CALL).slice(0, -5))
      expect(await client.closedWithin(6000)).toBe(true)
      expect(await client.answer()).toContain('HTTP/1.1 408 Request Timeout')
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2000 - 50)
    } finally {
      await server.close()
    }
  })

  it('close an idle connection after the keep-alive timeout (and the second node:http adds), announced in Keep-Alive', async () => {
    const { server, port } = await start({ keepAliveTimeoutMs: 1000 })
    try {
      const client = new Client(port)
      client.socket.write(request(CALL))
      const answer = await client.answer()
      expect(answer).toContain('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=1\r\n')
      const answered = Date.now()
      expect(await client.closedWithin(5000)).toBe(true)
      expect(Date.now() - answered).toBeGreaterThanOrEqual(2000 - 50)
    } finally {
      await server.close()
    }
  })

  it("close idle connections at once when the server closes, as node:http's close does", async () => {
    const { server, port } = await start()
    const client = new Client(port)
    expect(await client.chainId()).toBe(true)
    const t0 = Date.now()
    await server.close()
    expect(Date.now() - t0).toBeLessThan(2000)
    expect(await client.closedWithin(1000)).toBe(true)
  })
})

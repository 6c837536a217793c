import { request } from 'node:http'
import { connect } from 'node:net'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { z } from 'zod'
import { chainIdMethods } from '../../../src/namespaces/eth/chainId.js'
import { Dispatcher, type DispatcherOptions } from '../../../src/rpc/dispatch.js'
import { method } from '../../../src/rpc/types.js'
import { createServer, type Server } from '../../../src/server/server.js'
import { EarlyListener } from '../../../src/startup/earlyListener.js'

/*
 * The listener the CLI opens before the engine loads: eth_chainId answered at once with the bytes and
 * headers the Fastify route gives, every other request held (never failed) until the takeover, then
 * served by Fastify in arrival order.
 */

const log = pino({ level: 'silent' })
const options: DispatcherOptions = { batchRequestLimit: 100, batchResponseMaxSize: 1 << 20, log }
const early = chainIdMethods(43112n)
const full = { ...early, eth_blockNumber: method(z.tuple([]), () => '0x7') }
const http = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000, maxConnections: 512 }
const open: { close(): Promise<void> }[] = []

afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close()
})

async function listen(): Promise<EarlyListener> {
  const listener = await EarlyListener.listen({ host: '127.0.0.1', port: 0, http, bodyLimit: 1 << 20, allowedHosts: [], allowedOrigins: [], chainKeys: ['C'], early: { table: early, options }, log })
  open.push(listener)
  return listener
}

/** The running node's Fastify server for the same chain, not listening: the takeover target. */
async function fastify(): Promise<Server> {
  const rpc = new Dispatcher(full, options)
  const server = createServer({ host: '127.0.0.1', port: 0, log, chains: new Map([['C', { rpc }]]) })
  open.push(server)
  await server.fastify.ready()
  return server
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(port: number, opts: { method?: string; path?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body ?? ''
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/ext/bc/C/rpc',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...opts.headers },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          text += c
        })
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const call = (m: string, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: m, params: [] })
const withoutDate = ({ date: _, ...rest }: Answer['headers']) => rest
/** Whether `p` settled within a few event-loop turns. */
const settled = async (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 50))])

describe('EarlyListener', () => {
  it('answers eth_chainId before the takeover exactly as the Fastify route does after it', async () => {
    const listener = await listen()
    const { port } = listener.address()
    const bodies = [
      call('eth_chainId'),
      call('eth_chainId', '"x"'),
      `[${call('eth_chainId', 1)},${call('eth_chainId', 2)}]`,
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [1] }),
      JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }),
    ]
    const asked = () => [...bodies.map((body) => send(port, { body })), send(port, { body: bodies[0], headers: { origin: 'http://localhost:3000' } })]
    const before = await Promise.all(asked())
    expect(before[0]!.body).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
    expect(before.at(-1)!.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    const server = await fastify()
    listener.takeOver({ server: server.fastify.server, rpc: new Dispatcher(full, options) })
    const after = await Promise.all(asked())
    expect(before.map((a) => ({ ...a, headers: withoutDate(a.headers) }))).toEqual(after.map((a) => ({ ...a, headers: withoutDate(a.headers) })))
  })

  it('holds a request for another method, and any other request, until the takeover, then serves them in order', async () => {
    const listener = await listen()
    const { port } = listener.address()
    const blockNumber = send(port, { body: call('eth_blockNumber') })
    const mixed = send(port, { body: `[${call('eth_chainId', 1)},${call('eth_blockNumber', 2)}]` })
    const notJson = send(port, { body: '{' })
    const get = send(port, { method: 'GET' })
    const unknownPath = send(port, { path: '/ext/bc/Z/rpc', body: call('eth_chainId') })
    const held = [blockNumber, mixed, notJson, get, unknownPath]
    for (const p of held) expect(await settled(p)).toBe(false)
    const server = await fastify()
    listener.takeOver({ server: server.fastify.server, rpc: new Dispatcher(full, options) })
    expect((await blockNumber).body).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7"}')
    expect(JSON.parse((await mixed).body)).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 2, result: '0x7' },
    ])
    expect(JSON.parse((await notJson).body).error.code).toBe(-32700)
    // An empty GET is geth's health check (server/gethHttp.ts): 200, empty.
    expect(await get).toMatchObject({ status: 200, body: '' })
    expect((await unknownPath).status).toBe(404)
  })

  it("reads a keep-alive connection itself before the takeover and after it with the server's fast path; node:http's after a takeover without it", async () => {
    for (const withPath of [true, false]) {
      const listener = await listen()
      const socket = connect(listener.address().port, '127.0.0.1')
      let received = ''
      socket.on('data', (d: Buffer) => {
        received += d.toString()
      })
      const answerTo = async (body: string): Promise<string> => {
        received = ''
        socket.write(`POST /ext/bc/C/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
        while (!received.endsWith('}')) await new Promise((r) => setTimeout(r, 5))
        return received.slice(received.indexOf('\r\n\r\n') + 4)
      }
      expect(await answerTo(call('eth_chainId'))).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
      const server = await fastify()
      let nodeRequests = 0
      server.fastify.server.on('request', () => nodeRequests++)
      listener.takeOver({ server: server.fastify.server, rpc: new Dispatcher(full, options), ...(withPath && { rpcPath: server.rpcPath }) })
      expect(await answerTo(call('eth_blockNumber'))).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7"}')
      expect(nodeRequests).toBe(withPath ? 0 : 1)
      socket.destroy()
    }
  })

  it('refuses a host the node refuses, through Fastify once it runs', async () => {
    const listener = await listen()
    const { port } = listener.address()
    const answer = send(port, { body: call('eth_chainId'), headers: { host: 'evil.example' } })
    expect(await settled(answer)).toBe(false)
    const server = await fastify()
    listener.takeOver({ server: server.fastify.server, rpc: new Dispatcher(full, options) })
    expect(await answer).toMatchObject({ status: 403, body: 'invalid host specified\n' })
  })

  it('holds a WebSocket upgrade (and survives one reset meanwhile) until Fastify takes it', async () => {
    const listener = await listen()
    const { port } = listener.address()
    const reset = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/C/ws`)
    reset.on('error', () => {})
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/C/ws`)
    const opened = new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    expect(await settled(opened)).toBe(false)
    reset.terminate()
    await new Promise((r) => setTimeout(r, 20))
    const server = await fastify()
    listener.takeOver({ server: server.fastify.server, rpc: new Dispatcher(full, options) })
    await opened
    const answer = new Promise((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString())))
    ws.send(call('eth_blockNumber'))
    expect(await answer).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7"}')
    ws.close()
  })
})

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { OriginRpcError, OriginUnreachableError } from '../../../src/fork/errors.js'
import { OriginClient } from '../../../src/fork/originClient.js'

type Reply = (body: unknown, res: ServerResponse) => void

/** An HTTP origin on port 0 that records each request body and answers with `reply`. */
async function origin(reply: Reply): Promise<{ url: string; bodies: unknown[]; maxInFlight: () => number; server: Server }> {
  const bodies: unknown[] = []
  let inFlight = 0
  let max = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = ''
    req.on('data', (d: Buffer) => {
      text += d.toString()
    })
    req.on('end', () => {
      inFlight++
      max = Math.max(max, inFlight)
      const body = JSON.parse(text)
      bodies.push(body)
      setTimeout(() => {
        inFlight--
        reply(body, res)
      }, 20)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  servers.push(server)
  return { url: `http://127.0.0.1:${port}/v3/SECRET-KEY`, bodies, maxInFlight: () => max, server }
}

const servers: Server[] = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
})

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}
/** Answers each call with its method name and first param, or an error for method `fail`. */
const echo: Reply = (body, res) => {
  const one = (c: { id: number; method: string; params: unknown[] }) =>
    c.method === 'fail' ? { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: 'header not found', data: '0x01' } } : { jsonrpc: '2.0', id: c.id, result: `${c.method}:${String(c.params[0])}` }
  json(res, 200, Array.isArray(body) ? body.map(one) : one(body as never))
}
const log = pino({ level: 'silent' })

describe('OriginClient: JSON-RPC to a fork origin', () => {
  it('sends the calls made together as one batch and hands each its own result', async () => {
    const o = await origin(echo)
    const client = new OriginClient({ url: o.url, log })
    const results = await Promise.all([client.call('a', [1]), client.call('b', [2]), client.call('c', [3])])
    expect(results).toEqual(['a:1', 'b:2', 'c:3'])
    expect(o.bodies).toHaveLength(1)
    expect((o.bodies[0] as unknown[]).length).toBe(3)
  })

  it('keeps at most `concurrency` requests in flight, and batches of at most `maxBatch` calls', async () => {
    const o = await origin(echo)
    const client = new OriginClient({ url: o.url, log, concurrency: 2, maxBatch: 2 })
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => client.call('m', [i])))
    expect(results).toEqual(Array.from({ length: 9 }, (_, i) => `m:${i}`))
    expect(o.maxInFlight()).toBe(2)
    expect(o.bodies.every((b) => !Array.isArray(b) || b.length <= 2)).toBe(true)
  })

  it("rejects a call with the origin's JSON-RPC error (code, text, data), the others in its batch answered", async () => {
    const o = await origin(echo)
    const client = new OriginClient({ url: o.url, log })
    const [ok, failed] = await Promise.allSettled([client.call('a', [1]), client.call('fail', [])])
    expect(ok).toEqual({ status: 'fulfilled', value: 'a:1' })
    const err = (failed as PromiseRejectedResult).reason
    expect(err).toBeInstanceOf(OriginRpcError)
    expect([err.code, err.originMessage, err.data]).toEqual([-32000, 'header not found', '0x01'])
  })

  it('retries an origin answering 503 or 429, then takes its answer', async () => {
    let n = 0
    const o = await origin((body, res) => (n++ < 2 ? json(res, n === 1 ? 503 : 429, {}) : echo(body, res)))
    const client = new OriginClient({ url: o.url, log })
    expect(await client.call('a', [7])).toBe('a:7')
    expect(o.bodies).toHaveLength(3)
  })

  it('names an unreachable origin by scheme, host and port only (the URL may hold a key)', async () => {
    const o = await origin(echo)
    const { port } = o.server.address() as { port: number }
    o.server.close()
    const client = new OriginClient({ url: o.url, log, attempts: 2 })
    const err = (await client.call('a').catch((e: Error) => e)) as Error
    expect(err).toBeInstanceOf(OriginUnreachableError)
    expect(err.message).toBe(`fork origin http://127.0.0.1:${port} is unreachable: ECONNREFUSED (after 2 attempts)`)
    expect(err.message).not.toContain('SECRET')
  })

  it('falls back to one call per request when the origin refuses batches', async () => {
    const o = await origin((body, res) => (Array.isArray(body) ? json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } }) : echo(body, res)))
    const client = new OriginClient({ url: o.url, log })
    expect(await Promise.all([client.call('a', [1]), client.call('b', [2])])).toEqual(['a:1', 'b:2'])
    expect(await Promise.all([client.call('c', [3]), client.call('d', [4])])).toEqual(['c:3', 'd:4'])
    expect(o.bodies.filter((b) => Array.isArray(b))).toHaveLength(1)
  })

  it('says where an Avalanche node serves its C-Chain when the base URL answers 404', async () => {
    const o = await origin((_body, res) => {
      res.writeHead(404)
      res.end('404 page not found')
    })
    const client = new OriginClient({ url: o.url.replace('/v3/SECRET-KEY', ''), log })
    await expect(client.call('eth_chainId')).rejects.toThrow(/answered HTTP 404 \(an Avalanche node serves the C-Chain at \/ext\/bc\/C\/rpc\)/)
    await expect(client.call('eth_chainId')).rejects.toMatchObject({ name: 'OriginHttpError', status: 404 })
  })

  it('sibling: a client of another path of the same origin, named as it, here sending one call per request', async () => {
    const o = await origin(echo)
    const client = new OriginClient({ url: `${o.url.replace('/v3/SECRET-KEY', '')}/ext/bc/C/rpc?key=SECRET`, log })
    expect(client.sibling(() => undefined)).toBeUndefined()
    const avax = client.sibling((path) => path.replace(/rpc$/, 'avax'), { maxBatch: 1 })!
    expect(avax.name).toBe(client.name)
    expect(await Promise.all([avax.call('a', [1]), avax.call('b', [2])])).toEqual(['a:1', 'b:2'])
    expect(o.bodies.filter((b) => Array.isArray(b))).toEqual([])
  })
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OriginClient } from '../../../../src/fork/originClient.js'
import { OriginUnreachableError } from '../../../../src/fork/errors.js'
import type { Fork } from '../../../../src/engine/state/forkPoint.js'
import { ABSENT, OriginProxy, answerOnly, keepFound, numbered } from '../../../../src/namespaces/fork/originProxy.js'
import { RpcError } from '../../../../src/rpc/errors.js'
import { RawJson } from '../../../../src/rpc/rawJson.js'
import { type Database, openDatabase } from '../../../../src/store/db.js'
import { OriginCache } from '../../../../src/store/originCache.js'

const log = pino({ level: 'silent' })
const N = 10n
const BLOCK_5 = { number: '0x5', hash: '0x' + '05'.repeat(32), blockExtraData: '0x', extDataHash: '0x' + '00'.repeat(32) }
/** Block N as the fork record holds it. */
const BLOCK_N_JSON = '{"number":"0xa","hash":"0x' + '0a'.repeat(32) + '"}'
const BLOCK_11 = { number: '0xb', hash: '0x' + '0b'.repeat(32) }

/** A JSON-RPC origin with canned answers, counting the calls it gets. */
let server: Server
let url: string
const calls: string[] = []
function answer(method: string, params: unknown[]): { result?: unknown; error?: unknown } {
  if (method === 'eth_getBlockByNumber') return { result: params[0] === '0x5' ? BLOCK_5 : null }
  if (method === 'eth_getBlockByHash') return { result: params[0] === BLOCK_5.hash ? BLOCK_5 : params[0] === BLOCK_11.hash ? BLOCK_11 : null }
  if (method === 'eth_call') return { error: { code: 3, message: 'execution reverted: no', data: '0x08c379a0' } }
  return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } }
}

let db: Database
let dir: string
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const msg = JSON.parse(body)
      const one = (m: { id: unknown; method: string; params: unknown[] }) => {
        calls.push(m.method)
        return { jsonrpc: '2.0', id: m.id, ...answer(m.method, m.params) }
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(Array.isArray(msg) ? msg.map(one) : one(msg)))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  dir = mkdtempSync(join(tmpdir(), 'origin-proxy-'))
  db = await openDatabase(dir)
})
afterAll(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
  await new Promise((r) => server.close(r))
})

/** A proxy to the origin at `target`, forked at N with fork point hash `point`, and that fork. */
function proxyTo(target: string, point = new Uint8Array(32).fill(1)): { proxy: OriginProxy; fork: Fork } {
  const origin = new OriginClient({ url: target, log, attempts: 1, timeoutMs: 5000 })
  const fork: Fork = { origin, point: { number: N, hash: point, stateRoot: new Uint8Array(32), chainId: 1n, blockJson: BLOCK_N_JSON } }
  return { proxy: new OriginProxy(() => fork, new OriginCache(db), log), fork }
}

const count = (method: string) => calls.filter((m) => m === method).length

describe('OriginProxy', () => {
  it("answers the origin's result verbatim and keeps a found one: asked again, the origin is not called", async () => {
    const { proxy, fork } = proxyTo(url)
    const first = await proxy.ask(fork, 'eth_getBlockByNumber', ['0x5', false], keepFound)
    expect(first).toBeInstanceOf(RawJson)
    expect((first as RawJson).text).toBe(JSON.stringify(BLOCK_5))
    const before = count('eth_getBlockByNumber')
    expect(((await proxy.ask(fork, 'eth_getBlockByNumber', ['0x5', false], keepFound)) as RawJson).text).toBe(JSON.stringify(BLOCK_5))
    expect(count('eth_getBlockByNumber')).toBe(before)
  })

  it('never keeps a null (not found) or an answer judged answer-only', async () => {
    const { proxy, fork } = proxyTo(url)
    const before = count('eth_getBlockByNumber')
    expect(((await proxy.ask(fork, 'eth_getBlockByNumber', ['0x6', false], keepFound)) as RawJson).text).toBe('null')
    await proxy.ask(fork, 'eth_getBlockByNumber', ['0x6', false], keepFound)
    await proxy.ask(fork, 'eth_getBlockByNumber', ['0x5', true], answerOnly)
    await proxy.ask(fork, 'eth_getBlockByNumber', ['0x5', true], answerOnly)
    expect(count('eth_getBlockByNumber')).toBe(before + 4)
  })

  it("answers an origin's JSON-RPC error with the origin's own code, message and data, and keeps nothing", async () => {
    const { proxy, fork } = proxyTo(url)
    for (let i = 0; i < 2; i++) {
      const err = await proxy.ask(fork, 'eth_call', [{}, '0x1'], answerOnly).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(RpcError)
      expect((err as RpcError).toObject()).toEqual({ code: 3, message: 'execution reverted: no', data: '0x08c379a0' })
    }
    expect(count('eth_call')).toBe(2)
  })

  it('tells the blocks on the fork (at or before N) from the origin’s later ones', async () => {
    const { proxy, fork } = proxyTo(url)
    expect(await proxy.blockNumber(fork, BLOCK_5.hash)).toBe(5n)
    expect(await proxy.blockNumber(fork, BLOCK_11.hash)).toBeUndefined()
    expect(await proxy.blockNumber(fork, '0x' + 'ee'.repeat(32))).toBeUndefined()
    expect(await proxy.ask(fork, 'eth_getBlockByHash', [BLOCK_11.hash, true], numbered(fork, 'number'))).toBe(ABSENT)
  })

  it('answers what it kept once the origin is gone; anything else is an error naming the origin', async () => {
    const point = new Uint8Array(32).fill(2)
    const up = proxyTo(url, point)
    await up.proxy.ask(up.fork, 'eth_getBlockByNumber', ['0x5', true], keepFound)
    const gone = proxyTo('http://127.0.0.1:9', point)
    expect(((await gone.proxy.ask(gone.fork, 'eth_getBlockByNumber', ['0x5', true], keepFound)) as RawJson).text).toBe(JSON.stringify(BLOCK_5))
    const err = await gone.proxy.ask(gone.fork, 'eth_getBlockByNumber', ['0x4', true], keepFound).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OriginUnreachableError)
    expect((err as Error).message).toMatch(/^fork origin http:\/\/127\.0\.0\.1:9 is unreachable/)
    // Block N without its txs is the fork record's, by number and by its hash (the fork point's).
    expect(((await gone.proxy.ask(gone.fork, 'eth_getBlockByNumber', ['0xA', false], keepFound)) as RawJson).text).toBe(BLOCK_N_JSON)
    expect(((await gone.proxy.ask(gone.fork, 'eth_getBlockByHash', ['0x' + '02'.repeat(32), false], keepFound)) as RawJson).text).toBe(BLOCK_N_JSON)
    expect(await gone.proxy.blockNumber(gone.fork, '0x' + '02'.repeat(32))).toBe(10n)
    await expect(gone.proxy.ask(gone.fork, 'eth_getBlockByNumber', ['0xa', true], keepFound)).rejects.toThrow(OriginUnreachableError)
  })
})

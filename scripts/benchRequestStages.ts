/**
 * The request path's stages one by one (docs/PERFORMANCE.md, "The request path"): the CPU each step
 * of the socket path costs for the peer harness's small requests (eth_chainId, eth_getBalance, a batch
 * of 40 eth_blockNumber), each step run alone in a loop in this process over the node's own code and
 * method table entries, on an engine of the local genesis. A step alone runs with warm caches, so the
 * sum is less than what a request costs in the running node (scripts/benchRequestPath.ts measures that).
 *
 *   npm run build && node dist/scripts/benchRequestStages.js [--iterations 200000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Engine } from '../src/engine/engine.js'
import { createLogger } from '../src/log.js'
import { chainIdMethods } from '../src/namespaces/eth/chainId.js'
import { ethBlockMethods } from '../src/namespaces/eth/blocks.js'
import { ethStateMethods } from '../src/namespaces/eth/state.js'
import { Dispatcher } from '../src/rpc/dispatch.js'
import { SLOW, quickTuple } from '../src/rpc/quickParse.js'
import { resultJson } from '../src/rpc/rawJson.js'
import { type MethodTable, mergeTables } from '../src/rpc/types.js'
import { createCors } from '../src/server/cors.js'
import { createHostCheck } from '../src/server/hostCheck.js'
import { PlainRequestReader, readPlainRequest } from '../src/server/plainRequest.js'
import { fastDispatcher } from '../src/server/rpcFastPath.js'
import { httpResponse } from '../src/server/rpcSockets.js'
import { openDatabase } from '../src/store/db.js'
import { benchEngineOptions } from './benchEngine.js'

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const HEAD = '{"jsonrpc":"2.0","id":'

/** CPU ns per call of `step`: the least of three rounds of `n` calls after a warm-up. */
function cost(n: number, step: () => unknown): number {
  let sink: unknown
  for (let i = 0; i < n / 10; i++) sink = step()
  let best = Infinity
  for (let round = 0; round < 3; round++) {
    const t0 = process.cpuUsage()
    for (let i = 0; i < n; i++) sink = step()
    const t = process.cpuUsage(t0)
    best = Math.min(best, ((t.user + t.system) * 1000) / n)
  }
  if (sink === SLOW) throw new Error('a quick parse fell back to zod')
  return best
}

/** One request's steps: each returns what the next needs, so a loop of it does the step's whole work. */
function stages(table: MethodTable, rpc: Dispatcher, body: string, n: number): [string, number][] {
  const request = Buffer.from(
    `POST /ext/bc/C/rpc HTTP/1.1\r\nHost: 127.0.0.1:9650\r\nConnection: keep-alive\r\ncontent-type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
  const route = { dispatcher: () => rpc, bodyLimit: 5 << 20, log: createLogger('error'), hostAllowed: createHostCheck([]), cors: createCors([]), roots: new Set(['C']), closing: () => false }
  const head = readPlainRequest(request, 0)
  if (typeof head === 'number') throw new Error('not a plain request')
  const calls = ([] as { method: string; params: unknown[] }[]).concat(JSON.parse(body))
  const entries = calls.map((c) => table[c.method]!)
  const quick = entries.map((e) => quickTuple(e.params))
  const args = calls.map((c, i) => (quick[i] === undefined ? [] : quick[i]!(c.params)))
  const results = entries.map((e, i) => e.handler(args[i]))
  const methods = new Map(Object.entries(table))
  const answer = rpc.respond(body)
  if (typeof answer !== 'string') throw new Error('the answer is not synchronous')
  const reader = new PlainRequestReader()
  return [
    ['HTTP parse, a new head (head, body text)', cost(n, () => readPlainRequest(request, 0) && request.toString('utf8', head.bodyStart, head.bodyStart + head.contentLength))],
    ['HTTP parse, the head of the request before (compared, body text)', cost(n, () => reader.read(request, 0) && request.toString('utf8', head.bodyStart, head.bodyStart + head.contentLength))],
    ['routing, Host and CORS checks', cost(n, () => fastDispatcher(route, head.url, head.contentType, head.contentLength, head.host))],
    ['envelope parse (JSON.parse)', cost(n, () => JSON.parse(body))],
    ['method lookup', cost(n, () => calls.map((c) => methods.get(c.method)))],
    ['params parse', cost(n, () => calls.map((c, i) => (quick[i] === undefined ? [] : quick[i]!(c.params))))],
    ['handler', cost(n, () => entries.map((e, i) => e.handler(args[i])))],
    ['result text', cost(n, () => results.map((r) => HEAD + '1,"result":' + resultJson(r) + '}').join(','))],
    ['the dispatcher end to end (the four above and ids, checks, counters)', cost(n, () => rpc.respond(body))],
    ['response head', cost(n, () => httpResponse(200, 'application/json; charset=utf-8', answer, '', 72_000, 'Wed, 02 Dec 2026 00:00:00 GMT'))],
  ]
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--iterations')
  const n = at === -1 ? 200_000 : Number(process.argv[at + 1])
  const dir = mkdtempSync(join(tmpdir(), 'request-stages-'))
  const db = await openDatabase(dir)
  try {
    const engine = await Engine.create(db, benchEngineOptions({}, 'own'))
    const table = mergeTables(chainIdMethods(43112n), ethStateMethods({ engine }), ethBlockMethods({ engine }))
    const rpc = new Dispatcher(table, { batchRequestLimit: 1000, batchResponseMaxSize: 25_000_000, requestTimeoutMs: 30_000, log: createLogger('error') })
    const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
    const bodies: [string, string][] = [
      ['eth_chainId', JSON.stringify(call('eth_chainId', []))],
      ['eth_getBalance', JSON.stringify(call('eth_getBalance', [EWOQ, 'latest']))],
      ['batch of 40 eth_blockNumber', JSON.stringify(Array.from({ length: 40 }, (_, i) => call('eth_blockNumber', [], i + 1)))],
    ]
    for (const [name, body] of bodies) {
      console.log(`\n${name}: CPU ns per request, each step alone`)
      for (const [stage, ns] of stages(table, rpc, body, name.startsWith('batch') ? n / 20 : n)) console.log(`  ${stage.padEnd(72)} ${ns.toFixed(0).padStart(7)}`)
    }
    await engine.close()
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})

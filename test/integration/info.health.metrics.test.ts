import { rawHttp } from '../helpers/rawHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { LOCAL_C, LOCAL_P, LOCAL_X } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

let t: TestNode

const http = (opts: Parameters<typeof rawHttp>[1]) => rawHttp(t.port, opts)

/** One gorilla call; the raw text is checked too (json.Encoder output ends in a newline). */
async function api(path: string, method: string, params?: unknown, id: unknown = 1): Promise<any> {
  const res = await http({ path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }) })
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.body.endsWith('}\n')).toBe(true)
  return JSON.parse(res.body)
}
const info = async (method: string, params?: unknown) => (await api('/ext/info', method, params)).result

beforeAll(async () => {
  t = await startTestNode()
})
afterAll(() => t.close())

describe('/ext/info (avalanchego api/info/service.go shapes)', () => {
  it('info.getNetworkID and info.getNetworkName', async () => {
    expect(await api('/ext/info', 'info.getNetworkID')).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 })
    expect(await info('info.getNetworkName', {})).toEqual({ networkName: 'local' })
  })

  it('info.getBlockchainID resolves C, X, P, their VM aliases and the IDs themselves', async () => {
    for (const [alias, id] of [
      ['C', LOCAL_C],
      ['evm', LOCAL_C],
      [LOCAL_C, LOCAL_C],
      ['X', LOCAL_X],
      ['avm', LOCAL_X],
      ['P', LOCAL_P],
      ['platform', LOCAL_P],
    ]) {
      expect(await info('info.getBlockchainID', { alias }), alias).toEqual({ blockchainID: id })
    }
    expect(await info('info.getBlockchainID', [{ alias: 'C' }])).toEqual({ blockchainID: LOCAL_C })
    expect((await api('/ext/info', 'info.getBlockchainID', { alias: 'D' })).error).toEqual({ code: -32000, message: 'there is no ID with alias: D', data: null })
  })

  it('info.getNodeID is a NodeID with a BLS proof of possession, stable across calls', async () => {
    const r = await info('info.getNodeID')
    expect(Object.keys(r)).toEqual(['nodeID', 'nodePOP'])
    expect(r.nodeID).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]{30,34}$/)
    expect(r.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/)
    expect(r.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/)
    expect(await info('info.getNodeID')).toEqual(r)
  })

  it('info.getNodeVersion', async () => {
    const r = await info('info.getNodeVersion')
    expect(Object.keys(r)).toEqual(['version', 'databaseVersion', 'rpcProtocolVersion', 'gitCommit', 'vmVersions'])
    expect(r).toMatchObject({
      version: expect.stringMatching(/^avalanchego\/\d+\.\d+\.\d+$/),
      databaseVersion: 'v1.4.5',
      rpcProtocolVersion: expect.stringMatching(/^\d+$/),
      gitCommit: expect.any(String),
    })
    expect(Object.keys(r.vmVersions)).toEqual(['avm', 'evm', 'platform'])
    expect(r.vmVersions.evm).toMatch(/^v\d+\.\d+\.\d+$/)
  })

  it('info.isBootstrapped: true for C, X, P and their IDs; avalanchego errors otherwise', async () => {
    for (const chain of ['C', 'X', 'P', LOCAL_C, LOCAL_X, LOCAL_P]) expect(await info('info.isBootstrapped', { chain }), chain).toEqual({ isBootstrapped: true })
    expect((await api('/ext/info', 'info.isBootstrapped', { chain: 'Q' })).error).toEqual({ code: -32000, message: "there is no chain with alias/ID 'Q'", data: null })
    expect((await api('/ext/info', 'info.isBootstrapped', {})).error).toEqual({ code: -32000, message: "argument 'chain' not given", data: null })
  })

  it('info.peers, info.getVMs and info.upgrades', async () => {
    expect(await info('info.peers', { nodeIDs: [] })).toEqual({ numPeers: '0', peers: [] })
    expect(await info('info.getVMs')).toEqual({
      vms: {
        jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
        mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
        rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
      },
      fxs: {
        spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
        qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
        rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
      },
    })
    const up = await info('info.upgrades')
    expect(up).toMatchObject({
      apricotPhase1Time: '2020-12-05T05:00:00Z',
      apricotPhase4MinPChainHeight: 0,
      durangoTime: '2020-12-05T05:00:00Z',
      etnaTime: '2020-12-05T05:00:00Z',
      fortunaTime: '2020-12-05T05:00:00Z',
      graniteTime: '2020-12-05T05:00:00Z',
      graniteEpochDuration: 30_000_000_000,
      heliconTime: '2020-12-05T05:00:00Z',
      cortinaXChainStopVertexID: LOCAL_P,
    })
    expect(Object.keys(up)).toHaveLength(18)
  })

  it('speaks gorilla json2: envelope errors, notifications, raw ids, content type and method', async () => {
    expect(await api('/ext/info', 'info.GetNetworkID')).toMatchObject({ error: { code: -32000, message: 'method must start with a non-uppercase letter', data: null } })
    expect((await api('/ext/info', 'info.getNetworkID', 'x')).error.message).toMatch(/^couldn't unmarshal an argument/)
    expect((await api('/ext/info', 'nope.method')).error.message).toBe('rpc: can\'t find service "nope.Method"')
    const v1 = await http({ path: '/ext/info', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"1.0","id":7,"method":"info.getNetworkID"}' })
    expect(JSON.parse(v1.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'jsonrpc must be 2.0', data: { jsonrpc: '1.0', method: 'info.getNetworkID', params: null, id: 7 } }, id: 7 })
    const batch = await http({ path: '/ext/info', headers: { 'content-type': 'application/json' }, body: '[{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}]' })
    expect(JSON.parse(batch.body).error).toMatchObject({ code: -32700, message: 'json: cannot unmarshal array into Go value of type json2.serverRequest' })
    const notification = await http({ path: '/ext/info', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"info.getNetworkID"}' })
    expect([notification.status, notification.body]).toEqual([200, ''])
    const big = await http({ path: '/ext/info', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"info.getNetworkID"}' })
    expect(big.body).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":123456789012345678901234567890}\n')
    // An envelope error keeps the raw id token too, in data and id (fuzz finding: 1e400 became null).
    const huge = await http({ path: '/ext/info', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"1.0","id":1e400,"method":"info.getNetworkID"}' })
    expect(huge.body).toBe('{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"info.getNetworkID","params":null,"id":1e400}},"id":1e400}\n')
    const rpcType = await http({ path: '/ext/info', headers: { 'content-type': 'application/json-rpc' }, body: '{}' })
    expect([rpcType.status, rpcType.body]).toEqual([415, 'rpc: unrecognized Content-Type: application/json-rpc'])
    const get = await http({ method: 'GET', path: '/ext/info' })
    expect([get.status, get.body]).toEqual([405, 'rpc: POST method required, received GET'])
    // Methods of the other endpoints are not here, nor EVM methods.
    expect((await api('/ext/info', 'health.health')).error.message).toBe('rpc: can\'t find service "health.Health"')
    expect((await api('/ext/info', 'eth_chainId')).error.message).toBe('rpc: service/method request ill-formed: "eth_chainId"')
  })
})

describe('/ext/health', () => {
  const checkShape = (r: any) => {
    expect(r.healthy).toBe(true)
    expect(Object.keys(r.checks).sort()).toEqual(['C', 'bootstrapped', 'database'])
    expect(r.checks.C).toMatchObject({
      message: { engine: { consensus: { lastAcceptedHeight: expect.any(Number), lastAcceptedID: expect.any(String), longestProcessingBlock: '0s', processingBlocks: 0 }, vm: null } },
      timestamp: expect.any(String),
      duration: expect.any(Number),
    })
    expect(r.checks.C.error).toBeUndefined()
    expect(r.checks.bootstrapped.message).toEqual([])
    expect(Number.isNaN(Date.parse(r.checks.database.timestamp))).toBe(false)
  }

  it('health.health over POST', async () => {
    checkShape((await api('/ext/health', 'health.health')).result)
    checkShape((await api('/ext/health', 'health.health', { tags: [LOCAL_P] })).result)
    expect((await api('/ext/health', 'health.readiness')).result).toEqual({ checks: { bootstrapped: expect.objectContaining({ message: [] }) }, healthy: true })
    expect((await api('/ext/health', 'health.liveness')).result).toEqual({ checks: {}, healthy: true })
  })

  it('plain GET answers 200 with the same report (and /health, /readiness, /liveness)', async () => {
    const res = await http({ method: 'GET', path: '/ext/health' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    checkShape(JSON.parse(res.body))
    const again = JSON.parse((await http({ method: 'GET', path: '/ext/health/health' })).body)
    checkShape(again)
    expect((await http({ method: 'GET', path: '/ext/health/readiness' })).status).toBe(200)
    expect(JSON.parse((await http({ method: 'GET', path: '/ext/health/liveness' })).body)).toEqual({ checks: {}, healthy: true })
    const head = await t.call('eth_blockNumber')
    expect(JSON.parse(res.body).checks.C.message.engine.consensus.lastAcceptedHeight).toBe(Number(head))
  })
})

/**
 * A small parser of the Prometheus text exposition format: `name{labels} value` lines, # HELP/TYPE.
 * Values as Go's ParseFloat reads them (prom-client writes NaN as `Nan`).
 */
function parseMetrics(text: string): { types: Map<string, string>; samples: { name: string; labels: Record<string, string>; value: number }[] } {
  const types = new Map<string, string>()
  const samples: { name: string; labels: Record<string, string>; value: number }[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    if (line.startsWith('# HELP ')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|[Nn]a[Nn]|\+Inf|-Inf))(?: \d+)?$/.exec(line)
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return { types, samples }
}

describe('/ext/metrics', () => {
  const scrape = async () => {
    const res = await http({ method: 'GET', path: '/ext/metrics' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    return parseMetrics(res.body)
  }
  const value = (m: ReturnType<typeof parseMetrics>, name: string, labels: Record<string, string> = {}) =>
    m.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

  it('parses as Prometheus text and moves with requests', async () => {
    const before = await scrape()
    for (const [name, type] of [
      ['cchain_rpc_requests_total', 'counter'],
      ['cchain_rpc_request_duration_seconds', 'histogram'],
      ['cchain_rpc_errors_total', 'counter'],
      ['cchain_head_block_number', 'gauge'],
      ['cchain_txpool_pending', 'gauge'],
      ['cchain_txpool_queued', 'gauge'],
      ['cchain_ws_connections', 'gauge'],
      ['cchain_ws_subscriptions', 'gauge'],
      ['cchain_db_size_bytes', 'gauge'],
      ['process_cpu_user_seconds_total', 'counter'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
    ]) {
      expect(before.types.get(name), name).toBe(type)
    }
    expect(value(before, 'cchain_db_size_bytes')).toBeGreaterThan(0)
    const calls0 = value(before, 'cchain_rpc_requests_total', { method: 'eth_chainId' }) ?? 0
    const unknown0 = value(before, 'cchain_rpc_errors_total', { code: '-32601' }) ?? 0
    for (let i = 0; i < 5; i++) await t.call('eth_chainId')
    await t.rpc('eth_noSuchMethod')
    await t.rpc('eth_getBalance', ['0x12'])
    const ws = new WebSocket(t.wsUrl)
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    const subscribed = new Promise<void>((resolve) => ws.once('message', () => resolve()))
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    await subscribed
    const after = await scrape()
    ws.close()
    expect(value(after, 'cchain_rpc_requests_total', { method: 'eth_chainId' })).toBe(calls0 + 5)
    expect(value(after, 'cchain_rpc_request_duration_seconds_count', { method: 'eth_chainId' })).toBe(calls0 + 5)
    expect(value(after, 'cchain_rpc_request_duration_seconds_bucket', { method: 'eth_chainId', le: '+Inf' })).toBe(calls0 + 5)
    expect(value(after, 'cchain_rpc_request_duration_seconds_sum', { method: 'eth_chainId' })).toBeGreaterThan(0)
    expect(value(after, 'cchain_rpc_errors_total', { code: '-32601' })).toBe(unknown0 + 1)
    expect(value(after, 'cchain_rpc_errors_total', { code: '-32602' })).toBeGreaterThanOrEqual(1)
    expect(value(after, 'cchain_ws_connections')).toBe(1)
    expect(value(after, 'cchain_ws_subscriptions')).toBe(1)
    expect(value(after, 'cchain_head_block_number')).toBe(Number(await t.call('eth_blockNumber')))
    // Bucket counts are cumulative.
    const buckets = after.samples.filter((s) => s.name === 'cchain_rpc_request_duration_seconds_bucket' && s.labels.method === 'eth_chainId').map((s) => s.value)
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b))
    // gorilla APIs count too.
    await api('/ext/info', 'info.getNetworkID')
    expect(value(await scrape(), 'cchain_rpc_requests_total', { method: 'info.getNetworkID' })).toBeGreaterThanOrEqual(1)
  })

  it('is GET only', async () => {
    expect((await http({ path: '/ext/metrics', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(405)
  })
})

describe('/ext/health when the database is gone', () => {
  it('GET answers 503 with the failing checks, POST health.health healthy:false', async () => {
    const n = await startTestNode()
    try {
      await n.node.engine['chain'].db.close()
      const res = await fetch(`http://127.0.0.1:${n.port}/ext/health`)
      expect(res.status).toBe(503)
      const report = (await res.json()) as any
      expect(report.healthy).toBe(false)
      expect(report.checks.database).toMatchObject({ error: 'database is closed', contiguousFailures: 1, timeOfFirstFailure: expect.any(String) })
      expect(report.checks.C.error).toBe('database is closed')
      expect(report.checks.bootstrapped.error).toBeUndefined()
      const post = await fetch(`http://127.0.0.1:${n.port}/ext/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"health.health"}' })
      const body = (await post.json()) as any
      expect(post.status).toBe(200)
      expect(body.result.healthy).toBe(false)
      expect(body.result.checks.database.contiguousFailures).toBe(2)
    } finally {
      await n.close()
    }
  })
})

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import { Profile } from 'pprof-format'
import { rawHttp } from '../helpers/rawHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pino from 'pino'
import { parseNodeConfig, type NodeConfig, type NodeConfigInput } from '../../src/config.js'
import { configFromArgs } from '../../src/configFromArgs.js'
import { createNode, type CChainNode } from '../../src/node.js'
import { CPU_PROFILE_FILE, LOCK_PROFILE_FILE, MEM_PROFILE_FILE } from '../../src/profiler.js'

const http = rawHttp

interface Running {
  node: CChainNode
  port: number
  dataDir: string
  /** Log lines the node wrote (JSON). */
  lines: Record<string, unknown>[]
  admin(method: string, params?: unknown, path?: string): Promise<{ result?: any; error?: { code: number; message: string; data: unknown } }>
  close(): Promise<void>
}

/** Boots the real node with a log that the test reads. */
async function boot(config: NodeConfig, dataDir: string): Promise<Running> {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l !== '') lines.push(JSON.parse(l))
      cb()
    },
  })
  const node = await createNode(config, { log: pino({ level: 'info' }, sink) })
  const { port } = await node.listen()
  let id = 0
  return {
    node,
    port,
    dataDir,
    lines,
    async admin(method, params = {}, path = '/ext/bc/C/admin') {
      const res = await http(port, { path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
      expect(res.status).toBe(200)
      return JSON.parse(res.body)
    },
    async close() {
      await node.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cchain-admin-'))
}

const configWith = (dataDir: string, chain: NodeConfigInput['chain'] = {}): NodeConfig =>
  parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir, logLevel: 'silent', pendingNonceGuard: 0, chain })

const VARIANTS = ['/ext/bc/C/admin/', '//ext/bc/C/admin', '/ext/bc/C/%61dmin', '/ext/bc/C/rpc/../admin', '/ext/bc/C/ADMIN', '/ext/bc/C/admin%2F']

describe('admin API disabled (default)', () => {
  let n: Running
  beforeAll(async () => {
    const d = tempDir()
    n = await boot(configWith(d), d)
  })
  afterAll(() => n.close())

  it('answers 404 at /ext/bc/C/admin, its blockchain-ID path and every path variant (docs/SECURITY.md, N7)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.setLogLevel', params: { level: 'debug' } })
    for (const path of ['/ext/bc/C/admin', `/ext/bc/${n.node.blockchainId}/admin`, ...VARIANTS]) {
      const res = await http(n.port, { path, headers: { 'content-type': 'application/json' }, body })
      expect(res.status, path).toBe(404)
      expect(res.body, path).toBe('404 page not found\n')
      const get = await http(n.port, { method: 'GET', path })
      expect(get.status, path).toBe(404)
    }
    expect(n.node.log.level).toBe('info')
  })
})

describe('admin API enabled by the chain config', () => {
  let n: Running
  beforeAll(async () => {
    const d = tempDir()
    n = await boot(configWith(d, { 'admin-api-enabled': true }), d)
  })
  afterAll(() => n.close())

  const dir = () => join(n.dataDir, '_coreth_performance_C')

  it('is served at /ext/bc/C/admin and /ext/bc/<blockchainID>/admin, and nowhere else', async () => {
    expect(await n.admin('admin.setLogLevel', { level: 'info' })).toEqual({ jsonrpc: '2.0', result: {}, id: expect.any(Number) })
    expect((await n.admin('admin.setLogLevel', { level: 'info' }, `/ext/bc/${n.node.blockchainId}/admin`)).result).toEqual({})
    for (const path of VARIANTS) {
      const res = await http(n.port, { path, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.lockProfile"}' })
      expect(res.status, path).toBe(404)
    }
  })

  it('has no CORS and only takes POST application/json (gorilla transport)', async () => {
    const get = await http(n.port, { method: 'GET', path: '/ext/bc/C/admin' })
    expect(get.status).toBe(405)
    expect(get.body).toBe('rpc: POST method required, received GET')
    const preflight = await http(n.port, { method: 'OPTIONS', path: '/ext/bc/C/admin', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } })
    expect(preflight.status).toBe(405)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    const form = await http(n.port, { path: '/ext/bc/C/admin', headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }, body: '{}' })
    expect(form.status).toBe(415)
    expect(form.body).toBe('rpc: unrecognized Content-Type: text/plain')
    const badHost = await http(n.port, { path: '/ext/bc/C/admin', headers: { 'content-type': 'application/json', host: 'evil.example' }, body: '{}' })
    expect(badHost.status).toBe(403)
  })

  it('admin.setLogLevel takes coreth level names and changes the live level', async () => {
    for (const [level, pinoLevel] of [
      ['debug', 'debug'],
      ['TRCE', 'trace'],
      ['eror', 'error'],
      ['crit', 'fatal'],
      ['Warn', 'warn'],
      ['info', 'info'],
    ] as const) {
      expect((await n.admin('admin.setLogLevel', { level })).result).toEqual({})
      expect(n.node.log.level, level).toBe(pinoLevel)
    }
    // The level reaches the dispatcher at once: one debug line per request, never its params.
    expect((await n.admin('admin.setLogLevel', [{ level: 'debug' }])).result).toEqual({})
    const before = n.lines.length
    const res = await fetch(`http://127.0.0.1:${n.port}/ext/bc/C/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":"secret-id","method":"eth_getBalance","params":["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","latest"]}',
    })
    expect(res.status).toBe(200)
    const line = n.lines.slice(before).find((l) => l.method === 'eth_getBalance')
    expect(line).toMatchObject({ level: 20, method: 'eth_getBalance', id: '"secret-id"', ms: expect.any(Number) })
    expect(JSON.stringify(n.lines.slice(before))).not.toContain('8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC')
    await n.admin('admin.setLogLevel', { level: 'info' })
  })

  it('admin.setLogLevel refuses an unknown level with coreth error text', async () => {
    expect(await n.admin('admin.setLogLevel', { level: 'verbose' })).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: { code: -32000, message: 'failed to parse log level: unknown level: verbose ', data: null },
    })
    expect((await n.admin('admin.setLogLevel', {})).error?.message).toBe('failed to parse log level: unknown level:  ')
    expect((await n.admin('admin.setLogLevel', { level: 5 })).error).toEqual({
      code: -32000,
      data: null,
      message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
    })
    expect(n.node.log.level).toBe('info')
  })

  /** A written profile as `go tool pprof` reads it: gzipped profile.proto, decoded by pprof-format. */
  const readPprof = (file: string) => {
    const bytes = readFileSync(file)
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b])
    const p = Profile.decode(gunzipSync(bytes))
    const str = (i: number | bigint) => p.stringTable.strings[Number(i)]!
    return {
      p,
      str,
      types: p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`),
      functions: new Set(p.function.map((f) => str(f.name))),
      total: (index: number) => p.sample.reduce((sum, s) => sum + BigInt(s.value[index]!), 0n),
    }
  }

  it('writes cpu.profile, a pprof CPU profile, between startCPUProfiler and stopCPUProfiler', async () => {
    expect((await n.admin('admin.stopCPUProfiler')).error).toEqual({ code: -32000, message: "cpu profiler doesn't exist", data: null })
    expect(await n.admin('admin.startCPUProfiler')).toMatchObject({ result: {} })
    expect((await n.admin('admin.startCPUProfiler')).error).toEqual({ code: -32000, message: 'cpu profiler already running', data: null })
    for (let i = 0; i < 20; i++)
      await fetch(`http://127.0.0.1:${n.port}/ext/bc/C/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",true]}',
      })
    expect(await n.admin('admin.stopCPUProfiler')).toMatchObject({ result: {} })
    const file = join(dir(), CPU_PROFILE_FILE)
    expect(file.endsWith('/cpu.profile')).toBe(true)
    const { p, str, types, total } = readPprof(file)
    expect(types).toEqual(['samples/count', 'cpu/nanoseconds'])
    expect(`${str(p.periodType!.type)}/${str(p.periodType!.unit)}`).toBe('cpu/nanoseconds')
    expect(Number(p.period)).toBe(1_000_000)
    expect(p.sample.length).toBeGreaterThan(0)
    expect(total(0)).toBeGreaterThan(0n)
    expect(Number(p.durationNanos)).toBeGreaterThan(0)
    // Every sample's stack names known locations, leaf first.
    const ids = new Set(p.location.map((l) => Number(l.id)))
    for (const s of p.sample) for (const id of s.locationId) expect(ids.has(Number(id))).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o640)
    expect(statSync(dir()).mode & 0o777).toBe(0o750)
    expect((await n.admin('admin.stopCPUProfiler')).error?.message).toBe("cpu profiler doesn't exist")
  })

  it('admin.memoryProfile writes mem.profile, a pprof heap profile of the sampled live allocations', async () => {
    expect(await n.admin('admin.memoryProfile')).toMatchObject({ result: {} })
    const file = join(dir(), MEM_PROFILE_FILE)
    expect(file.endsWith('/mem.profile')).toBe(true)
    const { p, types, total } = readPprof(file)
    expect(types).toEqual(['inuse_objects/count', 'inuse_space/bytes'])
    expect(Number(p.period)).toBe(512 * 1024)
    // The node holds megabytes (modules, the chain's caches) from its start on.
    expect(total(1)).toBeGreaterThan(1_000_000n)
    expect(total(0)).toBeGreaterThan(0n)
    expect(statSync(file).mode & 0o777).toBe(0o640)
  })

  it('admin.lockProfile writes lock.profile, the event loop delay over its window as a pprof contention profile', async () => {
    expect(await n.admin('admin.lockProfile')).toMatchObject({ result: {} })
    const { p, str, types, functions, total } = readPprof(join(dir(), LOCK_PROFILE_FILE))
    expect(types).toEqual(['contentions/count', 'delay/nanoseconds'])
    expect([...functions]).toEqual(['(event loop delay)'])
    expect(total(0)).toBeGreaterThan(0n)
    expect(Number(p.durationNanos)).toBe(1_000_000_000)
    const comments = p.comment.map(str)
    expect(comments[0]).toMatch(/^Node\.js has no mutex profile/)
    expect(comments[1]).toMatch(/^window 1000 ms; delay samples \d+; min [\d.]+ ms, mean [\d.]+ ms, p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms$/)
    expect(comments[2]).toMatch(/^event loop utilization [\d.]+ \(active [\d.]+ ms, idle [\d.]+ ms\)$/)
  })

  it('admin.getVMConfig answers the chain config in force', async () => {
    expect((await n.admin('admin.getVMConfig')).result.config).toMatchObject({ 'admin-api-enabled': true, 'rpc-gas-cap': 50_000_000 })
  })

  it('answers gorilla errors for unknown, upper-case and ill-formed method names', async () => {
    expect((await n.admin('admin.getFoo')).error).toEqual({ code: -32000, message: 'rpc: can\'t find method "admin.GetFoo"', data: null })
    expect((await n.admin('admin.StartCPUProfiler')).error?.message).toBe('method must start with a non-uppercase letter')
    expect((await n.admin('admin_startCPUProfiler')).error?.message).toBe('rpc: service/method request ill-formed: "admin_startCPUProfiler"')
    expect((await n.admin('info.getNetworkID')).error?.message).toBe('rpc: can\'t find service "info.GetNetworkID"')
  })
})

describe('admin API enabled by the --coreth-admin-api-enabled flag', () => {
  it('accepts the bare flag, `:true` and `=true`, and `:false` keeps it off', () => {
    const base = ['--http-port', '0', '--data-dir', '/tmp/x']
    expect(configFromArgs([...base, '--coreth-admin-api-enabled']).chain['admin-api-enabled']).toBe(true)
    expect(configFromArgs(['--coreth-admin-api-enabled', ...base]).chain['admin-api-enabled']).toBe(true)
    expect(configFromArgs([...base, '--coreth-admin-api-enabled:true']).chain['admin-api-enabled']).toBe(true)
    expect(configFromArgs([...base, '--coreth-admin-api-enabled=true']).chain['admin-api-enabled']).toBe(true)
    expect(configFromArgs([...base, '--coreth-admin-api-enabled', 'false']).chain['admin-api-enabled']).toBe(false)
    expect(configFromArgs([...base, '--coreth-admin-api-enabled:false']).chain['admin-api-enabled']).toBe(false)
    expect(configFromArgs(base).chain['admin-api-enabled']).toBe(false)
    expect(() => configFromArgs([...base, '--coreth-admin-api-enabled:maybe'])).toThrow(/--coreth-admin-api-enabled: "maybe" is not true or false/)
  })

  it('serves /ext/bc/C/admin on a node started with `--coreth-admin-api-enabled:true`', async () => {
    const d = tempDir()
    const config = configFromArgs(['--http-port', '0', '--data-dir', d, '--log-level', 'silent', '--coreth-admin-api-enabled:true'])
    const n = await boot(config, d)
    try {
      expect(await n.admin('admin.lockProfile')).toMatchObject({ result: {} })
      expect(existsSync(join(d, '_coreth_performance_C', LOCK_PROFILE_FILE))).toBe(true)
    } finally {
      await n.close()
    }
  })
})

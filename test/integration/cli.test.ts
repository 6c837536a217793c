import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { FLAGS } from '../../src/config.js'
import { poll } from '../helpers/chain.js'
import { LOCAL_C } from '../helpers/constants.js'
import { tempDirs } from '../helpers/tempDirs.js'

/*
 * The published binary, dist/src/main.js, as its own process (`npm test` builds dist/ first in
 * pretest): --help, one-line errors with exit 1, the start lines, SIGTERM, and the data
 * directory lock between processes.
 */

const MAIN = join(process.cwd(), 'dist/src/main.js')

interface Run {
  proc: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ChildProcess[] = []
const tempDir = tempDirs('cchain-cli-')

function run(args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  const proc = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
  children.push(proc)
  let out = ''
  let err = ''
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.once('exit', (code, signal) => r({ code, signal })))
  return { proc, out: () => out, err: () => err, exited }
}

/** Resolves with the exit, or fails after `ms`. */
async function exitWithin(r: Run, ms = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`process did not exit within ${ms} ms; stderr: ${r.err()}`)), ms)
  })
  try {
    return await Promise.race([r.exited, timeout])
  } finally {
    clearTimeout(timer)
  }
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await res.json()) as { result?: unknown }).result
}

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` (npm test does it in pretest)`)
})
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r))
      c.kill('SIGKILL')
      await gone
    }
  }
})
afterAll(() => tempDir.removeAll())

describe('cchain-node --help', () => {
  it('lists every flag with its default and exits 0', async () => {
    const r = run(['--help'])
    expect(await exitWithin(r)).toEqual({ code: 0, signal: null })
    const lines = r.out().split('\n')
    const expected: Record<string, string> = {
      'http-host': '127.0.0.1',
      'http-port': '9650',
      'data-dir': join(homedir(), '.cchain-node'),
      'sync-writes': 'false',
      'network-id': '12345',
      'log-level': 'info',
      'chain-config-file': '(none)',
      genesis: '(none)',
      'block-interval': '0',
      'pending-nonce-guard': '0',
      'evm-network-id': '1',
      'log-format': 'auto',
      'coreth-admin-api-enabled': 'false',
      'api-keystore-enabled': 'false',
      'api-keystore-allow-remote': 'false',
      'dev-controls-enabled': '(none)',
      'dev-controls-allow-remote': 'false',
      'dev-client-version': 'hardhat',
      'evm-interpreter': 'own',
      'evm-oracle': 'false',
      'explorer-enabled': '(none)',
      'icm-relayer': '(none)',
      'icm-messenger-address': '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
      'icm-messenger-deployment-tx': '(none)',
      'avalanche-cli-dir': join(homedir(), '.avalanche-cli'),
      'icm-registry-bytecode': '(none)',
      'icm-relayer-key': '(none)',
      'chain-config-dir': '(none)',
      'chain-aliases-file': '(none)',
      'config-file': '(none)',
      'http-allowed-hosts': '(none)',
      'http-allowed-origins': '(none)',
      'http-read-header-timeout': '10s',
      'http-read-timeout': '30s',
      'http-idle-timeout': '72s',
      'http-max-body-size': '5242880',
      'http-max-connections': '512',
      'ws-ping-interval': '30s',
      'ws-max-pending-messages': '10000',
      'keystore-max-username-length': '1024',
      'keystore-max-password-length': '1024',
      'keystore-max-failures': '5',
      'keystore-backoff': '2s',
      'keystore-max-backoff': '60s',
      'fork-url': '(none)',
      'fork-block-number': "(the origin's latest)",
      hardfork: 'helicon',
    }
    expect(Object.keys(FLAGS).sort()).toEqual(Object.keys(expected).sort())
    for (const [flag, def] of Object.entries(expected)) {
      const line = lines.find((l) => l.trimStart().startsWith(`--${flag} `))
      expect(line, `--${flag}`).toBeDefined()
      expect(line, `--${flag}`).toContain(`(default: ${def})`)
    }
    // The chain config keys follow, with coreth's defaults.
    expect(r.out()).toMatch(/^\s+rpc-gas-cap\s+50000000$/m)
    expect(r.out()).toMatch(/^\s+rpc-tx-fee-cap\s+100$/m)
    expect(r.out()).toMatch(/^\s+fee-history-max-blocks\s+1024$/m)
    expect(r.out()).toMatch(/^\s+filter-timeout\s+"5m"$/m)
    expect(r.err()).toBe('')
  })
})

describe('cchain-node with bad arguments', () => {
  it.each([
    [['--bogus', '1'], 'cchain-node: unknown flag --bogus (see --help)'],
    [['--http-port', 'abc'], 'cchain-node: flag --http-port: "abc" is not a non-negative integer'],
    [['--http-port'], 'cchain-node: flag --http-port needs a value'],
  ])('%j exits 1 with one line on stderr', async (args, line) => {
    const r = run(args)
    expect(await exitWithin(r)).toEqual({ code: 1, signal: null })
    expect(r.err()).toBe(`${line}\n`)
    expect(r.out()).toBe('')
  })

  it('a bad value found by validation names its flag in one line', async () => {
    const r = run(['--log-level', 'loud', '--data-dir', tempDir()])
    expect(await exitWithin(r)).toEqual({ code: 1, signal: null })
    const lines = r.err().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^cchain-node: --log-level: /)
  })
})

describe('cchain-node on --http-port 0', () => {
  it('prints where it listens, answers, refuses a second process on its data dir, and stops with 0 on SIGTERM', async () => {
    const dataDir = tempDir()
    const first = run(['--http-port', '0', '--data-dir', dataDir, '--log-level', 'error'])
    const url = await poll(
      async () => {
        if (first.proc.exitCode !== null) throw new Error(`node exited with ${first.proc.exitCode}: ${first.err()}`)
        return /JSON-RPC\s+(http:\/\/127\.0\.0\.1:(\d+)\/ext\/bc\/C\/rpc)\n/.exec(first.out())?.[1]
      },
      'the start lines',
      10_000,
    )
    await poll(async () => (/ info /.test(first.out()) ? true : undefined), 'the last start line', 2_000)
    const port = Number(new URL(url).port)
    expect(port).toBeGreaterThan(0)
    const lines = first.out().trimEnd().split('\n')
    expect(lines[0]).toBe(`cchain-node listening (EVM chain ID 43112, network ID 12345, head block 0, data ${dataDir})`)
    expect(lines.slice(1).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['JSON-RPC', `http://127.0.0.1:${port}/ext/bc/C/rpc`],
      ['WebSocket', `ws://127.0.0.1:${port}/ext/bc/C/ws`],
      ['also at', `http://127.0.0.1:${port}/ext/bc/${LOCAL_C}/rpc`],
      ['atomic', `http://127.0.0.1:${port}/ext/bc/C/avax`],
      ['X-Chain', `http://127.0.0.1:${port}/ext/bc/X`],
      ['P-Chain', `http://127.0.0.1:${port}/ext/bc/P`],
      ['info', `http://127.0.0.1:${port}/ext/info`],
      ['explorer', `http://127.0.0.1:${port}/explorer/`],
    ])
    expect(await rpc(url, 'eth_chainId')).toBe('0xa868')
    expect(await rpc(`http://127.0.0.1:${port}/ext/bc/${LOCAL_C}/rpc`, 'eth_chainId')).toBe('0xa868')

    // Another port, or the same one (which it cannot listen on): either way it names the data directory.
    for (const secondPort of ['0', String(port)]) {
      const second = run(['--http-port', secondPort, '--data-dir', dataDir, '--log-level', 'error'])
      expect(await exitWithin(second)).toEqual({ code: 1, signal: null })
      const errLines = second.err().trimEnd().split('\n')
      expect(errLines).toHaveLength(1)
      expect(errLines[0]).toContain(`data directory ${dataDir}`)
      expect(errLines[0]).toContain('in use')
      expect(second.out()).toBe('')
    }
    // The first one is unaffected.
    expect(await rpc(url, 'eth_blockNumber')).toBe('0x0')

    first.proc.kill('SIGTERM')
    expect(await exitWithin(first)).toEqual({ code: 0, signal: null })
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow()
  })
})

describe('cchain-node start-up', () => {
  it("answers eth_chainId while it loads, and every request sent meanwhile gets the running node's answer", async () => {
    // A fixed free port, so requests can be sent before the start banner names it.
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const base = `http://127.0.0.1:${port}`
    const r = run(['--http-port', String(port), '--data-dir', tempDir(), '--log-level', 'error'])
    const chainId = await poll(
      async () => {
        if (r.proc.exitCode !== null) throw new Error(`node exited with ${r.proc.exitCode}: ${r.err()}`)
        return rpc(`${base}/ext/bc/C/rpc`, 'eth_chainId').catch(() => undefined)
      },
      'the first eth_chainId',
      10_000,
    )
    expect(chainId).toBe('0xa868')
    const gorilla = (path: string, method: string) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }) }).then((res) => res.json())
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ext/bc/C/ws`)
    const wsAnswer = new Promise<unknown>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'eth_blockNumber', params: [] })))
      ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString())))
      ws.once('error', reject)
    })
    const [balance, block, health, network, viaWs] = await Promise.all([
      rpc(`${base}/ext/bc/C/rpc`, 'eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest']),
      rpc(`${base}/ext/bc/C/rpc`, 'eth_blockNumber'),
      fetch(`${base}/ext/health`).then((res) => res.status),
      gorilla('/ext/info', 'info.getNetworkID'),
      wsAnswer,
    ])
    ws.close()
    expect({ balance, block, health, network, viaWs }).toEqual({
      balance: '0x295be96e64066972000000',
      block: '0x0',
      health: 200,
      network: { jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 },
      viaWs: { jsonrpc: '2.0', id: 9, result: '0x0' },
    })
  })
})

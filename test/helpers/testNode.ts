import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import type { Logger } from 'pino'
import { expect } from 'vitest'
import { parseNodeConfig, type ChainConfigFile, type NodeConfigInput } from '../../src/config.js'
import { buildMethodTable, createNode, type CChainNode } from '../../src/node.js'

/** The funded ewoq key and address, for the tests that import them from here. */
export { EWOQ_ADDRESS, EWOQ_KEY } from './constants.js'

/** A JSON-RPC answer: {result} or {error}. */
export type RpcAnswer = { result?: any; error?: { code: number; message: string; data?: unknown } }

export interface TestNode {
  readonly node: CChainNode
  readonly dataDir: string
  /** http://127.0.0.1:<port>/ext/bc/C/rpc (the extra chain's path under CCHAIN_TEST_CHAIN=extra) */
  readonly url: string
  /** ws://127.0.0.1:<port>/ext/bc/C/ws */
  readonly wsUrl: string
  readonly port: number
  /** One JSON-RPC call; resolves to the whole response object ({result} or {error}). */
  rpc(method: string, params?: unknown): Promise<RpcAnswer>
  /** One JSON-RPC call; resolves to the result, throws on an error answer. */
  call(method: string, params?: unknown[]): Promise<any>
  /** One call to a gorilla-style API (`/ext/keystore`, `/ext/bc/X`, ...) as curl sends it; expects HTTP 200. */
  api(path: string, method: string, params?: unknown): Promise<RpcAnswer>
  /** Stops the node, keeping its data directory. */
  stop(): Promise<void>
  /** Stops the node and removes its data directory. */
  close(): Promise<void>
}

export interface TestNodeOptions {
  dataDir?: string
  chain?: Partial<ChainConfigFile>
  config?: Partial<NodeConfigInput>
  /** The clock of the node's timeouts (createNode's `now`), e.g. a SkipClock's. */
  now?: () => number
  /** The node's logger (default: silent), e.g. a capturedLog's. */
  log?: Logger
}

/**
 * The chain config of a chain kept at Granite (the C-Chain before Helicon): for the tests of
 * Granite's own figures (its 24-field genesis, the ACP-176 fee state in extraData, receipts without
 * Helicon's minimum charge), a mode users keep with the chain config key `hardfork`.
 */
export const GRANITE = { hardfork: 'granite' } as const

const LOCAL_GENESIS = fileURLToPath(new URL('../../config/local-genesis.json', import.meta.url))

/**
 * With CCHAIN_TEST_CHAIN=extra (the `extra-chain` vitest project) the tests talk to an extra EVM
 * chain instead of the C-Chain: the local genesis (EVM chain ID 43112, ewoq funded) and the test's
 * chain config run as extra chain `extra` at /ext/bc/<its blockchain ID>/, and the C-Chain gets
 * another EVM chain ID. `rpcPath` is the chain's path prefix either way.
 */
function targetChain(dataDir: string, opts: TestNodeOptions): { input: Partial<NodeConfigInput>; path: (node: CChainNode) => string } {
  if (process.env.CCHAIN_TEST_CHAIN !== 'extra') return { input: { chain: opts.chain ?? {} }, path: () => '/ext/bc/C' }
  const cGenesis = join(dataDir, 'c-genesis.json')
  const genesis = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
  writeFileSync(cGenesis, JSON.stringify({ ...genesis, config: { ...genesis.config, chainId: 43199 } }))
  return {
    input: { genesisFile: cGenesis, evmChains: [{ name: 'extra', genesisFile: LOCAL_GENESIS, chain: opts.chain ?? {} }] },
    path: (node) => `/ext/bc/${node.extraChains[0]!.spec.id}`,
  }
}

/** Starts the real node (createNode) on 127.0.0.1, port 0, a temporary LevelDB directory. */
export async function startTestNode(opts: TestNodeOptions = {}): Promise<TestNode> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cchain-test-'))
  const target = targetChain(dataDir, opts)
  // The pending-nonce guard (250 ms per send after a nonce query) is off unless a test asks for it. Calls run on the
  // node's own interpreter with ethereumjs checking each one (stop() fails on any difference), unless a test says otherwise.
  const config = parseNodeConfig({
    httpHost: '127.0.0.1',
    httpPort: 0,
    dataDir,
    logLevel: 'silent',
    pendingNonceGuard: 0,
    evmInterpreter: 'own',
    evmOracle: true,
    // Not the developer's avalanche-cli (its Teleporter deployment would add blocks at start): a test that wants one names it.
    avalancheCliDir: join(dataDir, 'no-avalanche-cli'),
    ...opts.config,
    ...target.input,
  } as NodeConfigInput)
  const node = await createNode(config, { log: opts.log ?? pino({ level: 'silent' }), now: opts.now })
  const { port } = await node.listen()
  const chainPath = target.path(node)
  const url = `http://127.0.0.1:${port}${chainPath}/rpc`
  let id = 0
  const rpc = async (method: string, params: unknown = []) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    return (await res.json()) as RpcAnswer
  }
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await node.close()
    checkEvmOracle(node)
  }
  return {
    node,
    dataDir,
    url,
    port,
    wsUrl: `ws://127.0.0.1:${port}${chainPath}/ws`,
    rpc,
    async call(method, params = []) {
      const r = await rpc(method, params)
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data })
      return r.result
    },
    async api(path, method, params = {}) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      })
      expect(res.status).toBe(200)
      return (await res.json()) as RpcAnswer
    },
    stop,
    async close() {
      await stop()
      if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The names of the JSON-RPC methods the C-Chain serves, the table assembled again from the node's parts with `chain` overrides. */
export function methodNames(node: CChainNode, chain: Partial<ChainConfigFile> = {}): string[] {
  const { config, log, engine, subscriptions, accounts, atomic, dev } = node
  return Object.keys(buildMethodTable({ config: { ...config, chain: { ...config.chain, ...chain } }, log, engine, subscriptions, accounts, atomic }, dev))
}

/** abi + bytecode of the fixture contracts (test/fixtures/contracts.json, built by scripts/compileContracts.ts). */
export { default as contracts } from '../fixtures/contracts.json' with { type: 'json' }

/**
 * Every call the node's interpreter served in this node's life agreed with ethereumjs (the oracle's
 * counts, per chain): a difference fails the test that made it, with the count.
 */
function checkEvmOracle(node: CChainNode): void {
  const engines = [node.engine, ...node.extraChains.flatMap((c) => (c.chain === undefined ? [] : [c.chain.engine]))]
  for (const engine of engines) {
    const counts = engine.own?.counts
    if (counts !== undefined && (counts.differing > 0 || counts.failed > 0)) {
      throw new Error(`the EVM interpreter differed from ethereumjs on ${counts.differing} of ${counts.compared} calls and failed on ${counts.failed}:\n${engine.own!.recent.join('\n')}`)
    }
  }
}

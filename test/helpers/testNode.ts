import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { parseNodeConfig } from '../../src/config.js'
import type { ChainConfigFile, NodeConfigInput } from '../../src/config.js'
import { createNode } from '../../src/node.js'
import type { CChainNode } from '../../src/node.js'

/** The pre-funded ewoq key of the local genesis (avalanchego: genesis/genesis_local.json). */
export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
export const EWOQ_ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'

export interface TestNode {
  readonly node: CChainNode
  readonly dataDir: string
  /** http://127.0.0.1:<port>/ext/bc/C/rpc (the extra chain's path under CCHAIN_TEST_CHAIN=extra) */
  readonly url: string
  /** ws://127.0.0.1:<port>/ext/bc/C/ws */
  readonly wsUrl: string
  readonly port: number
  /** One JSON-RPC call; resolves to the whole response object ({result} or {error}). */
  rpc(method: string, params?: unknown): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }>
  /** One JSON-RPC call; resolves to the result, throws on an error answer. */
  call(method: string, params?: unknown[]): Promise<any>
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
}

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
  // The pending-nonce guard (250 ms per send after a nonce query) is off unless a test asks for it.
  const config = parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir, logLevel: 'silent', pendingNonceGuard: 0, ...opts.config, ...target.input } as NodeConfigInput)
  const node = await createNode(config, { log: pino({ level: 'silent' }), now: opts.now })
  const { port } = await node.listen()
  const chainPath = target.path(node)
  const url = `http://127.0.0.1:${port}${chainPath}/rpc`
  let id = 0
  const rpc = async (method: string, params: unknown = []) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: unknown } }
  }
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await node.close()
  }
  return {
    node, dataDir, url, port, wsUrl: `ws://127.0.0.1:${port}${chainPath}/ws`, rpc,
    async call(method, params = []) {
      const r = await rpc(method, params)
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data })
      return r.result
    },
    stop,
    async close() {
      await stop()
      if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** abi + bytecode of the fixture contracts (test/fixtures/contracts.json, built by scripts/compileContracts.ts). */
export { default as contracts } from '../fixtures/contracts.json' with { type: 'json' }

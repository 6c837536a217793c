import type { Logger } from 'pino'
import { cb58Encode } from './atomic/cb58.js'
import type { NodeConfig } from './config.js'
import { Engine } from './engine/engine.js'
import { NATIVE_CRYPTO } from './engine/crypto.js'
import { loadGenesis } from './engine/genesis.js'
import { createLogger } from './log.js'
import { ethMethods } from './namespaces/eth/index.js'
import { netMethods } from './namespaces/net.js'
import { web3Methods } from './namespaces/web3.js'
import { txpoolMethods } from './namespaces/txpool.js'
import { debugRawMethods } from './namespaces/debug.js'
import { Dispatcher } from './rpc/dispatch.js'
import { SubscriptionManager } from './rpc/subscriptions.js'
import type { MethodTable, RpcContext } from './rpc/types.js'
import { mergeTables } from './rpc/types.js'
import { createServer } from './server/server.js'
import { openDatabase } from './store/db.js'
import { keccak256 } from './engine/crypto.js'

/** C-Chain blockchain IDs of the known networks (AVALANCHE.md 4.6). */
const C_CHAIN_IDS: Record<number, string> = {
  1: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  5: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
  12345: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
}

/** A running node. */
export interface CChainNode {
  readonly config: NodeConfig
  readonly engine: Engine
  readonly log: Logger
  /** Live eth_subscribe subscriptions (size) and the connections holding them. */
  readonly subscriptions: SubscriptionManager
  /** The C-Chain's CB58 blockchain ID (served at /ext/bc/<id>/... as well as /ext/bc/C/...). */
  readonly blockchainId: string
  listen(): Promise<{ host: string; port: number }>
  close(): Promise<void>
}

/** The assembled JSON-RPC method table the dispatcher serves (eth, net, web3). */
export function buildMethodTable(ctx: RpcContext): MethodTable {
  return mergeTables(ethMethods(ctx), netMethods(ctx), web3Methods(), txpoolMethods(ctx), debugRawMethods(ctx))
}

/** The composition root: the only place that constructs and wires services. */
export async function createNode(config: NodeConfig, opts: { log?: Logger } = {}): Promise<CChainNode> {
  const log = opts.log ?? createLogger(config.logLevel)
  const genesis = loadGenesis(config.genesisFile)
  const chainId = genesis.config.chainId
  if (chainId === 43114 || chainId === 43113) {
    log.warn({ chainId }, `EVM chain ID ${chainId} is a public Avalanche network's: transactions signed for this node are valid there too (replayable)`)
  }
  if (!NATIVE_CRYPTO.secp256k1 || !NATIVE_CRYPTO.keccak) log.warn(NATIVE_CRYPTO, 'native crypto bindings unavailable; using the slower pure-JS fallback')
  const db = await openDatabase(config.dataDir)
  let engine: Engine
  try {
    engine = await Engine.create(db, { genesis, chain: config.chain, blockInterval: config.blockInterval, pendingNonceGuardMs: config.pendingNonceGuard, log: log.child({ module: 'engine' }) })
  } catch (err) {
    await db.close()
    throw err
  }
  const subscriptions = new SubscriptionManager({ maxPerConnection: config.chain['ws-max-subscriptions-per-connection'] })
  const ctx: RpcContext = { config, log, engine, subscriptions }
  const table = buildMethodTable(ctx)
  const rpc = new Dispatcher(table, {
    batchRequestLimit: config.chain['batch-request-limit'],
    batchResponseMaxSize: config.chain['batch-response-max-size'],
    log: log.child({ module: 'rpc' }),
  })
  const blockchainId = C_CHAIN_IDS[config.networkId] ?? cb58Encode(keccak256(Buffer.concat([Buffer.from(`cchain:${config.networkId}:`), engine.chain.genesisBlock.hash])))
  const server = createServer({
    host: config.httpHost, port: config.httpPort, log: log.child({ module: 'http' }),
    chains: new Map([['C', { rpc }], [blockchainId, { rpc }]]),
    ws: { maxConnections: config.chain['ws-max-connections'], maxBufferedBytes: config.chain['ws-max-buffered-bytes'] },
  })
  let closed = false
  return {
    config, engine, log, subscriptions, blockchainId,
    listen: () => server.listen(),
    async close() {
      if (closed) return
      closed = true
      await server.close()
      await engine.close()
      await db.close()
    },
  }
}

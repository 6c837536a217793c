import type { Logger } from 'pino'
import { C_API_ALIASES } from '../avalanche/networks.js'
import { dispatcherOptions } from '../chains/dispatcherOptions.js'
import type { NodeConfig } from '../config.js'
import { chainIdMethods } from '../namespaces/eth/chainId.js'
import { servedMethods } from '../rpc/ethApis.js'
import { RpcStats } from '../rpc/stats.js'
import { EarlyListener } from './earlyListener.js'
import { readForkRecord } from '../store/forkRecord.js'
import { type NodePlan, planNode } from './nodePlan.js'

/** A start made before the node is built: src/node.ts takes it (`CreateNodeOptions.start`). */
export interface NodeStart {
  readonly plan: NodePlan
  readonly listener: EarlyListener
  /** The request counters the early answers went to; the node keeps counting in them. */
  readonly stats: RpcStats
}

/**
 * The CLI's first step: the plan (config and chain files checked, the database open and locked), then
 * the node's port, answering `eth_chainId` from the genesis at once; src/node.ts takes the listener
 * over once the rest is loaded. Imports nothing heavy: no engine, EVM, wallets or Fastify.
 */
export async function startListening(config: NodeConfig, log: Logger): Promise<NodeStart> {
  const plan = await planNode(config, log)
  try {
    const { blockchainId, extra, genesis } = plan
    const stats = new RpcStats()
    // A fork answers its origin's chain ID: known from its record after the first start, else only once the origin answered.
    const fork = config.chain['fork-url'] === undefined ? undefined : (readForkRecord(plan.db) ?? null)
    const early = fork === null ? {} : chainIdMethods(fork?.chainId ?? BigInt(genesis.config.chainId))
    const table = servedMethods(early, config.chain['eth-apis'])
    const listener = await EarlyListener.listen({
      host: config.httpHost,
      port: config.httpPort,
      http: { headersTimeoutMs: config.httpReadHeaderTimeout, requestTimeoutMs: config.httpReadTimeout, keepAliveTimeoutMs: config.httpIdleTimeout, maxConnections: config.httpMaxConnections },
      bodyLimit: config.httpMaxBodyBytes,
      allowedHosts: config.httpAllowedHosts,
      allowedOrigins: config.httpAllowedOrigins,
      chainKeys: [...C_API_ALIASES, ...extra.aliases.get(blockchainId)!, blockchainId],
      roots: C_API_ALIASES,
      early: { table, options: dispatcherOptions(config.chain, log.child({ module: 'rpc' }), stats) },
      log: log.child({ module: 'http' }),
    })
    return { plan, listener, stats }
  } catch (err) {
    await plan.db.close()
    throw err
  }
}

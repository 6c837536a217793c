import type { Logger } from 'pino'
import { C_API_ALIASES } from '../avalanche/networks.js'
import { dispatcherOptions } from '../chains/dispatcherOptions.js'
import type { NodeConfig } from '../config.js'
import { chainIdMethods } from '../namespaces/eth/chainId.js'
import { servedMethods } from '../rpc/ethApis.js'
import { RpcStats } from '../rpc/stats.js'
import type { Database } from '../store/db.js'
import { EarlyListener } from './earlyListener.js'
import { type NodePlan, openNodeDatabase, planChains } from './nodePlan.js'

/** A start made before the node is built: src/node.ts takes it (`CreateNodeOptions.start`). */
export interface NodeStart {
  readonly plan: NodePlan
  readonly listener: EarlyListener
  /** The request counters the early answers went to; the node keeps counting in them. */
  readonly stats: RpcStats
}

/**
 * The CLI's first step: the config and chain files checked, then the node's port, answering
 * `eth_chainId` from the genesis at once, then the database opened and locked; src/node.ts takes the
 * listener over once the rest is loaded. Imports nothing heavy: no engine, EVM, wallets or Fastify,
 * and the store and LevelDB only after listening (docs/PERFORMANCE.md, "Start-up"). A data directory
 * in use stops the start before anything but `eth_chainId` was answered.
 */
export async function startListening(config: NodeConfig, log: Logger): Promise<NodeStart> {
  const chains = planChains(config, log)
  const { blockchainId, extra, genesis } = chains
  // A fork answers its origin's chain ID, from its record after the first start: its database opens first.
  const forked = config.chain['fork-url'] !== undefined
  let db: Database | undefined = forked ? await openNodeDatabase(config, log) : undefined
  try {
    const stats = new RpcStats()
    // Without a record the chain ID is known only once the origin answered: nothing is answered early.
    const fork = db === undefined ? undefined : ((await import('../store/forkRecord.js')).readForkRecord(db) ?? null)
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
    }).catch(async (err: unknown) => {
      // A second node started on the same port and data directory: the data directory is the one to name.
      if (db === undefined && (err as { code?: string }).code === 'EADDRINUSE') db = await openNodeDatabase(config, log)
      throw err
    })
    try {
      db ??= await openNodeDatabase(config, log)
    } catch (err) {
      await listener.close()
      throw err
    }
    return { plan: { ...chains, db }, listener, stats }
  } catch (err) {
    await db?.close()
    throw err
  }
}

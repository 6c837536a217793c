import type { Logger } from 'pino'
import { cb58Decode, cb58Encode } from './atomic/cb58.js'
import { networkByID } from './atomic/networks.js'
import type { NodeConfig } from './config.js'
import { ConfigError, checkKeystoreExposure } from './config.js'
import { Engine } from './engine/engine.js'
import { NATIVE_CRYPTO } from './crypto.js'
import { loadGenesis } from './engine/genesis.js'
import { createLogger } from './log.js'
import { ethMethods } from './namespaces/eth/index.js'
import { netMethods } from './namespaces/net.js'
import { web3Methods } from './namespaces/web3.js'
import { txpoolMethods } from './namespaces/txpool.js'
import { debugRawMethods, debugTraceMethods } from './namespaces/debug.js'
import { accountMethods, personalMethods } from './namespaces/personal.js'
import { ethSubscribeDisabled } from './namespaces/eth/subscriptions.js'
import { AccountManager } from './engine/accounts.js'
import { resolveEthApis, servedMethods } from './rpc/ethApis.js'
import { join } from 'node:path'
import { Dispatcher } from './rpc/dispatch.js'
import { METHOD_NOT_FOUND } from './rpc/errors.js'
import { GorillaDispatcher } from './rpc/gorilla.js'
import { RpcStats } from './rpc/stats.js'
import { adminMethods } from './namespaces/admin.js'
import { infoMethods } from './namespaces/info.js'
import { keystoreMethods } from './namespaces/keystore.js'
import { Keystore } from './keystore/keystore.js'
import { KeystoreStore } from './store/keystoreStore.js'
import { createDeprecationWarner } from './rpc/deprecation.js'
import { avaxMethods, nativeHandlers, nativeMethods } from './namespaces/native.js'
import { NETWORKS } from './atomic/networks.js'
import { HealthReporter, healthMethods } from './namespaces/health.js'
import { createMetrics } from './metrics.js'
import { loadNodeIdentity } from './nodeIdentity.js'
import { Profiler, profileDir } from './profiler.js'
import { SubscriptionManager } from './rpc/subscriptions.js'
import type { MethodTable, RpcContext } from './rpc/types.js'
import { mergeTables } from './rpc/types.js'
import { createServer } from './server/server.js'
import { databaseSize, openDatabase } from './store/db.js'
import { AtomicTxStore } from './store/atomicTxStore.js'
import { SharedMemory } from './store/sharedMemory.js'
import { AtomicTxService } from './atomic/atomicService.js'
import { XChainStore } from './store/xchainStore.js'
import { XChainService, storedXUTXO } from './xchain/service.js'
import { localXGenesisUTXOs } from './xchain/genesis.js'
import { avmMethods } from './namespaces/avm.js'
import { PChainService } from './pchain/service.js'
import { localPGenesisUTXOs } from './pchain/genesis.js'
import { platformMethods } from './namespaces/platform.js'
import { avmKeystoreMethods, platformKeystoreMethods } from './namespaces/xpKeystore.js'
import { keccak256 } from './crypto.js'
import { configDurationMs } from './goDuration.js'


/** A running node. */
export interface CChainNode {
  readonly config: NodeConfig
  readonly engine: Engine
  readonly log: Logger
  /** Live eth_subscribe subscriptions (size) and the connections holding them. */
  readonly subscriptions: SubscriptionManager
  /** Keystore accounts (`<data-dir>/keystore`) of personal_ and the account methods. */
  readonly accounts: AccountManager
  /** The C-Chain's CB58 blockchain ID (served at /ext/bc/<id>/... as well as /ext/bc/C/...). */
  readonly blockchainId: string
  /** Atomic txs: issue, status, shared-memory UTXOs (AVALANCHE.md 7-9). */
  readonly atomic: AtomicTxService
  /** The X-Chain (AVAX transfers, imports and exports through shared memory). */
  readonly xchain: XChainService
  /** The P-Chain (AVAX transfers, imports and exports through shared memory; no staking). */
  readonly pchain: PChainService
  /** The node keystore, when `--api-keystore-enabled` (the keystore-backed native methods use it). */
  readonly keystore?: Keystore
  listen(): Promise<{ host: string; port: number }>
  close(): Promise<void>
}

/**
 * The assembled JSON-RPC method table the dispatcher serves: every namespace's methods, kept
 * when their coreth service is in the chain config's `eth-apis` (src/rpc/ethApis.ts).
 */
export function buildMethodTable(ctx: RpcContext): MethodTable {
  const all = mergeTables(ethMethods(ctx), netMethods(ctx), web3Methods(), txpoolMethods(ctx), debugRawMethods(ctx), debugTraceMethods(ctx), personalMethods(ctx), accountMethods(ctx))
  return servedMethods(all, ctx.config.chain['eth-apis'], ethSubscribeDisabled())
}

/** The composition root: the only place that constructs and wires services. */
export async function createNode(config: NodeConfig, opts: { log?: Logger } = {}): Promise<CChainNode> {
  const log = opts.log ?? createLogger(config.logLevel, config.logFormat)
  try {
    resolveEthApis(config.chain['eth-apis'])
  } catch (err) {
    throw new ConfigError(`eth-apis: ${(err as Error).message}`)
  }
  checkKeystoreExposure(config)
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
  const known = networkByID(config.networkId)
  const blockchainId = known !== undefined ? cb58Encode(known.cChainID) : cb58Encode(keccak256(Buffer.concat([Buffer.from(`cchain:${config.networkId}:`), engine.chain.genesisBlock.hash])))
  // Atomic txs: shared memory and accepted txs on the chain's LevelDB, the atomic mempool feeding the builder.
  let atomicService: AtomicTxService
  let xchain: XChainService
  let pchain: PChainService
  try {
    const sharedMemory = await SharedMemory.open(db, { cChainID: cb58Decode(blockchainId) })
    atomicService = new AtomicTxService({ networkID: config.networkId, chainID: cb58Decode(blockchainId) }, {
      engine, sharedMemory, txStore: new AtomicTxStore(db), log: log.child({ module: 'atomic' }),
    })
    engine.setAtomicSource(atomicService)
    // The X-Chain: its ledger seeded with the local genesis allocation (other networks start empty).
    const net = known ?? NETWORKS.local
    const xGenesis = known?.name === 'local' ? localXGenesisUTXOs().map(storedXUTXO) : []
    xchain = new XChainService(
      { networkID: config.networkId, xChainID: net.xChainID, peerChains: [cb58Decode(blockchainId), net.pChainID], avaxAssetID: net.avaxAssetID },
      { store: await XChainStore.open(db, xGenesis), sharedMemory, log: log.child({ module: 'xchain' }) },
    )
    // The P-Chain: its ledger seeded with the local genesis unlocks (the locked ones as StakeableLockOut).
    pchain = await PChainService.open(
      { networkID: config.networkId, pChainID: net.pChainID, peerChains: [net.xChainID, cb58Decode(blockchainId)], avaxAssetID: net.avaxAssetID },
      { sharedMemory, db, log: log.child({ module: 'pchain' }) },
      known?.name === 'local' ? localPGenesisUTXOs() : [],
    )
  } catch (err) {
    await engine.close()
    await db.close()
    throw err
  }
  const subscriptions = new SubscriptionManager({ maxPerConnection: config.chain['ws-max-subscriptions-per-connection'] })
  const accounts = new AccountManager(join(config.dataDir, 'keystore'))
  const ctx: RpcContext = { config, log, engine, subscriptions, accounts, atomic: atomicService }
  const table = buildMethodTable(ctx)
  const stats = new RpcStats()
  log.info({ apis: config.chain['eth-apis'] }, 'enabling apis')
  const rpc = new Dispatcher(table, {
    batchRequestLimit: config.chain['batch-request-limit'],
    batchResponseMaxSize: config.chain['batch-response-max-size'],
    requestTimeoutMs: Math.max(0, configDurationMs(config.chain['api-max-duration'])),
    log: log.child({ module: 'rpc' }),
    stats,
  })
  // avalanchego's node APIs: /ext/info, /ext/health, /ext/metrics, and /ext/bc/C/admin when enabled.
  const apiLog = log.child({ module: 'api' })
  const info = new GorillaDispatcher(infoMethods({ networkId: config.networkId, cChainId: blockchainId, identity: loadNodeIdentity(config.dataDir) }), { log: apiLog, stats })
  const healthReporter = new HealthReporter({
    head: () => ({ height: engine.head.header.number, hash: engine.head.hash }),
    checkDatabase: () => {
      if (db.status !== 'open') throw new Error(`database is ${db.status}`)
      if (engine.chain.store.readBlock(engine.head.hash) === undefined) throw new Error('head block not found in the database')
    },
  })
  const health = { rpc: new GorillaDispatcher(healthMethods(healthReporter), { log: apiLog, stats }), report: healthReporter.report.bind(healthReporter) }
  const profiler = new Profiler(profileDir(config.dataDir, config.chain['admin-api-dir']))
  const admin = config.chain['admin-api-enabled'] ? new GorillaDispatcher(adminMethods({ log, profiler, chainConfig: config.chain }), { log: apiLog, stats }) : undefined
  // The keystore (/ext/keystore) only with --api-keystore-enabled; off, the route does not exist (404).
  const deprecated = createDeprecationWarner(apiLog)
  const keystore = config.keystoreEnabled ? new Keystore({}, { store: new KeystoreStore({ db }), log: log.child({ module: 'keystore' }) }) : undefined
  if (keystore !== undefined) log.warn('keystore API enabled at /ext/keystore: it takes passwords and holds keys (deprecated by avalanchego)')
  // The atomic API: one handler table, as `native` (/ext/bc/C/native) and `avax` (/ext/bc/C/avax, AvalancheJS's path).
  // The keystore-backed methods are always served; with the keystore off every user is unknown (as avalanchego).
  const apis: { path: string; rpc: GorillaDispatcher }[] = []
  {
    // X and P IDs of an unknown network are not derivable here; the local network's stand in.
    const chains = { xChainID: (known ?? NETWORKS.local).xChainID, pChainID: (known ?? NETWORKS.local).pChainID, cChainID: cb58Decode(blockchainId) }
    const keystoreBackend = {
      keystore, verify: atomicService.ctx,
      balance: (address: Uint8Array) => engine.balance(address, 'latest'),
      nonce: (address: Uint8Array) => engine.nonce(address, 'latest'),
      baseFee: () => engine.fees.nextBaseFee(),
    }
    const handlers = nativeHandlers({ atomic: ctx.atomic, networkID: config.networkId, chains, keystoreBackend })
    const native = new GorillaDispatcher(nativeMethods(handlers, deprecated), { log: apiLog, stats })
    const avax = new GorillaDispatcher(avaxMethods(handlers, deprecated), { log: apiLog, stats })
    for (const alias of ['C', blockchainId]) apis.push({ path: `/ext/bc/${alias}/native`, rpc: native }, { path: `/ext/bc/${alias}/avax`, rpc: avax })
    apis.push({ path: '/ext/bc/evm/avax', rpc: avax })
    // The X-Chain's avm service, at its alias and its CB58 ID.
    // The keystore-backed X and P methods (avm.send/import/export, platform.importAVAX/exportAVAX): always served,
    // every user unknown while the keystore is off (as avalanchego's empty keystore).
    const xpKeystore = { keystore, networkID: config.networkId, chains, avaxAssetID: (known ?? NETWORKS.local).avaxAssetID, deprecated }
    const avm = new GorillaDispatcher(mergeTables(
      avmMethods({ x: xchain, networkID: config.networkId, chains, avaxAssetID: (known ?? NETWORKS.local).avaxAssetID }),
      avmKeystoreMethods({ ...xpKeystore, x: xchain }),
    ), { log: apiLog, stats })
    for (const alias of ['X', cb58Encode(chains.xChainID)]) apis.push({ path: `/ext/bc/${alias}`, rpc: avm })
    // The P-Chain's platform service, at its alias and its CB58 ID.
    const platform = new GorillaDispatcher(mergeTables(
      platformMethods({ p: pchain, networkID: config.networkId, chains, avaxAssetID: (known ?? NETWORKS.local).avaxAssetID }),
      platformKeystoreMethods({ ...xpKeystore, p: pchain }),
    // Staking, subnet and validator methods are out of scope and answer -32601 (issue 7).
    ), { log: apiLog, stats, unknownMethodCode: METHOD_NOT_FOUND })
    for (const alias of ['P', cb58Encode(chains.pChainID)]) apis.push({ path: `/ext/bc/${alias}`, rpc: platform })
  }
  const keystoreRpc = keystore !== undefined ? new GorillaDispatcher(keystoreMethods({ keystore, deprecated }), { log: apiLog, stats }) : undefined
  const metrics = createMetrics({
    stats,
    headHeight: () => engine.head.header.number,
    txPool: () => engine.pool.size,
    wsConnections: () => server.wsConnections,
    wsSubscriptions: () => subscriptions.size,
    databaseSize: () => databaseSize(config.dataDir),
  })
  const server = createServer({
    host: config.httpHost, port: config.httpPort, log: log.child({ module: 'http' }),
    chains: new Map([['C', { rpc, admin }], [blockchainId, { rpc, admin }]]),
    node: { info, health, metrics, keystore: keystoreRpc },
    apis,
    ws: { maxConnections: config.chain['ws-max-connections'], maxBufferedBytes: config.chain['ws-max-buffered-bytes'] },
  })
  let closed = false
  return {
    config, engine, log, subscriptions, accounts, blockchainId, atomic: atomicService, xchain, pchain, keystore,
    listen: () => server.listen(),
    async close() {
      if (closed) return
      closed = true
      await server.close()
      profiler.close()
      accounts.close()
      await engine.close()
      await db.close()
    },
  }
}

import { join } from 'node:path'
import type { Logger } from 'pino'
import { cb58Decode } from './avalanche/cb58.js'
import { C_API_ALIASES, P_API_ALIASES, X_API_ALIASES } from './avalanche/networks.js'
import type { AtomicTxService } from './atomic/atomicService.js'
import { type EvmChain, buildMethodTable, openEvmChain } from './chains/evmChain.js'
import type { DevServices } from './namespaces/dev/index.js'
import type { EvmChainSpec } from './chains/extraChains.js'
import type { NodeConfig } from './config.js'
import { explorerInfo } from './chains/explorerInfo.js'
import { NATIVE_CRYPTO } from './util/crypto.js'
import { AccountManager } from './engine/accounts/accounts.js'
import type { Engine } from './engine/engine.js'
import { evmKeySpace } from './keystore/chainKeys.js'
import { Keystore, type KeystoreOptions } from './keystore/keystore.js'
import { DEFAULT_THROTTLE } from './keystore/throttle.js'
import { createLogger } from './log.js'
import { createMetrics } from './metrics.js'
import { avmMethods } from './namespaces/avm.js'
import { HealthReporter } from './healthReporter.js'
import { healthMethods } from './namespaces/health.js'
import { P_CHAIN_ID, infoMethods } from './namespaces/info.js'
import { keystoreMethods } from './namespaces/keystore.js'
import { platformMethods } from './namespaces/platform.js'
import { avmKeystoreMethods, platformKeystoreMethods } from './namespaces/xpKeystore.js'
import { loadNodeIdentity } from './nodeIdentity.js'
import { unixNow } from './util/unixNow.js'
import { evmSubnetID } from './chains/blockchainID.js'
import { nodeVerifier } from './warp/verifier.js'
import { platformValidatorMethods } from './namespaces/platformValidators.js'
import { icmMethods } from './namespaces/icm.js'
import { createRelayer, deployMessenger } from './chains/icmRelayer.js'
import { resolveMessengerDeployment } from './chains/messengerDeployment.js'
import { type AggregatorChain, aggregateSignatures } from './icm/signatureAggregator.js'
import { PChainService } from './pchain/service.js'
import { localPGenesisUTXOs, validatorStake } from './pchain/genesis.js'
import { EMPTY_ID as PRIMARY_NETWORK } from './rpc/avalancheArgs.js'
import { createDeprecationWarner } from './rpc/deprecation.js'
import { METHOD_NOT_FOUND } from './rpc/errors.js'
import { GorillaDispatcher } from './rpc/gorilla.js'
import { RpcStats } from './rpc/stats.js'
import type { SubscriptionManager } from './rpc/subscriptions.js'
import { mergeTables } from './rpc/types.js'
import { type ChainRoute, createServer } from './server/server.js'
import { loadExplorerAssets } from './server/explorerAssets.js'
import { explorerOn } from './server/explorerExposure.js'
import { type Database, databaseSize } from './store/db.js'
import { openChainDatabase } from './startup/openChainDatabase.js'
import { planNode } from './startup/nodePlan.js'
import type { NodeStart } from './startup/startListening.js'
import { KeystoreStore } from './store/keystoreStore.js'
import { XChainStore } from './store/xchainStore.js'
import { XChainService, storedXUTXO } from './xchain/service.js'
import { localXGenesisUTXOs } from './xchain/genesis.js'

/** An extra EVM chain as the node runs it: open, or failed at start (its paths answer 503). */
export interface ExtraChainState {
  readonly spec: EvmChainSpec
  readonly chain?: EvmChain
  /** Why it did not start. */
  readonly error?: string
}

/** A running node. */
export interface CChainNode {
  readonly config: NodeConfig
  /** The C-Chain's engine. */
  readonly engine: Engine
  readonly log: Logger
  /** The C-Chain's live eth_subscribe subscriptions (size) and the connections holding them. */
  readonly subscriptions: SubscriptionManager
  /** Keystore accounts (`<data-dir>/keystore`) of personal_ and the account methods, shared by every EVM chain. */
  readonly accounts: AccountManager
  /** The C-Chain's CB58 blockchain ID (served at /ext/bc/<id>/... as well as /ext/bc/C/...). */
  readonly blockchainId: string
  /** The C-Chain's atomic txs: issue, status, shared-memory UTXOs (coreth: plugin/evm/atomic/vm/). */
  readonly atomic: AtomicTxService
  /** The X-Chain (AVAX transfers, imports and exports through shared memory). */
  readonly xchain: XChainService
  /** The P-Chain (AVAX transfers, imports and exports through shared memory; no staking). */
  readonly pchain: PChainService
  /** Extra EVM chains (--chain-config-dir), each at /ext/bc/<its ID or alias>/... */
  readonly extraChains: readonly ExtraChainState[]
  /** The node keystore, when `--api-keystore-enabled` (the keystore-backed native methods use it). */
  readonly keystore?: Keystore
  /** The C-Chain's development controls, when they are on (src/dev/exposure.ts). */
  readonly dev?: DevServices
  /** The explorer's path (`/explorer/`) when it is served (docs/EXPLORER.md). */
  readonly explorer?: string
  listen(): Promise<{ host: string; port: number }>
  close(): Promise<void>
}

export { buildMethodTable }

export interface CreateNodeOptions {
  log?: Logger
  /**
   * The clock (ms since the epoch; Date.now when absent) of the timeouts a client waits out: timed
   * account unlocks, the polling-filter timeout, the keystore back-off. Tests pass one they move on.
   */
  now?: () => number
  /**
   * The CLI's start (src/main.ts): the plan it made (its database open) and the listener already
   * answering on the node's port, which the node takes over in `listen()` instead of listening itself.
   */
  start?: NodeStart
}

/** The composition root: the only place that constructs and wires services. */
export async function createNode(config: NodeConfig, opts: CreateNodeOptions = {}): Promise<CChainNode> {
  const log = opts.log ?? createLogger(config.logLevel, config.logFormat)
  // Read before the database opens: a file that holds no keyless deployment stops the start.
  const messengerDeployment = await resolveMessengerDeployment(config, log)
  const { genesis, known, net, blockchainId, xChainId, extra, db } = opts.start?.plan ?? (await planNode(config, log))
  if (!NATIVE_CRYPTO.secp256k1) log.warn(NATIVE_CRYPTO, 'native secp256k1 binding unavailable; using the slower pure-JS fallback')
  const accounts = new AccountManager(join(config.dataDir, 'keystore'), { now: opts.now })
  const stats = opts.start?.stats ?? new RpcStats()
  const apiLog = log.child({ module: 'api' })
  const deprecated = createDeprecationWarner(apiLog)
  // The keystore (/ext/keystore) only with --api-keystore-enabled; off, the route does not exist (404).
  // Keys stored before the per-chain key sets were imported through avax.importKey: they join the C-Chain's set.
  const legacyKeySpace = evmKeySpace(cb58Decode(blockchainId))
  const keystore = config.keystoreEnabled
    ? new Keystore({ ...keystoreOptions(config), legacyKeySpace, now: opts.now }, { store: new KeystoreStore({ db }), log: log.child({ module: 'keystore' }) })
    : undefined
  if (keystore !== undefined) log.warn('keystore API enabled at /ext/keystore: it takes passwords and holds keys (deprecated by avalanchego)')
  const network = { xChainID: net.xChainID, pChainID: net.pChainID, avaxAssetID: net.avaxAssetID }
  // The node's identity: its node ID, and the BLS key that signs its chains' Warp messages.
  const identity = loadNodeIdentity(config.dataDir, config.networkId)
  // Each extra chain is the one chain of a subnet of its own (docs/WARP.md).
  const extraSubnets = new Map(extra.chains.map((spec) => [spec.id, evmSubnetID(cb58Decode(spec.id))]))
  // Warp predicates verify against the node's key, from the node's chains and the P-Chain (docs/WARP.md).
  const warpChains = [cb58Decode(blockchainId), ...extra.chains.map((spec) => cb58Decode(spec.id)), net.pChainID]
  const warpVerify = nodeVerifier(config.networkId, identity.signer.publicKey, warpChains)
  // The node's ICM relayer over all its chains (docs/ICM.md), served as icm_ at each.
  const relayer = createRelayer(config, known?.name === 'local', identity.signer, log)
  const nodeMethods = relayer !== undefined ? icmMethods(relayer) : {}
  const shared = { accounts, stats, deprecated, keystore, network, now: opts.now, signer: identity.signer, warpVerify, nodeMethods }

  let cChain: EvmChain
  let xchain: XChainService
  let pchain: PChainService
  try {
    cChain = await openEvmChain({
      ...shared,
      config,
      log,
      db,
      id: blockchainId,
      aliases: [...C_API_ALIASES, ...extra.aliases.get(blockchainId)!],
      roots: C_API_ALIASES,
      genesis,
      subnetID: PRIMARY_NETWORK,
    })
  } catch (err) {
    accounts.close()
    await db.close()
    throw err
  }
  const engine = cChain.engine
  try {
    // The X-Chain: its ledger seeded with the local genesis allocation (other networks start empty).
    const xGenesis = known?.name === 'local' ? localXGenesisUTXOs().map(storedXUTXO) : []
    xchain = new XChainService(
      { networkID: config.networkId, xChainID: net.xChainID, peerChains: [cb58Decode(blockchainId), net.pChainID], avaxAssetID: net.avaxAssetID },
      { store: await XChainStore.open(db, xGenesis), sharedMemory: cChain.sharedMemory, log: log.child({ module: 'xchain' }) },
    )
    // The P-Chain: its ledger seeded with the local genesis unlocks (the locked ones as StakeableLockOut).
    pchain = await PChainService.open(
      { networkID: config.networkId, pChainID: net.pChainID, peerChains: [net.xChainID, cb58Decode(blockchainId)], avaxAssetID: net.avaxAssetID },
      { sharedMemory: cChain.sharedMemory, db, log: log.child({ module: 'pchain' }) },
      known?.name === 'local' ? localPGenesisUTXOs() : [],
    )
  } catch (err) {
    await cChain.close()
    accounts.close()
    await db.close()
    throw err
  }
  // The X and P ledgers share the C-Chain's database: its snapshots undo them too.
  cChain.dev?.controls.onReload((restored) => xchain.reload(restored))
  cChain.dev?.controls.onReload((restored) => pchain.reload(restored))

  // Each extra chain on its own LevelDB under <data-dir>/chains/<ID>; one that fails to open is
  // reported (health, 503 at its paths) while the others run.
  const extraChains: { spec: EvmChainSpec; chain?: EvmChain; db?: Database; error?: string }[] = []
  for (const spec of extra.chains) {
    const chainLog = log.child({ chain: spec.name })
    let chainDb: Database | undefined
    try {
      chainDb = await openChainDatabase(join(config.dataDir, 'chains', spec.id), config, chainLog)
      const chain = await openEvmChain({
        ...shared,
        config: { ...config, chain: spec.chain },
        log: chainLog,
        db: chainDb,
        id: spec.id,
        aliases: spec.aliases,
        genesis: spec.genesis,
        upgrade: spec.upgrade,
        peerChainIDs: [],
        subnetID: extraSubnets.get(spec.id)!,
      })
      extraChains.push({ spec, chain, db: chainDb })
    } catch (err) {
      if (chainDb !== undefined) await chainDb.close().catch(() => {})
      const error = (err as Error).message
      chainLog.error({ err }, `chain ${spec.name} (${spec.id}) failed to start; the other chains run`)
      extraChains.push({ spec, error })
    }
  }
  const running = [cChain, ...extraChains.flatMap(({ chain }) => (chain !== undefined ? [chain] : []))]
  for (const c of running) relayer?.attach({ blockchainID: cb58Decode(c.id), engine: c.engine })
  await deployMessenger(
    messengerDeployment,
    known?.name === 'local',
    running.map((c) => c.engine),
    relayer,
    log,
  )
  relayer?.catchUp().catch((err: unknown) => log.warn({ err }, 'icm relayer: catching up failed'))

  // avalanchego's node APIs: /ext/info, /ext/health, /ext/metrics, and /ext/bc/<chain>/admin when enabled.
  const info = new GorillaDispatcher(
    infoMethods({
      networkId: config.networkId,
      cChainId: blockchainId,
      heliconTime: engine.rules.heliconTime,
      identity,
      chainAliases: [...extra.aliases]
        .flatMap(([id, aliases]) => aliases.map((alias) => [alias, id] as const))
        .concat(extraChains.flatMap(({ spec }) => [[spec.id, spec.id] as const, ...spec.aliases.map((a) => [a, spec.id] as const)])),
    }),
    { log: apiLog, stats },
  )
  const healthReporter = new HealthReporter({
    chains: [
      { name: 'C', subnet: P_CHAIN_ID, head: () => ({ height: engine.head.header.number, hash: engine.head.hash }), checkDatabase: () => cChain.checkDatabase() },
      ...extraChains.map(({ spec, chain, error }) => ({
        name: spec.aliases[0] ?? spec.id,
        subnet: spec.id,
        head: () => {
          if (chain === undefined) throw new Error(`chain failed to start: ${error}`)
          return { height: chain.engine.head.header.number, hash: chain.engine.head.hash }
        },
        checkDatabase: () => chain?.checkDatabase(),
      })),
    ],
    checkDatabase: () => {
      cChain.checkDatabase()
      for (const { chain } of extraChains) chain?.checkDatabase()
    },
  })
  const health = { rpc: new GorillaDispatcher(healthMethods(healthReporter), { log: apiLog, stats }), report: healthReporter.report.bind(healthReporter) }
  // The node validates the Primary Network (its ID is the empty ID; C and X) and each extra chain's subnet, alone (docs/WARP.md): subnet ID (hex) -> its chains.
  const hx = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  const subnets = new Map<string, Uint8Array[]>([[hx(PRIMARY_NETWORK), [cb58Decode(blockchainId), net.xChainID]]])
  for (const spec of extra.chains) subnets.set(hx(extraSubnets.get(spec.id)!), [cb58Decode(spec.id)])
  const apis: { path: string; rpc: GorillaDispatcher }[] = [...cChain.apis]
  for (const { chain } of extraChains) if (chain !== undefined) apis.push(...chain.apis)
  {
    // The keystore-backed X and P methods (avm.send/import/export, platform.importAVAX/exportAVAX): always served,
    // every user unknown while the keystore is off (as avalanchego's empty keystore).
    const chains = { xChainID: net.xChainID, pChainID: net.pChainID, cChainID: cb58Decode(blockchainId) }
    const xpKeystore = { keystore, networkID: config.networkId, chains, avaxAssetID: net.avaxAssetID, deprecated }
    // The X-Chain's avm service at /ext/bc/<ID>, its API aliases (/ext/X, /ext/avm, /ext/bc/X, /ext/bc/avm; genesis/aliases.go) and the aliases file's names.
    const avm = new GorillaDispatcher(mergeTables(avmMethods({ x: xchain, networkID: config.networkId, chains, avaxAssetID: net.avaxAssetID }), avmKeystoreMethods({ ...xpKeystore, x: xchain })), {
      log: apiLog,
      stats,
    })
    for (const path of apiPaths(X_API_ALIASES, xChainId, extra.aliases.get(xChainId)!)) apis.push({ path, rpc: avm })
    // The P-Chain's platform service, likewise (/ext/P, /ext/platform, /ext/bc/P, /ext/bc/platform).
    const stake = validatorStake(known?.name === 'local', unixNow())
    const validatorView = { subnets, nodeID: identity.nodeID, publicKey: identity.signer.publicKey, proofOfPossession: identity.signer.proofOfPossession(), ...stake, hrp: net.hrp, created: pchain }
    const platform = new GorillaDispatcher(
      mergeTables(
        platformMethods({ p: pchain, networkID: config.networkId, chains, avaxAssetID: net.avaxAssetID }),
        platformKeystoreMethods({ ...xpKeystore, p: pchain }),
        platformValidatorMethods(validatorView),
        // Staking and subnet-management methods are out of scope and answer -32601 (issue 7).
      ),
      { log: apiLog, stats, unknownMethodCode: METHOD_NOT_FOUND },
    )
    for (const path of apiPaths(P_API_ALIASES, P_CHAIN_ID, extra.aliases.get(P_CHAIN_ID)!)) apis.push({ path, rpc: platform })
  }
  // icm-services' signature-aggregator API over the node's chains and the subnets the node validates (docs/ICM.md).
  const aggregatorChains = new Map<string, AggregatorChain>(running.map((c) => [hx(cb58Decode(c.id)), { warp: c.engine.warp, subnetID: extraSubnets.get(c.id) ?? PRIMARY_NETWORK }]))
  const aggregator = (body: unknown) => aggregateSignatures({ chains: aggregatorChains, validates: (subnet) => subnets.has(subnet), signer: identity.signer }, body)
  const keystoreRpc = keystore !== undefined ? new GorillaDispatcher(keystoreMethods({ keystore, deprecated }), { log: apiLog, stats }) : undefined
  const metrics = createMetrics({
    stats,
    headHeight: () => engine.head.header.number,
    chainHeads: () => running.map((c) => ({ chain: c.aliases[0] ?? c.id, height: c.engine.head.header.number })),
    txPool: () => engine.poolSize(),
    wsConnections: () => server.wsConnections,
    wsSubscriptions: () => running.reduce((n, c) => n + c.subscriptions.size, 0),
    databaseSize: () => databaseSize(config.dataDir),
  })
  // Every chain at its ID and each alias; a chain that failed to start answers 503 there.
  const routes = new Map<string, ChainRoute>()
  for (const c of running) for (const key of [...c.aliases, c.id]) routes.set(key, c.endpoints)
  for (const { spec, error } of extraChains) {
    if (error !== undefined) for (const key of [...spec.aliases, spec.id]) routes.set(key, { unavailable: `chain ${spec.name} (${spec.id}) failed to start: ${error}` })
  }
  // The explorer (docs/EXPLORER.md): read-only, on by default on a loopback host only.
  const explorer = explorerOn(config)
    ? explorerInfo({
        networkID: config.networkId,
        network,
        chains: [
          { spec: { id: blockchainId, aliases: cChain.aliases, evmChainID: Number(engine.chainId) }, chain: cChain },
          ...extraChains.map(({ spec, chain, error }) => ({ spec: { ...spec, evmChainID: Number(spec.genesis.config.chainId) }, chain, error })),
        ],
      })
    : undefined
  const server = createServer({
    host: config.httpHost,
    port: config.httpPort,
    log: log.child({ module: 'http' }),
    chains: routes,
    roots: C_API_ALIASES,
    node: { info, health, metrics, keystore: keystoreRpc, aggregator },
    apis,
    ...(explorer !== undefined && { explorer: { ...explorer, assets: loadExplorerAssets() } }),
    bodyLimit: config.httpMaxBodyBytes,
    allowedHosts: config.httpAllowedHosts,
    allowedOrigins: config.httpAllowedOrigins,
    http: { headersTimeoutMs: config.httpReadHeaderTimeout, requestTimeoutMs: config.httpReadTimeout, keepAliveTimeoutMs: config.httpIdleTimeout, maxConnections: config.httpMaxConnections },
    ws: {
      maxConnections: config.chain['ws-max-connections'],
      maxBufferedBytes: config.chain['ws-max-buffered-bytes'],
      maxPendingMessages: config.wsMaxPendingMessages,
      pingIntervalMs: config.wsPingInterval,
    },
  })
  let closed = false
  return {
    config,
    engine,
    log,
    subscriptions: cChain.subscriptions,
    accounts,
    blockchainId,
    atomic: cChain.atomic,
    xchain,
    pchain,
    keystore,
    ...(cChain.dev !== undefined && { dev: cChain.dev }),
    ...(explorer !== undefined && { explorer: '/explorer/' }),
    extraChains: extraChains.map(({ spec, chain, error }) => ({ spec, ...(chain !== undefined && { chain }), ...(error !== undefined && { error }) })),
    async listen() {
      const listener = opts.start?.listener
      if (listener === undefined) return server.listen()
      await server.fastify.ready()
      listener.takeOver({ server: server.fastify.server, rpc: cChain.endpoints.rpc, rpcPath: server.rpcPath })
      return listener.address()
    },
    async close() {
      if (closed) return
      closed = true
      await server.close()
      await opts.start?.listener.close()
      for (const { chain, db: chainDb } of extraChains) {
        await chain?.close()
        await chainDb?.close()
      }
      await cChain.close()
      accounts.close()
      await db.close()
    },
  }
}

/** A chain service's paths as avalanchego registers them: /ext/bc/<ID>, and /ext/<alias> and /ext/bc/<alias> for each API alias; /ext/bc/<name> for the aliases file's names. */
function apiPaths(apiAliases: readonly string[], id: string, extraAliases: readonly string[]): string[] {
  return [...apiAliases.flatMap((a) => [`/ext/bc/${a}`, `/ext/${a}`]), `/ext/bc/${id}`, ...extraAliases.map((a) => `/ext/bc/${a}`)]
}

/** The keystore's input sizes and back-off from the node flags (docs/SECURITY.md, K2, K5); the KDF stays a constant. */
function keystoreOptions(config: NodeConfig): KeystoreOptions {
  return {
    maxUsernameLength: config.keystoreMaxUsernameLength,
    maxPasswordLength: config.keystoreMaxPasswordLength,
    throttle: { ...DEFAULT_THROTTLE, freeFailures: config.keystoreMaxFailures, baseDelayMs: config.keystoreBackoff, maxDelayMs: config.keystoreMaxBackoff },
  }
}

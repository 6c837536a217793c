import type { Logger } from 'pino'
import { cb58Decode } from '../avalanche/cb58.js'
import { AtomicTxService } from '../atomic/atomicService.js'
import { OriginUTXOs } from '../atomic/originUTXOs.js'
import { type NodeConfig, checkEthApis } from '../config.js'
import { resolveEthApis } from '../ethApiNames.js'
import { devControlsOn } from '../dev/exposure.js'
import { DevControls } from '../dev/devControls.js'
import { DevInfo } from '../dev/devInfo.js'
import { Impersonation } from '../dev/impersonation.js'
import { MiningControls } from '../dev/miningControls.js'
import { PoolControls } from '../dev/poolControls.js'
import { StateDump } from '../dev/stateDump.js'
import { TimeControls } from '../dev/timeControls.js'
import { StateEditor } from '../dev/stateEditor.js'
import { RequestLogging } from '../dev/requestLogging.js'
import { withImpersonation } from '../namespaces/dev/accounts.js'
import { OriginProxy } from '../namespaces/fork/originProxy.js'
import { OriginCache } from '../store/originCache.js'
import { withFork } from '../namespaces/fork/withFork.js'
import { logLimits } from '../namespaces/fork/forkLogs.js'
import { type DevServices, devMethods } from '../namespaces/dev/index.js'
import type { AccountManager } from '../engine/accounts/accounts.js'
import { Engine } from '../engine/engine.js'
import { engineOptions } from './engineOptions.js'
import { dispatcherOptions } from './dispatcherOptions.js'
import { type Genesis, UNSCHEDULED_TIME } from '../engine/rules/genesis.js'
import type { Keystore } from '../keystore/keystore.js'
import { adminMethods } from '../namespaces/admin.js'
import { type WarpApiContext, warpMethods } from '../namespaces/warp.js'
import type { BlsSigner } from '../warp/bls.js'
import type { SignedMessage } from '../warp/message.js'
import { debugRawMethods, debugTraceMethods } from '../namespaces/debug.js'
import { ethMethods } from '../namespaces/eth/index.js'
import { ethSubscribeDisabled } from '../namespaces/eth/subscriptions.js'
import { avaxMethods, nativeHandlers, nativeMethods } from '../namespaces/native.js'
import { netMethods } from '../namespaces/net.js'
import { accountMethods, personalMethods } from '../namespaces/personal.js'
import { txpoolMethods } from '../namespaces/txpool.js'
import { clientVersion, web3Methods } from '../namespaces/web3.js'
import { Profiler, profileDir } from '../profiler.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { Dispatcher } from '../rpc/dispatch.js'
import { servedMethods } from '../rpc/ethApis.js'
import { GorillaDispatcher } from '../rpc/gorilla.js'
import type { RpcStats } from '../rpc/stats.js'
import { SubscriptionManager } from '../rpc/subscriptions.js'
import { type MethodTable, type RpcContext, mergeTables } from '../rpc/types.js'
import { AtomicTxStore } from '../store/atomicTxStore.js'
import type { Database } from '../store/db.js'
import { SharedMemory } from '../store/sharedMemory.js'
import { OriginUTXOMarks } from '../store/originUTXOMarks.js'

/**
 * The assembled JSON-RPC method table the dispatcher serves: every namespace's methods, kept
 * when their coreth service is in the chain config's `eth-apis` (src/rpc/ethApis.ts); with `origin`,
 * a fork's history is answered by its origin (src/namespaces/fork/withFork.ts).
 */
export function buildMethodTable(ctx: RpcContext, dev?: DevServices, origin?: OriginProxy, warp?: WarpApiContext, nodeMethods: MethodTable = {}): MethodTable {
  const ethApis = ctx.config.chain['eth-apis']
  const version = clientVersion(dev !== undefined && resolveEthApis(ethApis).has('dev') ? ctx.config.devClientVersion : undefined)
  const all = mergeTables(
    ethMethods(ctx),
    netMethods(ctx),
    web3Methods(version),
    txpoolMethods(ctx),
    debugRawMethods(ctx),
    debugTraceMethods(ctx),
    personalMethods(ctx),
    accountMethods(ctx),
    dev === undefined ? {} : devMethods(dev, version),
  )
  // coreth serves warp_ apart from eth-apis, by its own key (warp-api-enabled).
  const served = mergeTables(servedMethods(all, ethApis, ethSubscribeDisabled()), warp !== undefined && ctx.config.chain['warp-api-enabled'] ? warpMethods(warp) : {}, nodeMethods)
  const table = dev === undefined ? served : withImpersonation(served, dev.impersonation, ethApis)
  return origin === undefined ? table : withFork(table, origin, ctx.engine, logLimits(ctx.config.chain))
}

/** What one EVM chain shares with the rest of the node. */
export interface EvmChainDeps {
  /** The node config with `chain` set to this chain's config. */
  readonly config: NodeConfig
  readonly log: Logger
  /** The chain's LevelDB (the C-Chain's also holds shared memory and the X/P ledgers). */
  readonly db: Database
  /** CB58 blockchain ID. */
  readonly id: string
  /** Path aliases besides the ID; the first is the primary one (`C` for the C-Chain). */
  readonly aliases: readonly string[]
  /** Those aliases also served at /ext/<alias>/ (the C-Chain's `C` and `evm`, avalanchego: genesis/aliases.go). */
  readonly roots?: readonly string[]
  readonly genesis: Genesis
  readonly accounts: AccountManager
  readonly stats: RpcStats
  readonly deprecated: DeprecationWarner
  readonly keystore: Keystore | undefined
  /** The primary network's X and P chains and its AVAX asset. */
  readonly network: { readonly xChainID: Uint8Array; readonly pChainID: Uint8Array; readonly avaxAssetID: Uint8Array }
  /** Chains it may import from and export to; absent = X and P (the C-Chain); [] = none (an extra chain is a subnet of its own). */
  readonly peerChainIDs?: readonly Uint8Array[]
  /** The clock of the engine's timeouts (ms since the epoch; Date.now when absent). */
  readonly now?: () => number
  /** The node's BLS key: it signs the chain's Warp messages. */
  readonly signer: BlsSigner
  /** The chain's subnet (32 bytes): the Primary Network's (zeros) for the C-Chain, its own for an extra chain. */
  readonly subnetID: Uint8Array
  /** Whether a Warp predicate's signed message verifies (src/warp/verifier.ts). */
  readonly warpVerify: (message: SignedMessage) => boolean
  /** The node's own methods served at every EVM chain's endpoint besides the chain's (the relayer's icm_). */
  readonly nodeMethods?: MethodTable
  /** Its upgrade.json as written (a subnet-evm chain's precompile upgrades). */
  readonly upgrade?: unknown
}

/** One EVM chain: engine, atomic service, its JSON-RPC and gorilla endpoints. */
export interface EvmChain {
  readonly id: string
  /** Path aliases besides the ID, primary first. */
  readonly aliases: readonly string[]
  readonly engine: Engine
  readonly atomic: AtomicTxService
  readonly sharedMemory: SharedMemory
  readonly subscriptions: SubscriptionManager
  /** The development controls, when on for this chain (config.ts devControlsOn). */
  readonly dev: DevServices | undefined
  /** /ext/bc/<chain>/rpc and /ws; `admin` only when the chain config enables it. */
  readonly endpoints: { rpc: Dispatcher; admin?: GorillaDispatcher }
  /** /ext/bc/<chain>/native and /ext/bc/<chain>/avax for the ID and every alias, and /ext/<root>/native and /avax for each root. */
  readonly apis: { path: string; rpc: GorillaDispatcher }[]
  /** Throws when the database is unusable or the head block cannot be read back. */
  checkDatabase(): void
  /** Stops the engine and the profiler; the database is the caller's. */
  close(): Promise<void>
}

/** Opens one EVM chain on its database and assembles its services and endpoints. */
export async function openEvmChain(deps: EvmChainDeps): Promise<EvmChain> {
  const { config, log, db, id } = deps
  const chainConfig = config.chain
  checkEthApis(chainConfig['eth-apis'])
  const devOn = devControlsOn(config, Number(deps.genesis.config.chainId))
  // A development chain to its clients: the controls served (docs/DEV.md "Answers as anvil and hardhat give them").
  const devServed = devOn && resolveEthApis(chainConfig['eth-apis']).has('dev')
  const engine = await Engine.create(
    db,
    engineOptions(chainConfig, {
      genesis: deps.genesis,
      blockInterval: config.blockInterval,
      pendingNonceGuardMs: config.pendingNonceGuard,
      devChain: devServed,
      failedSendErrors: devServed && config.devClientVersion === 'hardhat',
      evm: { interpreter: config.evmInterpreter, oracle: config.evmOracle },
      warp: { networkID: config.networkId, blockchainID: cb58Decode(id), verify: deps.warpVerify },
      log: log.child({ module: 'engine' }),
      now: deps.now,
      upgrade: deps.upgrade,
    }),
  )
  let atomic: AtomicTxService
  let sharedMemory: SharedMemory
  try {
    // Atomic txs: shared memory and accepted txs on the chain's LevelDB, the atomic mempool feeding the builder.
    sharedMemory = await SharedMemory.open(db, { cChainID: cb58Decode(id) })
    const atomicLog = log.child({ module: 'atomic' })
    // A fork's origin's atomic UTXOs (docs/FORK.md); the chain may become a fork later (anvil_reset), so every chain has it.
    const originUTXOs = new OriginUTXOs({
      origin: () => engine.fork?.origin,
      sharedMemory,
      marks: new OriginUTXOMarks(db),
      chains: { xChainID: deps.network.xChainID, pChainID: deps.network.pChainID, cChainID: cb58Decode(id) },
      peerChains: deps.peerChainIDs ?? [deps.network.xChainID, deps.network.pChainID],
      exclusive: (fn) => engine.dev.exclusive(fn),
      log: atomicLog,
    })
    atomic = new AtomicTxService(
      { networkID: config.networkId, chainID: cb58Decode(id), ...(deps.peerChainIDs !== undefined && { peerChainIDs: deps.peerChainIDs }) },
      { engine, sharedMemory, txStore: new AtomicTxStore(db), log: atomicLog, originUTXOs },
    )
    engine.setAtomicSource(atomic)
  } catch (err) {
    await engine.close()
    throw err
  }
  const rpcLog = log.child({ module: 'rpc' })
  const dev = devOn ? await openDevServices(db, engine, atomic, log, rpcLog) : undefined
  const subscriptions = new SubscriptionManager({ maxPerConnection: chainConfig['ws-max-subscriptions-per-connection'] })
  const ctx: RpcContext = { config, log, engine, subscriptions, accounts: deps.accounts, atomic }
  log.info({ apis: chainConfig['eth-apis'] }, 'enabling apis')
  // A fork's origin answers for its history (docs/FORK.md); the chain may become a fork later (anvil_reset), so every chain has it.
  const origin = new OriginProxy(() => engine.fork, new OriginCache(db), rpcLog)
  const rpc = new Dispatcher(
    buildMethodTable(ctx, dev, origin, { warp: engine.warp, signer: deps.signer, subnetID: deps.subnetID }, deps.nodeMethods),
    dispatcherOptions(chainConfig, rpcLog, deps.stats),
  )
  const apiLog = log.child({ module: 'api' })
  const primary = deps.aliases[0] ?? id
  const profiler = new Profiler(profileDir(config.dataDir, chainConfig['admin-api-dir'], primary))
  const admin = chainConfig['admin-api-enabled'] ? new GorillaDispatcher(adminMethods({ log, profiler, chainConfig }), { log: apiLog, stats: deps.stats }) : undefined
  // Go's heap profile always samples; V8's samples from when it is started, so from the start when the admin API is on.
  if (admin !== undefined) profiler.startHeapSampling().catch((err: unknown) => log.warn({ err }, 'heap sampling for admin.memoryProfile could not start'))

  // The atomic API: one handler table, as `native` (/ext/bc/<chain>/native) and `avax` (/ext/bc/<chain>/avax, AvalancheJS's path).
  // The keystore-backed methods are always served; with the keystore off every user is unknown (as avalanchego).
  const chains = { xChainID: deps.network.xChainID, pChainID: deps.network.pChainID, cChainID: cb58Decode(id) }
  const keystoreBackend = {
    keystore: deps.keystore,
    verify: atomic.ctx,
    balance: (address: Uint8Array) => engine.balance(address, 'latest'),
    nonce: (address: Uint8Array) => engine.nonce(address, 'latest'),
    baseFee: () => engine.fees.nextBaseFee(),
  }
  const nativeCtx = { atomic, networkID: config.networkId, chains, keystoreBackend, saevm: engine.rules.heliconTime < UNSCHEDULED_TIME }
  const native = new GorillaDispatcher(nativeMethods(nativeHandlers(nativeCtx, 'native'), deps.deprecated), { log: apiLog, stats: deps.stats })
  const avax = new GorillaDispatcher(avaxMethods(nativeHandlers(nativeCtx, 'avax'), deps.deprecated), { log: apiLog, stats: deps.stats })
  const apis: { path: string; rpc: GorillaDispatcher }[] = []
  const bases = [...[...deps.aliases, id].map((alias) => `/ext/bc/${alias}`), ...(deps.roots ?? []).map((root) => `/ext/${root}`)]
  for (const base of bases) apis.push({ path: `${base}/native`, rpc: native }, { path: `${base}/avax`, rpc: avax })

  return {
    id,
    aliases: deps.aliases,
    engine,
    atomic,
    sharedMemory,
    subscriptions,
    dev,
    apis,
    endpoints: { rpc, ...(admin !== undefined && { admin }) },
    checkDatabase() {
      if (db.status !== 'open') throw new Error(`database is ${db.status}`)
      if (!engine.headStored()) throw new Error('head block not found in the database')
    },
    async close() {
      profiler.close()
      await engine.close()
    },
  }
}

/** The development controls of one chain: snapshots over its database, state edits of its engine. */
async function openDevServices(db: Database, engine: Engine, atomic: AtomicTxService, log: Logger, rpcLog: Logger): Promise<DevServices> {
  const controls = await DevControls.open({ db, engine, atomic, log: log.child({ module: 'dev' }) })
  log.warn('development controls enabled (evm_snapshot, anvil_setBalance...): anyone who reaches this port can rewrite the chain')
  return {
    controls,
    state: new StateEditor(engine),
    mining: new MiningControls(engine, controls),
    time: new TimeControls(engine, controls),
    impersonation: new Impersonation(engine, controls),
    pool: new PoolControls(engine),
    dump: new StateDump(engine),
    info: new DevInfo(engine, controls),
    logging: new RequestLogging(rpcLog),
  }
}

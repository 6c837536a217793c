import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { configDurationMs, parseGoDuration } from './util/goDuration.js'
import { DEFAULT_ETH_APIS, unknownEthApi, unknownEthApiMessage } from './rpc/ethApis.js'

/** A coreth Duration value: a Go duration string ("5s", "1m30s") or a number of nanoseconds (src/goDuration.ts). */
const Duration = z.union([z.string(), z.number()]).superRefine((value, ctx) => {
  try {
    configDurationMs(value)
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message, input: value })
  }
})

/**
 * The C-Chain config file (`--chain-config-file`): coreth's keys and defaults
 * (graft/coreth/plugin/evm/config/default_config.go), with this node's development defaults
 * where they differ (archival state). Unknown keys stop startup with the key named.
 */
export const ChainConfigFile = z.strictObject({
  'pruning-enabled': z.boolean().default(false),
  'rpc-gas-cap': z.number().int().nonnegative().default(50_000_000),
  /** In AVAX (coreth: float64 ether units). */
  'rpc-tx-fee-cap': z.number().nonnegative().default(100),
  /**
   * Wall time of one RPC execution: eth_call, eth_estimateGas (all probes together),
   * eth_createAccessList, eth_simulateV1 and debug_trace* (docs/SECURITY.md, E2; geth's RPCEVMTimeout,
   * which coreth does not expose as a chain-config key). A Go duration ("5s") or nanoseconds;
   * 0 = no limit. Expiry answers -32000 "execution aborted (timeout = 5s)".
   */
  'rpc-evm-timeout': Duration.default('5s'),
  /**
   * Deadline of one JSON-RPC request, a batch as a whole (docs/SECURITY.md, L11; coreth `api-max-duration`,
   * whose default 0 = none this node does not use). A Go duration or nanoseconds; 0 = none.
   * Expiry answers -32002 "request timed out" and cancels the EVM work of the request.
   */
  'api-max-duration': Duration.default('30s'),
  /** Longest JSON-RPC method name; longer -32601 "method name too long" (docs/SECURITY.md, L4; geth's maxMethodNameLength). */
  'rpc-max-method-name-length': z.number().int().positive().default(2048),
  /** Deepest nesting of a request's params; deeper -32600 (docs/SECURITY.md, L8). */
  'rpc-max-params-depth': z.number().int().positive().default(128),
  'batch-request-limit': z.number().int().nonnegative().default(1000),
  'batch-response-max-size': z.number().int().nonnegative().default(25_000_000),
  /**
   * coreth's service names (and legacy aliases) whose methods are served (src/rpc/ethApis.ts);
   * default coreth's list plus internal-tx-pool, debug-tracer and internal-debug.
   */
  'eth-apis': z.array(z.string()).default([...DEFAULT_ETH_APIS]).superRefine((names, ctx) => {
    const bad = unknownEthApi(names)
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: unknownEthApiMessage(bad), input: names })
  }),
  'admin-api-enabled': z.boolean().default(false),
  /** Prefix of the profile directory `<admin-api-dir>_coreth_performance_C`, under the data dir (coreth: plugin/evm/admin.go). */
  'admin-api-dir': z.string().default(''),
  'allow-unprotected-txs': z.boolean().default(false),
  /** eth_getLogs block range; coreth's default is 0 (no limit); 10,000 here, public providers' figure (docs/SECURITY.md, E4). */
  'api-max-blocks-per-request': z.number().int().nonnegative().default(10_000),
  /** Addresses in one eth_getLogs / eth_newFilter / logs subscription; more -32602 "exceed max addresses" (docs/SECURITY.md, E4; geth's maxAddresses). */
  'logs-max-addresses': z.number().int().positive().default(1000),
  /**
   * Alternatives in one topic position of a log filter; more -32602 "exceed max topics" (docs/SECURITY.md, E4;
   * geth's maxSubTopics). The 4 positions are not configurable: LOG4 is the EVM's largest log.
   */
  'logs-max-topic-alternatives': z.number().int().positive().default(1000),
  /** Logs one eth_getLogs / eth_getFilterLogs answers; more -32005 "query returned more than N results" (docs/SECURITY.md, E4). */
  'logs-max-results': z.number().int().positive().default(10_000),
  /** A polling filter not polled for this long is removed (docs/SECURITY.md, E5; geth's filter timeout). A Go duration or nanoseconds; 0 = never. */
  'filter-timeout': Duration.default('5m'),
  /** Installed polling filters at most, node-wide (docs/SECURITY.md, E5); past it the longest-idle one is removed. */
  'filter-max-count': z.number().int().positive().default(1000),
  /**
   * Changes (block hashes, tx hashes, logs) one polling filter holds between polls; past it the oldest
   * are dropped (geth keeps all until the filter expires: 1000 unpolled filters could hold minutes of chain).
   */
  'filter-max-buffered': z.number().int().positive().default(10_000),
  /** Blocks one eth_feeHistory covers; larger counts are clamped (docs/SECURITY.md, E6; geth's MaxHeaderHistory 1024, coreth's 2048). */
  'fee-history-max-blocks': z.number().int().positive().default(1024),
  /** Reward percentiles in one eth_feeHistory; more -32602 (docs/SECURITY.md, E6; geth's maxQueryLimit). */
  'fee-history-max-percentiles': z.number().int().positive().default(100),
  /** Largest raw transaction in bytes; larger -32000 "oversized data" (docs/SECURITY.md, E7; geth's txMaxSize, 4 slots of 32 KiB). */
  'tx-max-size': z.number().int().positive().default(128 * 1024),
  'historical-proof-query-window': z.number().int().nonnegative().default(43_200),
  'state-history': z.number().int().positive().default(32),
  'tx-pool-price-limit': z.number().int().nonnegative().default(1),
  'tx-pool-price-bump': z.number().int().nonnegative().default(10),
  'tx-pool-account-slots': z.number().int().positive().default(16),
  'tx-pool-global-slots': z.number().int().positive().default(5120),
  'tx-pool-account-queue': z.number().int().positive().default(64),
  'tx-pool-global-queue': z.number().int().positive().default(1024),
  /** ACP-176 gas target per second the builder steers toward (coreth `gas-target`). */
  'gas-target': z.number().int().positive().optional(),
  /**
   * ACP-226 minimum block delay in ms the chain steers toward (coreth `min-delay-target`). coreth's
   * genesis starts at 2000 ms; this development node starts at this target (default 0: blocks as
   * soon as transactions wait). The README documents the difference.
   */
  'min-delay-target': z.number().int().nonnegative().default(0),
  'log-level': z.string().optional(),
  // This node's own WebSocket limits (coreth has none for connections or subscriptions; docs/SECURITY.md, L12, W4, W5).
  /** Concurrent WebSocket connections; past it the upgrade is answered 503. */
  'ws-max-connections': z.number().int().positive().default(256),
  /** eth_subscribe subscriptions one connection may hold; past it -32005. */
  'ws-max-subscriptions-per-connection': z.number().int().positive().default(100),
  /** Bytes queued for one connection's socket before it is closed as a slow consumer (1008). */
  'ws-max-buffered-bytes': z.number().int().positive().default(16 * 1024 * 1024),
})
export type ChainConfigFile = z.output<typeof ChainConfigFile>

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
/** `auto`: human-readable lines when stderr is a terminal, JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const

/** An extra chain's name: it is a URL path segment and a folder name. */
export const EvmChainName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a chain name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')

/**
 * One extra EVM chain (README "More EVM chains"): served at /ext/bc/<its blockchain ID>/... and at
 * `name` and `aliases`, with its own genesis, chain config and data under `<data-dir>/chains/<ID>`.
 */
export const EvmChainInput = z.strictObject({
  /** The chain's folder name in --chain-config-dir; also an alias. */
  name: EvmChainName,
  /** coreth-format genesis JSON; its content decides the blockchain ID. */
  genesisFile: z.string().min(1),
  chain: ChainConfigFile.default(ChainConfigFile.parse({})),
  aliases: z.array(z.string().min(1)).default([]),
})
export type EvmChainInput = z.output<typeof EvmChainInput>

/** The whole node config, as the CLI and createNode() take it. */
export const NodeConfig = z.strictObject({
  httpHost: z.string().min(1).default('127.0.0.1'),
  httpPort: z.number().int().min(0).max(65535).default(9650),
  dataDir: z.string().min(1).default(join(homedir(), '.cchain-node')),
  networkId: z.number().int().positive().default(12345),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  logFormat: z.enum(LOG_FORMATS).default('auto'),
  /** Path of a coreth-format genesis JSON; absent = the local network's C-Chain genesis. */
  genesisFile: z.string().optional(),
  /** Milliseconds between blocks; 0 = build as soon as transactions wait (Avalanche's behaviour). */
  blockInterval: z.number().int().nonnegative().default(0),
  /**
   * ms a transaction's answer waits after its sender's `pending` nonce was answered, so that
   * ethers v6's 250 ms request cache never hands a wallet a stale nonce (0 = off).
   */
  pendingNonceGuard: z.number().int().nonnegative().default(250),
  /** EVM network ID answered by net_version (the C-Chain's public networks use 1). */
  evmNetworkId: z.number().int().positive().default(1),
  /** Serve the keystore API at /ext/keystore (avalanchego `api-keystore-enabled`, default off; docs/SECURITY.md, K1). */
  keystoreEnabled: z.boolean().default(false),
  /** Allow the keystore on a non-loopback `httpHost` (docs/SECURITY.md, N1: a second explicit flag). */
  keystoreAllowRemote: z.boolean().default(false),
  // Keystore input sizes and online-guessing back-off (docs/SECURITY.md, K2, K5, K7).
  /** Longest keystore username in UTF-8 bytes (avalanchego maxUserLen). */
  keystoreMaxUsernameLength: z.number().int().positive().default(1024),
  /** Longest keystore password in UTF-8 bytes (avalanchego maxPassLen); checked before any KDF. */
  keystoreMaxPasswordLength: z.number().int().positive().default(1024),
  /** Wrong passwords allowed per user and per client before the back-off starts. */
  keystoreMaxFailures: z.number().int().positive().default(5),
  /** ms of the first back-off; each further failure doubles it. */
  keystoreBackoff: z.number().int().positive().default(2000),
  /** ms of the longest back-off. */
  keystoreMaxBackoff: z.number().int().positive().default(60_000),
  // HTTP and WebSocket transport limits (docs/SECURITY.md, N2, N3, N6, L1, L9, L10, L12, W1, W5, W7).
  /** Host header names accepted besides IP literals and `localhost`; `*` = any (avalanchego `http-allowed-hosts`). */
  httpAllowedHosts: z.array(z.string().min(1)).default([]),
  /**
   * Browser origins (`scheme://host[:port]`, or `*`) allowed besides loopback ones: to open a
   * WebSocket, and to get CORS headers on /ext/bc/<chain>/rpc (avalanchego `http-allowed-origins`).
   */
  httpAllowedOrigins: z.array(z.string().min(1)).default([]),
  /** ms to receive a request's headers (slow-loris). */
  httpReadHeaderTimeout: z.number().int().positive().default(10_000),
  /** ms to receive a whole request. */
  httpReadTimeout: z.number().int().positive().default(30_000),
  /** ms an idle keep-alive connection is kept. */
  httpIdleTimeout: z.number().int().positive().default(72_000),
  /** Largest HTTP body and WebSocket message, in bytes. */
  httpMaxBodyBytes: z.number().int().positive().default(5 * 1024 * 1024),
  /** Concurrent HTTP sockets (WebSockets included); more are refused. */
  httpMaxConnections: z.number().int().positive().default(512),
  /** ms between WebSocket pings; a connection without a pong by the next one is closed. */
  wsPingInterval: z.number().int().positive().default(30_000),
  /** Notifications handed to one WebSocket and not yet written before it is closed as a slow consumer (1008). */
  wsMaxPendingMessages: z.number().int().positive().default(10_000),
  chain: ChainConfigFile.default(ChainConfigFile.parse({})),
  /**
   * avalanchego `--chain-config-dir`: `C/config.json` is the C-Chain's config, and each other folder
   * holding a `genesis.json` (and optionally `config.json`) is an extra EVM chain named after it.
   */
  chainConfigDir: z.string().optional(),
  /**
   * avalanchego `--chain-aliases-file`: `{"<blockchain ID or chain name>": ["alias", ...]}`; default
   * `<chain-config-dir>/aliases.json` when that exists.
   */
  chainAliasesFile: z.string().optional(),
  /** Extra EVM chains given directly (programmatic use); the chain config dir's chains are added to them. */
  evmChains: z.array(EvmChainInput).default([]),
})
export type NodeConfig = z.output<typeof NodeConfig>
export type NodeConfigInput = z.input<typeof NodeConfig>

/** One CLI flag: avalanchego's name where one exists. */
export interface FlagDef {
  readonly key: Exclude<keyof NodeConfig, 'chain' | 'evmChains'> | 'chainConfigFile' | 'adminApiEnabled' | 'configFile'
  /** A boolean flag alone means true; `--flag=false`, `--flag:false` and `--flag false` also parse. */
  /** `list`: comma-separated; `duration`: a Go duration (`10s`, `1m30s`) or a number of ms. */
  readonly type: 'string' | 'number' | 'boolean' | 'list' | 'duration'
  readonly help: string
}

export const FLAGS: Record<string, FlagDef> = {
  'http-host': { key: 'httpHost', type: 'string', help: 'address to listen on (a non-loopback address exposes the node)' },
  'http-port': { key: 'httpPort', type: 'number', help: 'HTTP/WS port (0 = any free port)' },
  'data-dir': { key: 'dataDir', type: 'string', help: 'directory of the LevelDB chain database' },
  'network-id': { key: 'networkId', type: 'number', help: 'Avalanche network ID (12345 = local)' },
  'log-level': { key: 'logLevel', type: 'string', help: `one of ${LOG_LEVELS.join(', ')}` },
  'log-format': { key: 'logFormat', type: 'string', help: 'json or pretty (auto: pretty when stderr is a terminal, else json)' },
  'coreth-admin-api-enabled': { key: 'adminApiEnabled', type: 'boolean', help: 'serve the admin API at /ext/bc/C/admin (chain config admin-api-enabled)' },
  'chain-config-file': { key: 'chainConfigFile', type: 'string', help: "JSON file of coreth C-Chain config keys (e.g. {\"rpc-gas-cap\": 50000000})" },
  'chain-config-dir': { key: 'chainConfigDir', type: 'string', help: 'folder of chain configs: C/config.json for the C-Chain, <name>/genesis.json (+ config.json) per extra EVM chain' },
  'chain-aliases-file': { key: 'chainAliasesFile', type: 'string', help: 'JSON {"<blockchain ID or chain name>": ["alias", ...]} (default: <chain-config-dir>/aliases.json if present)' },
  'config-file': { key: 'configFile', type: 'string', help: 'JSON node config file whose keys are these flag names (flags on the command line win)' },
  genesis: { key: 'genesisFile', type: 'string', help: 'coreth-format C-Chain genesis JSON; absent = the local network genesis' },
  'block-interval': { key: 'blockInterval', type: 'number', help: 'ms between blocks; 0 = build a block as soon as transactions wait' },
  'pending-nonce-guard': { key: 'pendingNonceGuard', type: 'number', help: "ms a tx's answer waits after its sender's pending nonce was read, for ethers v6's 250 ms cache (0 = off)" },
  'evm-network-id': { key: 'evmNetworkId', type: 'number', help: 'EVM network ID answered by net_version' },
  'api-keystore-enabled': { key: 'keystoreEnabled', type: 'boolean', help: 'serve the (deprecated) keystore API at /ext/keystore' },
  'api-keystore-allow-remote': { key: 'keystoreAllowRemote', type: 'boolean', help: 'allow the keystore API with a non-loopback --http-host' },
  'keystore-max-username-length': { key: 'keystoreMaxUsernameLength', type: 'number', help: 'longest keystore username in UTF-8 bytes' },
  'keystore-max-password-length': { key: 'keystoreMaxPasswordLength', type: 'number', help: 'longest keystore password in UTF-8 bytes (checked before the KDF)' },
  'keystore-max-failures': { key: 'keystoreMaxFailures', type: 'number', help: 'wrong keystore passwords per user and per client before the back-off starts' },
  'keystore-backoff': { key: 'keystoreBackoff', type: 'duration', help: 'first keystore back-off after too many wrong passwords, doubling per further failure' },
  'keystore-max-backoff': { key: 'keystoreMaxBackoff', type: 'duration', help: 'longest keystore back-off' },
  'http-allowed-hosts': { key: 'httpAllowedHosts', type: 'list', help: 'Host header names accepted besides IP literals and localhost, comma-separated (* = any: disables the DNS-rebinding check)' },
  'http-allowed-origins': { key: 'httpAllowedOrigins', type: 'list', help: 'browser origins (scheme://host[:port]) allowed besides loopback ones to open a WebSocket and get CORS on /rpc, comma-separated (* = any)' },
  'http-read-header-timeout': { key: 'httpReadHeaderTimeout', type: 'duration', help: 'time to receive the request headers' },
  'http-read-timeout': { key: 'httpReadTimeout', type: 'duration', help: 'time to receive a whole request' },
  'http-idle-timeout': { key: 'httpIdleTimeout', type: 'duration', help: 'time an idle keep-alive connection is kept' },
  'http-max-body-size': { key: 'httpMaxBodyBytes', type: 'number', help: 'largest HTTP body and WebSocket message in bytes (413 / close 1009 beyond)' },
  'http-max-connections': { key: 'httpMaxConnections', type: 'number', help: 'concurrent HTTP connections, WebSockets included' },
  'ws-ping-interval': { key: 'wsPingInterval', type: 'duration', help: 'WebSocket ping interval; no pong by the next ping closes the connection' },
  'ws-max-pending-messages': { key: 'wsMaxPendingMessages', type: 'number', help: 'messages queued for one WebSocket before it is closed as a slow consumer' },
}

/** Error carrying one clear line for the user; main.ts prints it and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads the chain config file; a parse or schema error names the file and the key. */
export function readChainConfigFile(path: string): ChainConfigFile {
  const raw = readJsonFile(path, 'chain config file')
  const parsed = ChainConfigFile.safeParse(raw)
  if (!parsed.success) throw new ConfigError(`chain config file ${path}: ${describeZodError(parsed.error)}`)
  return parsed.data
}

/** A JSON file's content; a read or parse error becomes one ConfigError line naming the file (`<what> <path>: ...`). */
export function readJsonFile(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new ConfigError(`${what} ${path}: ${(err as Error).message}`)
  }
}

/** Validates a config object, turning the first schema error into one line. */
export function parseNodeConfig(input: NodeConfigInput): NodeConfig {
  const parsed = NodeConfig.safeParse(input)
  if (!parsed.success) throw new ConfigError(describeZodError(parsed.error))
  return parsed.data
}

function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0]!
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
  const flag = Object.entries(FLAGS).find(([, f]) => f.key === issue.path[0])?.[0]
  const path = flag !== undefined ? `--${flag}` : issue.path.join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}

/** Parses argv (flags as `--name value` or `--name=value`) into a validated NodeConfig. */
export function configFromArgs(argv: readonly string[]): NodeConfig {
  const input: Record<string, unknown> = {}
  let chainConfigFile: string | undefined
  let adminApiEnabled: boolean | undefined
  const args = withConfigFile(argv)
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}`)
    let eq = arg.indexOf('=')
    // The API reference's `--<vm>-admin-api-enabled:true` form.
    const colon = arg.indexOf(':')
    if (eq === -1 && colon !== -1 && FLAGS[arg.slice(2, colon)]?.type === 'boolean') eq = colon
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    const flag = FLAGS[name]
    if (flag === undefined || !Object.prototype.hasOwnProperty.call(FLAGS, name)) throw new ConfigError(`unknown flag --${name} (see --help)`)
    if (flag.type === 'boolean') {
      let text = eq === -1 ? undefined : arg.slice(eq + 1)
      if (text === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) text = args[++i]
      const on = text === undefined ? true : parseBool(text)
      if (on === undefined) throw new ConfigError(`flag --${name}: ${JSON.stringify(text)} is not true or false`)
      if (flag.key === 'adminApiEnabled') adminApiEnabled = on
      else input[flag.key] = on
      continue
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
    if (value === undefined || (value === '' && flag.type === 'string')) throw new ConfigError(`flag --${name} needs a value`)
    if (flag.key === 'configFile') continue
    if (flag.key === 'chainConfigFile') { chainConfigFile = value; continue }
    if (flag.type === 'number') {
      if (!/^\d+$/.test(value)) throw new ConfigError(`flag --${name}: ${JSON.stringify(value)} is not a non-negative integer`)
      input[flag.key] = Number(value)
    } else if (flag.type === 'duration') {
      try {
        input[flag.key] = /^\d+$/.test(value) ? Number(value) : Math.round(parseGoDuration(value))
      } catch (err) {
        throw new ConfigError(`flag --${name}: ${(err as Error).message}`)
      }
    } else if (flag.type === 'list') {
      input[flag.key] = value.split(',').map((v) => v.trim()).filter((v) => v !== '')
    } else {
      input[flag.key] = PATH_KEYS.has(flag.key) ? resolve(value) : value
    }
  }
  // avalanchego reads the C-Chain's config from <chain-config-dir>/C/config.json.
  const dirConfig = typeof input.chainConfigDir === 'string' ? join(input.chainConfigDir, 'C', 'config.json') : undefined
  if (dirConfig !== undefined && existsSync(dirConfig)) {
    if (chainConfigFile !== undefined) throw new ConfigError(`both --chain-config-file and ${dirConfig} give the C-Chain's config; use one`)
    chainConfigFile = dirConfig
  }
  if (chainConfigFile !== undefined) input.chain = readChainConfigFile(chainConfigFile)
  if (adminApiEnabled !== undefined) input.chain = { ...(input.chain as object | undefined), 'admin-api-enabled': adminApiEnabled }
  return parseNodeConfig(input as NodeConfigInput)
}

const PATH_KEYS = new Set<string>(['dataDir', 'genesisFile', 'chainConfigDir', 'chainAliasesFile'])

/**
 * argv with the `--config-file` JSON's entries (flag name -> value, as avalanchego's config file)
 * put first, so that flags given on the command line override them.
 */
function withConfigFile(argv: readonly string[]): readonly string[] {
  let path: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--config-file') path = argv[i + 1]
    else if (arg.startsWith('--config-file=')) path = arg.slice('--config-file='.length)
  }
  if (path === undefined) return argv
  const raw = readJsonFile(path, 'config file')
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`config file ${path}: expected a JSON object of flag names`)
  const args: string[] = []
  for (const [name, value] of Object.entries(raw)) {
    const flag = Object.prototype.hasOwnProperty.call(FLAGS, name) ? FLAGS[name] : undefined
    if (flag === undefined || flag.key === 'configFile') throw new ConfigError(`config file ${path}: unknown key ${JSON.stringify(name)}`)
    const list = Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : undefined
    if (list === undefined && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new ConfigError(`config file ${path}: ${JSON.stringify(name)} must be a string, number, boolean or array of strings`)
    }
    args.push(`--${name}=${list ?? String(value)}`)
  }
  return [...args, ...argv]
}

/** Whether a listen address is loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/**
 * docs/SECURITY.md, N1/K1: the keystore on a non-loopback address needs `--api-keystore-allow-remote` as well.
 * Thrown by createNode, so programmatic configs get the same check as the CLI.
 */
export function checkKeystoreExposure(config: NodeConfig): void {
  if (config.keystoreEnabled && !config.keystoreAllowRemote && !isLoopbackHost(config.httpHost)) {
    throw new ConfigError(`--api-keystore-enabled with the non-loopback --http-host ${config.httpHost} also needs --api-keystore-allow-remote (the keystore takes passwords)`)
  }
}

/** Go's strconv.ParseBool. */
function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  return undefined
}

/** Defaults decided elsewhere for chain config keys that are optional in the schema. */
const CHAIN_KEY_DEFAULTS: Record<string, string> = {
  'gas-target': '20000000 (this node starts its chain at this target; see README)',
  'log-level': '(the --log-level flag)',
}

/** `--help` text: every flag with its default. */
export function helpText(): string {
  const defaults = NodeConfig.parse({}) as unknown as Record<string, unknown>
  const lines = ['Usage: cchain-node [flags]', '', 'Flags:']
  for (const [name, flag] of Object.entries(FLAGS)) {
    const value = defaults[flag.key]
    const def = flag.key === 'chainConfigFile' || flag.key === 'configFile' ? '(none)' : flag.key === 'adminApiEnabled' ? 'false'
      : value === undefined || (Array.isArray(value) && value.length === 0) ? '(none)'
        : flag.type === 'duration' ? `${Number(value) / 1000}s` : String(value)
    lines.push(`  --${name.padEnd(20)} ${flag.help} (default: ${def})`)
  }
  lines.push('', 'Chain config file keys (coreth names) and defaults:')
  const chainDefaults = ChainConfigFile.parse({}) as Record<string, unknown>
  for (const key of Object.keys(ChainConfigFile.shape)) {
    const value = chainDefaults[key]
    lines.push(`  ${key.padEnd(32)} ${value === undefined ? CHAIN_KEY_DEFAULTS[key] ?? '(none)' : JSON.stringify(value)}`)
  }
  return lines.join('\n')
}

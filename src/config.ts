import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { configDurationMs } from './util/goDuration.js'
import { DEFAULT_ETH_APIS, resolveEthApis, unknownEthApi, unknownEthApiMessage } from './ethApiNames.js'

/** A coreth Duration value: a Go duration string ("5s", "1m30s") or a number of nanoseconds (src/util/goDuration.ts). */
export const Duration = z.union([z.string(), z.number()]).superRefine((value, ctx) => {
  try {
    configDurationMs(value)
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message, input: value })
  }
})

/** A chain config's `eth-apis` checked as start-up checks it: an unknown name stops the chain with a ConfigError naming the key. */
export function checkEthApis(names: readonly string[]): void {
  try {
    resolveEthApis(names)
  } catch (err) {
    throw new ConfigError(`eth-apis: ${(err as Error).message}`)
  }
}

// The `eth-apis` key's service names: coreth registers each enabled rpc.API by its Name
// (coreth: plugin/evm/vm.go attachEthService, legacyAPINames); src/rpc/ethApis.ts maps methods onto them.

/**
 * The C-Chain config file (`--chain-config-file`): coreth's keys and defaults
 * (avalanchego: graft/coreth/plugin/evm/config/default_config.go), with this node's development defaults
 * where they differ (archival state). Unknown keys stop startup with the key named. Each key's
 * `.describe()` is its line in docs/CONFIG.md (scripts/genConfigDoc.ts).
 */
const Address20 = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte address')
const avalancheCliHome = () => join(homedir(), '.avalanche-cli')

export const ChainConfigFile = z.strictObject({
  'pruning-enabled': z.boolean().default(false).describe("Keep only the last `state-history` blocks' states (coreth's default: true); false keeps every state (archival)"),
  'rpc-gas-cap': z.number().int().nonnegative().default(50_000_000).describe('Gas limit of one eth_call / eth_estimateGas; larger uint64 values are clamped (0 = no cap)'),
  // coreth reads this key as float64 ether units.
  'rpc-tx-fee-cap': z.number().nonnegative().default(100).describe('Largest fee (gas × fee cap) of a transaction sent through the node, in AVAX (0 = no cap)'),
  // geth's RPCEVMTimeout, which coreth does not expose as a chain-config key (docs/SECURITY.md E2).
  'rpc-evm-timeout': Duration.default('5s').describe(
    'Wall time of one eth_call, eth_estimateGas (all probes), eth_createAccessList, eth_simulateV1 or debug_trace*; expiry answers -32000 "execution aborted (timeout = 5s)" (0 = none)',
  ),
  // coreth's key, whose default 0 (no deadline) this node does not use (docs/SECURITY.md L11).
  'api-max-duration': Duration.default('30s').describe('Deadline of one JSON-RPC request or batch; expiry answers -32002 "request timed out" and stops its EVM work (0 = none)'),
  // geth's maxMethodNameLength (docs/SECURITY.md L4).
  'rpc-max-method-name-length': z.number().int().positive().default(2048).describe('Longest JSON-RPC method name; longer is -32601 "method name too long"'),
  // Checked without recursion (docs/SECURITY.md L8).
  'rpc-max-params-depth': z.number().int().positive().default(128).describe("Deepest nesting of a request's params; deeper is -32600"),
  'batch-request-limit': z.number().int().nonnegative().default(1000).describe('Most calls in one JSON-RPC batch; more is one -32600 and nothing runs'),
  'batch-response-max-size': z.number().int().nonnegative().default(25_000_000).describe("Bytes of one batch's answer; the items past it get -32003"),
  'eth-apis': z
    .array(z.string())
    .default([...DEFAULT_ETH_APIS])
    .superRefine((names, ctx) => {
      const bad = unknownEthApi(names)
      if (bad !== undefined) ctx.addIssue({ code: 'custom', message: unknownEthApiMessage(bad), input: names })
    })
    .describe('coreth\'s API service names (or legacy aliases) whose methods are served (docs/API.md "API services"); an unknown name stops start-up'),
  'admin-api-enabled': z.boolean().default(false).describe('Serve the admin API at /ext/bc/<chain>/admin (also --coreth-admin-api-enabled)'),
  'warp-api-enabled': z.boolean().default(false).describe("Serve coreth's warp_ API on the chain's JSON-RPC endpoint (docs/WARP.md)"),
  // coreth: relative to the working directory; here to the data dir.
  'admin-api-dir': z.string().default('').describe("Prefix of the admin API's profile folder `<admin-api-dir>_coreth_performance_<chain>`, under the data dir"),
  'allow-unprotected-txs': z.boolean().default(false).describe('Accept transactions without EIP-155 replay protection over RPC'),
  // coreth's default lists EIP-1820's registry deployment (plugin/evm/config/default_config.go).
  'allow-unprotected-tx-hashes': z
    .array(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte 0x hash'))
    .default(['0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e'])
    .describe('Transactions (hashes) accepted over RPC without EIP-155 replay protection all the same'),
  // coreth's default is 0; 10,000 is the public providers' figure (docs/SECURITY.md E4).
  'api-max-blocks-per-request': z.number().int().nonnegative().default(10_000).describe("Widest eth_getLogs block range (0 = no limit, coreth's default)"),
  // geth's maxAddresses (docs/SECURITY.md E4).
  'logs-max-addresses': z.number().int().positive().default(1000).describe('Addresses in one eth_getLogs / eth_newFilter / logs subscription; more is -32602 "exceed max addresses"'),
  // geth's maxSubTopics. The 4 positions are not configurable: LOG4 is the EVM's largest log.
  'logs-max-topic-alternatives': z.number().int().positive().default(1000).describe('Alternatives in one topic position of a log filter; more is -32602 "exceed max topics"'),
  'logs-max-results': z.number().int().positive().default(10_000).describe('Logs one eth_getLogs / eth_getFilterLogs answers; more is -32005 "query returned more than N results"'),
  // geth's filter timeout (docs/SECURITY.md E5).
  'filter-timeout': Duration.default('5m').describe('A polling filter not polled for this long is removed (0 = never)'),
  'filter-max-count': z.number().int().positive().default(1000).describe('Installed polling filters, node-wide; past it the longest-idle one is removed'),
  // geth keeps all until the filter expires: 1000 unpolled filters could hold minutes of chain.
  'filter-max-buffered': z.number().int().positive().default(10_000).describe('Changes (block hashes, tx hashes, logs) one filter holds between polls; past it the oldest are dropped'),
  // geth's MaxHeaderHistory 1024; coreth's 2048 (docs/SECURITY.md E6).
  'fee-history-max-blocks': z.number().int().positive().default(1024).describe('Blocks one eth_feeHistory covers; larger counts are clamped'),
  // geth's maxQueryLimit.
  'fee-history-max-percentiles': z.number().int().positive().default(100).describe('Reward percentiles in one eth_feeHistory; more is -32000 "invalid reward percentile: over the query limit N"'),
  // geth's txMaxSize, 4 slots of 32 KiB (docs/SECURITY.md E7).
  'tx-max-size': z
    .number()
    .int()
    .positive()
    .default(128 * 1024)
    .describe('Largest raw transaction in bytes; larger is -32000 "oversized data"'),
  'historical-proof-query-window': z
    .number()
    .int()
    .nonnegative()
    .default(43_200)
    .describe('On an archival node, eth_getProof refuses blocks more than this far behind the last accepted one (0 = any block)'),
  'state-history': z.number().int().positive().default(32).describe('With pruning, the number of recent blocks whose state is kept'),
  // coreth's keys and defaults (MB): what the node keeps in memory of the state; past them cold state is read back from LevelDB.
  'snapshot-cache': z
    .number()
    .int()
    .positive()
    .default(256)
    .describe("MiB of the head's accounts and storage slots kept in memory (the flat state, coreth's snapshot); colder ones are read from LevelDB"),
  'trie-clean-cache': z.number().int().positive().default(512).describe('MiB of state trie nodes kept in memory; colder ones are read from LevelDB'),
  'tx-pool-price-limit': z.number().int().nonnegative().default(1).describe('Lowest tip (wei per gas) the transaction pool accepts'),
  'tx-pool-price-bump': z.number().int().nonnegative().default(10).describe('Percent a replacement transaction must raise the fees by'),
  'tx-pool-account-slots': z.number().int().positive().default(16).describe('Executable transactions guaranteed per account'),
  'tx-pool-global-slots': z.number().int().positive().default(5120).describe('Executable transactions in the pool, all accounts'),
  'tx-pool-account-queue': z.number().int().positive().default(64).describe('Non-executable (nonce-gapped) transactions per account'),
  'tx-pool-global-queue': z.number().int().positive().default(1024).describe('Non-executable transactions in the pool, all accounts'),
  'gas-target': z.number().int().positive().optional().describe('ACP-176 gas per second the chain starts at and the builder steers toward'),
  // coreth's genesis starts at 2000 ms; this development node starts at the target (docs/API.md).
  'min-delay-target': z.number().int().nonnegative().default(0).describe('ACP-226 minimum block delay in ms the chain starts at and steers toward (0: blocks as soon as transactions wait)'),
  'min-price-target': z.number().int().positive().optional().describe("Helicon: ACP-283 minimum gas price in wei (aAVAX) the builder steers toward (none: keep the parent's, 1 wei from genesis)"),
  feeRecipient: Address20.optional().describe("A subnet-evm chain's coinbase where fee recipients are allowed (allowFeeRecipients, the reward manager); else the blackhole"),
  // anvil's --hardfork; avalanchego has no such key (its upgrade schedule is the network's).
  hardfork: z.enum(['helicon', 'granite']).default('helicon').describe('C-Chain rules from genesis: helicon (avalanchego v1.15: ACP-194 execution, its header) or granite (before it)'),
  'fork-url': z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('JSON-RPC URL of the node whose chain this chain forks: its state and blocks up to `fork-block-number` are read from it (docs/FORK.md)'),
  'fork-block-number': z.number().int().nonnegative().optional().describe("With `fork-url`, the origin's block the fork starts from (default: its latest block at the fork's first start)"),
  'log-level': z.string().optional().describe("Accepted for coreth compatibility; the node's level is --log-level"),
  // This node's own WebSocket limits: coreth has none for connections or subscriptions (docs/SECURITY.md L12, W4, W5).
  'ws-max-connections': z.number().int().positive().default(256).describe('Concurrent WebSocket connections; past it the upgrade is answered 503'),
  'ws-max-subscriptions-per-connection': z.number().int().positive().default(100).describe('eth_subscribe subscriptions one connection may hold; past it -32005'),
  'ws-max-buffered-bytes': z
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024)
    .describe("Bytes queued for one connection's socket before it is closed as a slow consumer (1008)"),
})
export type ChainConfigFile = z.output<typeof ChainConfigFile>

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
/** `auto`: human-readable lines when stderr is a terminal, JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const

/** An extra chain's name: it is a URL path segment and a folder name. */
export const EvmChainName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a chain name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')

/**
 * One extra EVM chain (docs/CONFIG.md "Extra EVM chains"): served at /ext/bc/<its blockchain ID>/... and at
 * `name` and `aliases`, with its own genesis, chain config and data under `<data-dir>/chains/<ID>`.
 */
export const EvmChainInput = z.strictObject({
  name: EvmChainName.describe("The chain's name (its folder name in --chain-config-dir); also an alias"),
  genesisFile: z.string().min(1).describe('Path of a coreth or subnet-evm genesis JSON (docs/L1.md); its content decides the blockchain ID'),
  chain: ChainConfigFile.default(ChainConfigFile.parse({})).describe('Its chain config (the chain config keys)'),
  aliases: z.array(z.string().min(1)).default([]).describe('More names it is served at (/ext/bc/<alias>/...)'),
  upgradeFile: z.string().min(1).optional().describe("Path of its upgrade.json (a subnet-evm chain's precompileUpgrades)"),
})
export type EvmChainInput = z.output<typeof EvmChainInput>

/** The whole node config, as the CLI and createNode() take it. */
export const NodeConfig = z.strictObject({
  httpHost: z.string().min(1).default('127.0.0.1'),
  httpPort: z.number().int().min(0).max(65535).default(9650),
  dataDir: z.string().min(1).default(join(homedir(), '.cchain-node')),
  /**
   * fdatasync every write before it is answered: a power loss then keeps every answered block. Off, a
   * crash of the process (kill -9) still keeps every answered block (the write-ahead log is written
   * before the answer); a power loss may lose the last moments' blocks (docs/SECURITY.md, D-a).
   */
  syncWrites: z.boolean().default(false),
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
  pendingNonceGuard: z.number().int().nonnegative().default(0),
  /** EVM network ID answered by net_version (the C-Chain's public networks use 1). */
  evmNetworkId: z.number().int().positive().default(1),
  /** Serve the keystore API at /ext/keystore (avalanchego `api-keystore-enabled`, default off; docs/SECURITY.md K1). */
  keystoreEnabled: z.boolean().default(false),
  /** Allow the keystore on a non-loopback `httpHost` (docs/SECURITY.md N1: a second explicit flag). */
  keystoreAllowRemote: z.boolean().default(false),
  /** The development controls (evm_, anvil_, hardhat_ methods); absent = on for a local network served on a loopback host (docs/DEV.md). */
  devControls: z.boolean().optional(),
  /** Allow the development controls on a non-loopback `httpHost` (a second explicit flag, as the keystore's). */
  devControlsAllowRemote: z.boolean().default(false),
  /** What web3_clientVersion answers where the development controls are on: the node's own version led by `HardhatNetwork/` or `anvil/`, or alone (docs/DEV.md). */
  devClientVersion: z.enum(['hardhat', 'anvil', 'plain']).default('hardhat'),
  /**
   * Which EVM runs eth_call on every EVM chain: `own`, the node's interpreter (src/evm/), where it covers the
   * chain's rules, else ethereumjs; or ethereumjs always (docs/PERFORMANCE.md).
   */
  evmInterpreter: z.enum(['ethereumjs', 'own']).default('own'),
  /** Run what the interpreter serves on ethereumjs too, answer ethereumjs's result, and log and count every difference. */
  evmOracle: z.boolean().default(false),
  /** The node's ICM relayer (docs/ICM.md): auto, manual or off; unset: auto on the local network, off elsewhere. */
  icmRelayer: z.enum(['auto', 'manual', 'off']).optional(),
  /** The messenger the relayer watches on every chain: TeleporterMessenger v1.0.0's address. */
  icmMessengerAddress: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'a 20-byte 0x address')
    .default('0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'),
  /** A file holding the messenger's keyless deployment transaction (hex), sent on every chain of a local network at start (docs/ICM.md). */
  icmMessengerDeploymentTx: z.string().min(1).optional(),
  /** Where avalanche-cli keeps its files: Teleporter's deployment transaction is looked for under bin/icm-contracts/v1.0.0/ when no file is given. */
  avalancheCliDir: z.string().min(1).default(avalancheCliHome),
  /** A file holding TeleporterRegistry's creation code (hex); unset: TeleporterRegistry_Bytecode_v1.0.0.txt beside the deployment transaction, if there. */
  icmRegistryBytecode: z.string().min(1).optional(),
  /** The relayer account's secp256k1 key (32-byte 0x hex); unset: the node's fixed relayer key (docs/ICM.md). */
  icmRelayerKey: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte 0x key')
    .optional(),
  explorerEnabled: z.boolean().optional(), // the explorer page (docs/EXPLORER.md; unset: on a loopback host only, src/server/explorerExposure.ts)
  // Keystore input sizes and online-guessing back-off (docs/SECURITY.md K2, K5, K7).
  /** Longest keystore username in UTF-8 bytes (avalanchego maxUserLen). */
  keystoreMaxUsernameLength: z.number().int().positive().default(1024),
  /** Longest keystore password in UTF-8 bytes (avalanchego maxPassLen); checked before any KDF. */
  keystoreMaxPasswordLength: z.number().int().positive().default(1024),
  /** Wrong passwords allowed for one user from one client before that client's back-off from that user starts. */
  keystoreMaxFailures: z.number().int().positive().default(5),
  /** ms of the first back-off; each further failure doubles it. */
  keystoreBackoff: z.number().int().positive().default(2000),
  /** ms of the longest back-off. */
  keystoreMaxBackoff: z.number().int().positive().default(60_000),
  // HTTP and WebSocket transport limits (docs/SECURITY.md N2, N3, N6, L1, L9, L10, L12, W1, W5, W7).
  /** Host header names accepted besides IP literals and `localhost`; `*` = any (avalanchego `http-allowed-hosts`). */
  httpAllowedHosts: z.array(z.string().min(1)).default([]),
  /**
   * Browser origins (`scheme://host[:port]`, or `*`) allowed besides loopback ones: to open a
   * WebSocket, and to get CORS headers on the APIs browsers call: /rpc, /avax, /native, X, P, info and
   * health (avalanchego `http-allowed-origins`; its default `*` is not this node's).
   */
  httpAllowedOrigins: z.array(z.string().min(1)).default([]),
  /** ms to receive a request's headers (slow-loris). */
  httpReadHeaderTimeout: z.number().int().positive().default(10_000),
  /** ms to receive a whole request. */
  httpReadTimeout: z.number().int().positive().default(30_000),
  /** ms an idle keep-alive connection is kept. */
  httpIdleTimeout: z.number().int().positive().default(72_000),
  /** Largest HTTP body and WebSocket message, in bytes. */
  httpMaxBodyBytes: z.number().int().positive().default(5_242_880), // 5 MiB
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
  readonly key: Exclude<keyof NodeConfig, 'chain' | 'evmChains'> | 'chainConfigFile' | 'configFile' | 'chain'
  /** A flag that sets a key of the C-Chain's config (`chain`), as avalanchego's `--coreth-admin-api-enabled` does. */
  readonly chainKey?: keyof ChainConfigFile
  /** A boolean flag alone means true; `--flag=false`, `--flag:false` and `--flag false` also parse. */
  /** `list`: comma-separated; `duration`: a Go duration (`10s`, `1m30s`) or a number of ms. */
  readonly type: 'string' | 'number' | 'boolean' | 'list' | 'duration'
  readonly help: string
}

export const FLAGS: Record<string, FlagDef> = {
  'http-host': { key: 'httpHost', type: 'string', help: 'address to listen on (a non-loopback address exposes the node)' },
  'http-port': { key: 'httpPort', type: 'number', help: 'HTTP/WS port (0 = any free port)' },
  'data-dir': { key: 'dataDir', type: 'string', help: 'directory of the LevelDB chain database' },
  'sync-writes': { key: 'syncWrites', type: 'boolean', help: 'fdatasync every block before its answer: a power loss keeps every answered block (a kill -9 loses none either way)' },
  'network-id': { key: 'networkId', type: 'number', help: 'Avalanche network ID (12345 = local)' },
  'log-level': { key: 'logLevel', type: 'string', help: `one of ${LOG_LEVELS.join(', ')}` },
  'log-format': { key: 'logFormat', type: 'string', help: 'json or pretty (auto: pretty when stderr is a terminal, else json)' },
  'coreth-admin-api-enabled': { key: 'chain', chainKey: 'admin-api-enabled', type: 'boolean', help: 'serve the admin API at /ext/bc/C/admin (chain config admin-api-enabled)' },
  'chain-config-file': { key: 'chainConfigFile', type: 'string', help: 'JSON file of coreth C-Chain config keys (e.g. {"rpc-gas-cap": 50000000})' },
  'chain-config-dir': { key: 'chainConfigDir', type: 'string', help: 'folder of chain configs: C/config.json for the C-Chain, <name>/genesis.json (+ config.json) per extra EVM chain' },
  'chain-aliases-file': { key: 'chainAliasesFile', type: 'string', help: 'JSON {"<blockchain ID or chain name>": ["alias", ...]} (default: <chain-config-dir>/aliases.json if present)' },
  'config-file': { key: 'configFile', type: 'string', help: 'JSON node config file whose keys are these flag names (flags on the command line win)' },
  genesis: { key: 'genesisFile', type: 'string', help: 'coreth-format C-Chain genesis JSON; absent = the local network genesis' },
  'fork-url': { key: 'chain', chainKey: 'fork-url', type: 'string', help: "JSON-RPC URL of a node whose chain the C-Chain forks (anvil's --fork-url; docs/FORK.md)" },
  'fork-block-number': { key: 'chain', chainKey: 'fork-block-number', type: 'number', help: "block of the origin the fork starts from (default: the origin's latest at first start)" },
  hardfork: { key: 'chain', chainKey: 'hardfork', type: 'string', help: "C-Chain rules from genesis: helicon or granite (anvil's --hardfork; chain config hardfork)" },
  'block-interval': { key: 'blockInterval', type: 'number', help: 'ms between blocks; 0 = build a block as soon as transactions wait' },
  'pending-nonce-guard': { key: 'pendingNonceGuard', type: 'number', help: "ms a tx's answer waits after its sender's pending nonce was read, for ethers v6's 250 ms cache (0 = off)" },
  'evm-network-id': { key: 'evmNetworkId', type: 'number', help: 'EVM network ID answered by net_version' },
  'api-keystore-enabled': { key: 'keystoreEnabled', type: 'boolean', help: 'serve the (deprecated) keystore API at /ext/keystore' },
  'api-keystore-allow-remote': { key: 'keystoreAllowRemote', type: 'boolean', help: 'allow the keystore API with a non-loopback --http-host' },
  'dev-controls-enabled': { key: 'devControls', type: 'boolean', help: 'serve the development controls (evm_snapshot, anvil_setBalance...); unset: on for a local network on a loopback host' },
  'dev-controls-allow-remote': { key: 'devControlsAllowRemote', type: 'boolean', help: 'allow the development controls with a non-loopback --http-host' },
  'dev-client-version': { key: 'devClientVersion', type: 'string', help: 'web3_clientVersion with dev controls on: hardhat (HardhatNetwork/cchain-node/...), anvil (anvil/cchain-node/...) or plain' },
  'evm-interpreter': {
    key: 'evmInterpreter',
    type: 'string',
    help: "EVM of eth_call, eth_estimateGas and blocks' transactions: own (the node's interpreter where it covers the chain's rules, else ethereumjs; docs/EVM.md) or ethereumjs",
  },
  'evm-oracle': { key: 'evmOracle', type: 'boolean', help: "run what the own interpreter serves on ethereumjs too; answer ethereumjs's result, log and count differences" },
  'icm-relayer': { key: 'icmRelayer', type: 'string', help: "the node's ICM relayer: auto, manual (icm_deliverMessage) or off (docs/ICM.md); unset: auto on the local network" },
  'icm-messenger-address': { key: 'icmMessengerAddress', type: 'string', help: "the Teleporter messenger the relayer watches on every chain (TeleporterMessenger v1.0.0's address)" },
  'icm-messenger-deployment-tx': {
    key: 'icmMessengerDeploymentTx',
    type: 'string',
    help: "file or URL of the messenger's keyless deployment tx, sent on each local chain (default: avalanche-cli's copy, if there; docs/ICM.md)",
  },
  'avalanche-cli-dir': { key: 'avalancheCliDir', type: 'string', help: "avalanche-cli's directory, where Teleporter's deployment transaction is looked for without --icm-messenger-deployment-tx" },
  'icm-registry-bytecode': { key: 'icmRegistryBytecode', type: 'string', help: "file of TeleporterRegistry's creation code, deployed with the messenger (docs/ICM.md)" },
  'icm-relayer-key': { key: 'icmRelayerKey', type: 'string', help: "the relayer account's private key (0x, 32 bytes); unset: the node's fixed relayer key (docs/ICM.md)" },
  'explorer-enabled': { key: 'explorerEnabled', type: 'boolean', help: 'serve the explorer page at / (read-only); unset: on when --http-host is loopback, true: on any host too' },
  'keystore-max-username-length': { key: 'keystoreMaxUsernameLength', type: 'number', help: 'longest keystore username in UTF-8 bytes' },
  'keystore-max-password-length': { key: 'keystoreMaxPasswordLength', type: 'number', help: 'longest keystore password in UTF-8 bytes (checked before the KDF)' },
  'keystore-max-failures': { key: 'keystoreMaxFailures', type: 'number', help: 'wrong keystore passwords for one user from one client before that client is backed off from that user' },
  'keystore-backoff': { key: 'keystoreBackoff', type: 'duration', help: 'first keystore back-off after too many wrong passwords, doubling per further failure' },
  'keystore-max-backoff': { key: 'keystoreMaxBackoff', type: 'duration', help: 'longest keystore back-off' },
  'http-allowed-hosts': { key: 'httpAllowedHosts', type: 'list', help: 'Host header names accepted besides IP literals and localhost, comma-separated (* = any: disables the DNS-rebinding check)' },
  'http-allowed-origins': {
    key: 'httpAllowedOrigins',
    type: 'list',
    help: 'browser origins (scheme://host[:port]) allowed besides loopback ones to open a WebSocket and get CORS (rpc, avax, native, X, P, info, health), comma-separated (* = any)',
  },
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

/** Whether a listen address is loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/**
 * docs/SECURITY.md N1, K1: the keystore on a non-loopback address needs `--api-keystore-allow-remote` as well.
 * Thrown by createNode, so programmatic configs get the same check as the CLI.
 */
export function checkKeystoreExposure(config: NodeConfig): void {
  if (config.keystoreEnabled && !config.keystoreAllowRemote && !isLoopbackHost(config.httpHost)) {
    throw new ConfigError(`--api-keystore-enabled with the non-loopback --http-host ${config.httpHost} also needs --api-keystore-allow-remote (the keystore takes passwords)`)
  }
}

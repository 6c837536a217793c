/**
 * coreth's `eth-apis` services: which service a wire method belongs to, and which methods a list of
 * names serves (the names and their legacy aliases are in src/config.ts). The services come from
 * (coreth: internal/ethapi/backend.go GetAPIs, eth/backend.go APIs, eth/tracers/api.go APIs, node/api.go apis).
 */
import { resolveEthApis, type EthApiName } from '../ethApiNames.js'
import type { MethodTable, ServiceTag } from './types.js'

// geth internal/debug/api.go HandlerT (node/api.go "debug-handler").
const DEBUG_HANDLER = new Set([
  'verbosity',
  'vmodule',
  'stacks',
  'memStats',
  'gcStats',
  'cpuProfile',
  'startCPUProfile',
  'stopCPUProfile',
  'goTrace',
  'startGoTrace',
  'stopGoTrace',
  'blockProfile',
  'setBlockProfileRate',
  'writeBlockProfile',
  'mutexProfile',
  'setMutexProfileFraction',
  'writeMutexProfile',
  'writeMemProfile',
  'freeOSMemory',
  'setGCPercent',
])
// ethapi.DebugAPI ("internal-debug").
const INTERNAL_DEBUG = new Set(['getRawHeader', 'getRawBlock', 'getRawReceipts', 'getRawTransaction', 'printBlock'])

/** geth/coreth's eth_ methods by service (internal/ethapi/api.go, api.coreth.go, api_extra.go; eth/api.go; eth/filters/api.go). */
const ETH_SERVICES: Readonly<Record<string, readonly string[]>> = {
  eth: ['etherbase', 'coinbase'],
  'eth-filter': ['newPendingTransactionFilter', 'newAcceptedTransactions', 'newBlockFilter', 'newFilter', 'getFilterChanges', 'getFilterLogs', 'uninstallFilter', 'getLogs', 'subscribe'],
  'internal-eth': ['gasPrice', 'baseFee', 'maxPriorityFeePerGas', 'feeHistory', 'syncing', 'blobBaseFee', 'suggestPriceOptions'],
  'internal-blockchain': [
    'chainId',
    'blockNumber',
    'getBalance',
    'getProof',
    'getHeaderByNumber',
    'getHeaderByHash',
    'getBlockByNumber',
    'getBlockByHash',
    'getUncleByBlockNumberAndIndex',
    'getUncleByBlockHashAndIndex',
    'getUncleCountByBlockNumber',
    'getUncleCountByBlockHash',
    'getCode',
    'getStorageAt',
    'getStorageValues',
    'getBlockReceipts',
    'call',
    'estimateGas',
    'createAccessList',
    'simulateV1',
    'getChainConfig',
    'callDetailed',
    'getBadBlocks',
  ],
  'internal-transaction': [
    'getBlockTransactionCountByNumber',
    'getBlockTransactionCountByHash',
    'getTransactionByBlockNumberAndIndex',
    'getTransactionByBlockHashAndIndex',
    'getRawTransactionByBlockNumberAndIndex',
    'getRawTransactionByBlockHashAndIndex',
    'getTransactionCount',
    'getTransactionByHash',
    'getRawTransactionByHash',
    'getTransactionReceipt',
    'sendTransaction',
    'fillTransaction',
    'sendRawTransaction',
    'sign',
    'signTransaction',
    'pendingTransactions',
    'resend',
  ],
  'internal-account': ['accounts'],
}
const ETH_METHOD_SERVICE = new Map<string, EthApiName>(Object.entries(ETH_SERVICES).flatMap(([service, names]) => names.map((n) => [n, service as EthApiName] as const)))

/**
 * The service of a method whose module did not tag it, by its wire name: geth's eth_ methods by
 * their API struct, the other namespaces by prefix (debug_ by its DebugAPI, tracer or handler).
 * An eth_ method geth does not have has no service: its module must tag it.
 */
export function serviceByName(name: string): ServiceTag | undefined {
  const us = name.indexOf('_')
  const ns = name.slice(0, us)
  const rest = name.slice(us + 1)
  if (rest === 'unsubscribe') return 'always'
  switch (ns) {
    case 'net':
      return 'net'
    case 'web3':
      return 'web3'
    case 'txpool':
      return 'internal-tx-pool'
    case 'personal':
      return 'internal-personal'
    case 'admin':
      return 'admin'
    case 'eth':
      return ETH_METHOD_SERVICE.get(rest)
    case 'debug':
      if (INTERNAL_DEBUG.has(rest)) return 'internal-debug'
      if (rest.startsWith('standardTrace')) return 'debug-file-tracer'
      if (rest.startsWith('trace') || rest === 'intermediateRoots') return 'debug-tracer'
      if (DEBUG_HANDLER.has(rest)) return 'debug-handler'
      return 'debug'
    default:
      return undefined
  }
}

/** Whether a method tagged `tag` is served when `enabled` are the enabled services. */
export function serviceEnabled(tag: ServiceTag, enabled: ReadonlySet<EthApiName>): boolean {
  if (tag === 'always') return true
  if (typeof tag === 'string') return enabled.has(tag)
  return tag.every((t) => enabled.has(t))
}

/**
 * The methods of `table` that the `eth-apis` list `names` serves (an untagged eth_ method is a
 * programming error); `standIns` answer for methods that are switched off but that geth's rpc
 * layer still answers itself (eth_subscribe without eth-filter).
 */
export function servedMethods(table: MethodTable, names: readonly string[], standIns: MethodTable = {}): MethodTable {
  const enabled = resolveEthApis(names)
  const out: MethodTable = {}
  for (const name of Object.keys(table)) {
    const def = table[name]!
    const tag = def.service ?? serviceByName(name)
    if (tag === undefined) throw new Error(`method ${name} is not tagged with its coreth eth-apis service`)
    if (serviceEnabled(tag, enabled)) out[name] = def
  }
  for (const name of Object.keys(standIns)) {
    if (!Object.hasOwn(out, name) && Object.hasOwn(table, name)) out[name] = standIns[name]!
  }
  return out
}

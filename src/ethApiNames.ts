/** Every service name coreth's attachEthService accepts. */
export const ETH_API_NAMES = [
  'eth',
  'eth-filter',
  'net',
  'web3',
  'admin',
  'debug',
  'internal-eth',
  'internal-blockchain',
  'internal-transaction',
  'internal-tx-pool',
  'internal-debug',
  'internal-account',
  'internal-personal',
  'debug-tracer',
  'debug-file-tracer',
  'debug-handler',
  // Not coreth's: the development controls (evm_, anvil_, hardhat_ methods; docs/DEV.md).
  'dev',
] as const
export type EthApiName = (typeof ETH_API_NAMES)[number]

/** Pre geth v1.10.20 names, accepted as aliases (coreth vm.go legacyAPINames). */
export const LEGACY_ETH_API_NAMES: Readonly<Record<string, EthApiName>> = {
  'internal-public-eth': 'internal-eth',
  'internal-public-blockchain': 'internal-blockchain',
  'internal-public-transaction-pool': 'internal-transaction',
  'internal-public-tx-pool': 'internal-tx-pool',
  'internal-public-debug': 'internal-debug',
  'internal-private-debug': 'internal-debug',
  'internal-public-account': 'internal-account',
  'internal-private-personal': 'internal-personal',
  'public-eth': 'eth',
  'public-eth-filter': 'eth-filter',
  'private-admin': 'admin',
  'public-debug': 'debug',
  'private-debug': 'debug',
}

/** coreth's default (coreth: plugin/evm/config/default_config.go). */
export const CORETH_DEFAULT_ETH_APIS: readonly EthApiName[] = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction']

/**
 * This node's default: coreth's, plus `internal-tx-pool` (txpool_*), `debug-tracer` (debug_trace*)
 * and `internal-debug` (debug_getRaw*, which the execution-apis conformance suite calls): a
 * development node. `internal-account` and `internal-personal` stay off (docs/SECURITY.md E9).
 */
export const DEFAULT_ETH_APIS: readonly EthApiName[] = [...CORETH_DEFAULT_ETH_APIS, 'internal-tx-pool', 'debug-tracer', 'internal-debug', 'dev']

const isKnown = (name: string): name is EthApiName => (ETH_API_NAMES as readonly string[]).includes(name)

/** The first name of `names` that is neither a service nor a legacy alias, if any. */
export function unknownEthApi(names: readonly string[]): string | undefined {
  return names.find((n) => !isKnown(n) && !Object.hasOwn(LEGACY_ETH_API_NAMES, n))
}

/** coreth's error for an unknown name (vm.go attachEthService), with the valid names listed. */
export function unknownEthApiMessage(name: string): string {
  return `API service ${JSON.stringify(name)} not found; eth-apis names are ${ETH_API_NAMES.join(', ')} (or their legacy aliases ${Object.keys(LEGACY_ETH_API_NAMES).join(', ')})`
}

/** The enabled services of an `eth-apis` list, aliases resolved; an unknown name throws. */
export function resolveEthApis(names: readonly string[]): ReadonlySet<EthApiName> {
  const out = new Set<EthApiName>()
  for (const name of names) {
    if (Object.hasOwn(LEGACY_ETH_API_NAMES, name)) out.add(LEGACY_ETH_API_NAMES[name]!)
    else if (isKnown(name)) out.add(name)
    else throw new Error(unknownEthApiMessage(name))
  }
  return out
}

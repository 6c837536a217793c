/** Network constants (avalanchego: utils/constants/network_ids.go, genesis/genesis_local.json, genesis/genesis_test.go; coreth: params/config.go). */
import { cb58Decode, cb58Encode } from './cb58.js'
import { FormatError } from './errors.js'

export const MAINNET_ID = 1
export const FUJI_ID = 5
export const LOCAL_ID = 12345

/** HRP of each known network ID; anything else uses `custom` (constants.FallbackHRP). */
export const NETWORK_HRPS: Readonly<Record<number, string>> = {
  1: 'avax',
  2: 'cascade',
  3: 'denali',
  4: 'everest',
  5: 'fuji',
  10: 'testing',
  12345: 'local',
}
export const FALLBACK_HRP = 'custom'

/** constants.GetHRP. */
export function hrpForNetwork(networkID: number): string {
  return NETWORK_HRPS[networkID] ?? FALLBACK_HRP
}

/** The P-Chain ID and primary network ID: 32 zero bytes. */
export const PLATFORM_CHAIN_ID = new Uint8Array(32)

/** One network's primary-network chain IDs, AVAX asset ID and EVM chain ID. */
export interface NetworkConstants {
  name: 'local' | 'fuji' | 'mainnet'
  networkID: number
  hrp: string
  xChainID: Uint8Array
  pChainID: Uint8Array
  cChainID: Uint8Array
  avaxAssetID: Uint8Array
  evmChainID: number
}

function network(name: NetworkConstants['name'], networkID: number, x: string, c: string, asset: string, evmChainID: number): NetworkConstants {
  return { name, networkID, hrp: hrpForNetwork(networkID), xChainID: cb58Decode(x), pChainID: PLATFORM_CHAIN_ID, cChainID: cb58Decode(c), avaxAssetID: cb58Decode(asset), evmChainID }
}

/** local (12345), fuji (5), mainnet (1). The local C-Chain ID is the one since avalanchego v1.11.12. */
export const NETWORKS: Readonly<Record<NetworkConstants['name'], NetworkConstants>> = {
  local: network(
    'local',
    LOCAL_ID,
    '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    43112,
  ),
  fuji: network('fuji', FUJI_ID, '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp', 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK', 43113),
  mainnet: network(
    'mainnet',
    MAINNET_ID,
    '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    43114,
  ),
}

/** The constants of a known network ID, or undefined. */
export function networkByID(networkID: number): NetworkConstants | undefined {
  return Object.values(NETWORKS).find((n) => n.networkID === networkID)
}

/**
 * The API aliases avalanchego gives each primary-network chain (genesis/aliases.go): its endpoints are
 * served at /ext/bc/<ID>, and at /ext/<alias> and /ext/bc/<alias> for each of these.
 */
export const X_API_ALIASES = ['X', 'avm'] as const
export const P_API_ALIASES = ['P', 'platform'] as const
export const C_API_ALIASES = ['C', 'evm'] as const

/** The primary-network chains a C-Chain node knows, keyed by their aliases (genesis/aliases.go). */
export interface ChainAliases {
  xChainID: Uint8Array
  pChainID: Uint8Array
  cChainID: Uint8Array
}

/**
 * Resolves a chain alias as the node's aliaser does: `X`/`avm`, `P`/`platform`, `C`/`evm`, or a chain's CB58 ID
 * (itself an alias); otherwise `there is no ID with alias: <s>`.
 */
export function lookupChainAlias(chains: ChainAliases, alias: string): Uint8Array {
  switch (alias) {
    case 'X':
    case 'avm':
      return chains.xChainID
    case 'P':
    case 'platform':
      return chains.pChainID
    case 'C':
    case 'evm':
      return chains.cChainID
  }
  for (const id of [chains.xChainID, chains.pChainID, chains.cChainID]) if (cb58Encode(id) === alias) return id
  throw new FormatError(`there is no ID with alias: ${alias}`)
}

/** The primary alias of a known chain ID (`X`, `P`, `C`), else its CB58 form. */
export function primaryAlias(chains: ChainAliases, chainID: Uint8Array): string {
  if (Buffer.from(chainID).equals(chains.xChainID)) return 'X'
  if (Buffer.from(chainID).equals(chains.pChainID)) return 'P'
  if (Buffer.from(chainID).equals(chains.cChainID)) return 'C'
  return cb58Encode(chainID)
}

import { PLATFORM_CHAIN_ID, networkByID } from '../avalanche/networks.js'
import { z } from 'zod'
import { cb58Encode } from '../avalanche/cb58.js'
import { APIError } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { type MethodTable, method } from '../rpc/types.js'
import { UNSCHEDULED_TIME } from '../engine/rules/genesis.js'

/** avalanchego's ids.ID of a short ASCII name, zero-padded to 32 bytes (utils/constants/vm_ids.go, vms/*fx/factory.go). */
function nameID(name: string): string {
  const bytes = new Uint8Array(32)
  bytes.set(Buffer.from(name, 'ascii'))
  return cb58Encode(bytes)
}

/** The all-zero ID: the P-Chain's and the primary network's (utils/constants). */
export const P_CHAIN_ID = cb58Encode(PLATFORM_CHAIN_ID)

/** The X-Chain ID of a known network (avalanchego: genesis/genesis_local.json and the fuji, mainnet genesis), as CB58. */
function xChainID(networkID: number): string | undefined {
  const n = networkByID(networkID)
  return n === undefined ? undefined : cb58Encode(n.xChainID)
}

/** avalanchego utils/constants/network_ids.go NetworkIDToNetworkName, else `network-<id>`. */
export function networkName(networkID: number): string {
  const names: Record<number, string> = { 1: 'mainnet', 2: 'cascade', 3: 'denali', 4: 'everest', 5: 'fuji', 10: 'testing', 12345: 'local' }
  return names[networkID] ?? `network-${networkID}`
}

/** The release whose API this node answers as (avalanchego version/constants.go). */
export const AVALANCHEGO_VERSION = { major: 1, minor: 14, patch: 2 }
const APP_VERSION = `avalanchego/${AVALANCHEGO_VERSION.major}.${AVALANCHEGO_VERSION.minor}.${AVALANCHEGO_VERSION.patch}`
const SEMANTIC_VERSION = `v${AVALANCHEGO_VERSION.major}.${AVALANCHEGO_VERSION.minor}.${AVALANCHEGO_VERSION.patch}`
/** version.CurrentDatabase and version.RPCChainVMProtocol of that release. */
const DATABASE_VERSION = 'v1.4.5'
const RPC_CHAIN_VM_PROTOCOL = 45

type Upgrades = Record<string, string | number>

const INITIALLY_ACTIVE = '2020-12-05T05:00:00Z'
const MINUTE_NS = 60_000_000_000

/**
 * avalanchego upgrade/upgrade.go `Config` as JSON (times RFC 3339, durations in ns), by network;
 * Helicon's time the C-Chain's (a chain kept at Granite has it unscheduled).
 */
export function upgradeConfig(networkID: number, heliconTime = UNSCHEDULED_TIME): Upgrades {
  const helicon = { heliconTime: new Date(heliconTime * 1000).toISOString().replace('.000Z', 'Z') }
  const mainnet: Upgrades = {
    apricotPhase1Time: '2021-03-31T14:00:00Z',
    apricotPhase2Time: '2021-05-10T11:00:00Z',
    apricotPhase3Time: '2021-08-24T14:00:00Z',
    apricotPhase4Time: '2021-09-22T21:00:00Z',
    apricotPhase4MinPChainHeight: 793005,
    apricotPhase5Time: '2021-12-02T18:00:00Z',
    apricotPhasePre6Time: '2022-09-05T01:30:00Z',
    apricotPhase6Time: '2022-09-06T20:00:00Z',
    apricotPhasePost6Time: '2022-09-07T03:00:00Z',
    banffTime: '2022-10-18T16:00:00Z',
    cortinaTime: '2023-04-25T15:00:00Z',
    cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
    durangoTime: '2024-03-06T16:00:00Z',
    etnaTime: '2024-12-16T17:00:00Z',
    fortunaTime: '2025-04-08T15:00:00Z',
    graniteTime: '2025-11-19T16:00:00Z',
    graniteEpochDuration: 5 * MINUTE_NS,
    ...helicon,
  }
  const fuji: Upgrades = {
    apricotPhase1Time: '2021-03-26T14:00:00Z',
    apricotPhase2Time: '2021-05-05T14:00:00Z',
    apricotPhase3Time: '2021-08-16T19:00:00Z',
    apricotPhase4Time: '2021-09-16T21:00:00Z',
    apricotPhase4MinPChainHeight: 47437,
    apricotPhase5Time: '2021-11-24T15:00:00Z',
    apricotPhasePre6Time: '2022-09-06T20:00:00Z',
    apricotPhase6Time: '2022-09-06T20:00:00Z',
    apricotPhasePost6Time: '2022-09-07T06:00:00Z',
    banffTime: '2022-10-03T14:00:00Z',
    cortinaTime: '2023-04-06T15:00:00Z',
    cortinaXChainStopVertexID: '2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ',
    durangoTime: '2024-02-13T16:00:00Z',
    etnaTime: '2024-11-25T16:00:00Z',
    fortunaTime: '2025-03-13T15:00:00Z',
    graniteTime: '2025-10-29T15:00:00Z',
    graniteEpochDuration: 5 * MINUTE_NS,
    ...helicon,
  }
  if (networkID === 1) return mainnet
  if (networkID === 5) return fuji
  // upgrade.Default: everything active at InitiallyActiveTime (avalanchego: upgrade/upgrade.go; Helicon too since v1.15.1).
  const local: Upgrades = {}
  for (const [k, v] of Object.entries(mainnet)) local[k] = typeof v === 'string' ? INITIALLY_ACTIVE : v
  return {
    ...local,
    apricotPhase4MinPChainHeight: 0,
    cortinaXChainStopVertexID: P_CHAIN_ID,
    graniteEpochDuration: 30_000_000_000,
    ...helicon,
  }
}

export interface InfoContext {
  readonly networkId: number
  /** When the C-Chain turns Helicon on (seconds, rules/genesis.ts heliconTimeOf); unscheduled when absent. */
  readonly heliconTime?: number
  /** The C-Chain's blockchain ID (CB58). */
  readonly cChainId: string
  readonly identity: { readonly nodeID: string; readonly nodePOP: { readonly publicKey: string; readonly proofOfPossession: string } }
  /** Further [alias, blockchain ID] pairs: the extra EVM chains' IDs and names, and the aliases file's entries. */
  readonly chainAliases?: ReadonlyArray<readonly [string, string]>
}

const NoArgs = z.object({})

/**
 * Chain aliases as avalanchego registers them (genesis/aliases.go: P/platform, X/avm, C/evm; each
 * ID is also its own alias), plus the extra EVM chains and the aliases file's names.
 */
export function chainAliases(ctx: Pick<InfoContext, 'networkId' | 'cChainId' | 'chainAliases'>): Map<string, string> {
  const aliases = new Map<string, string>([
    ['P', P_CHAIN_ID],
    ['platform', P_CHAIN_ID],
    [P_CHAIN_ID, P_CHAIN_ID],
    ['C', ctx.cChainId],
    ['evm', ctx.cChainId],
    [ctx.cChainId, ctx.cChainId],
  ])
  const x = xChainID(ctx.networkId)
  if (x !== undefined) for (const a of ['X', 'avm', x]) aliases.set(a, x)
  for (const [alias, id] of ctx.chainAliases ?? []) aliases.set(alias, id)
  return aliases
}

/** The `info` service of /ext/info (avalanchego api/info/service.go); results as its reply structs marshal. */
export function infoMethods(ctx: InfoContext): MethodTable {
  const aliases = chainAliases(ctx)
  const vms = Object.fromEntries(
    [
      ['avm', 'avm'],
      ['evm', 'evm'],
      ['platformvm', 'platform'],
    ]
      .map(([id, alias]) => [nameID(id!), [alias]] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  )
  const fxs = Object.fromEntries(['secp256k1fx', 'nftfx', 'propertyfx'].map((name) => [nameID(name), name] as const).sort(([a], [b]) => (a < b ? -1 : 1)))
  return {
    /** Handler for `info.getNetworkID`: json.Uint32, a decimal string. */
    'info.getNetworkID': method(NoArgs, () => ({ networkID: String(ctx.networkId) })),
    /** Handler for `info.getNetworkName`. */
    'info.getNetworkName': method(NoArgs, () => ({ networkName: networkName(ctx.networkId) })),
    /** Handler for `info.getBlockchainID {alias}`: chainManager.Lookup. */
    'info.getBlockchainID': method(z.object({ alias: GoString }), ({ alias }) => {
      const id = aliases.get(alias)
      if (id === undefined) throw new APIError(`there is no ID with alias: ${alias}`)
      return { blockchainID: id }
    }),
    /** Handler for `info.getNodeID`: NodeID and BLS proof of possession. */
    'info.getNodeID': method(NoArgs, () => ({ nodeID: ctx.identity.nodeID, nodePOP: ctx.identity.nodePOP })),
    /** Handler for `info.getNodeVersion`. */
    'info.getNodeVersion': method(NoArgs, () => ({
      version: APP_VERSION,
      databaseVersion: DATABASE_VERSION,
      rpcProtocolVersion: String(RPC_CHAIN_VM_PROTOCOL),
      gitCommit: '',
      // Each VM's Version(): avm and platformvm report version.Current.String(), coreth Semantic().
      vmVersions: { avm: APP_VERSION, evm: SEMANTIC_VERSION, platform: APP_VERSION },
    })),
    /** Handler for `info.isBootstrapped {chain}`: every chain this node knows is bootstrapped. */
    'info.isBootstrapped': method(z.object({ chain: GoString }), ({ chain }) => {
      if (chain === '') throw new APIError("argument 'chain' not given")
      if (!aliases.has(chain)) throw new APIError(`there is no chain with alias/ID '${chain}'`)
      return { isBootstrapped: true }
    }),
    /** Handler for `info.peers {nodeIDs}`: a single local node has none. */
    'info.peers': method(z.object({ nodeIDs: z.array(z.string()).nullish() }), () => ({ numPeers: '0', peers: [] })),
    /** Handler for `info.getVMs`: VM IDs with their aliases, and the fxs. */
    'info.getVMs': method(NoArgs, () => ({ vms, fxs })),
    /** Handler for `info.upgrades`: upgrade.Config of the network. */
    'info.upgrades': method(NoArgs, () => upgradeConfig(ctx.networkId, ctx.heliconTime)),
  }
}

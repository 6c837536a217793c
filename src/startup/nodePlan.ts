import type { Logger } from 'pino'
import { cb58Encode } from '../avalanche/cb58.js'
import { NETWORKS, type NetworkConstants, networkByID } from '../avalanche/networks.js'
import { evmBlockchainID } from '../chains/blockchainID.js'
import { type EvmChainSpec, resolveExtraChains } from '../chains/extraChains.js'
import { type NodeConfig, checkEthApis, checkKeystoreExposure } from '../config.js'
import { checkDevControlsExposure } from '../dev/exposure.js'
import { type Genesis, readGenesisFile } from '../engine/rules/genesis.js'
import type { Database } from '../store/db.js'

/**
 * What a node is before anything heavy loads: its config checked, its chains' genesis files and IDs
 * read (ChainsPlan), and its C-Chain database open (and locked). Cheap by design: the CLI makes the
 * first part, listens, opens the database and only then loads the engine (docs/PERFORMANCE.md, "Start-up").
 */
export interface NodePlan extends ChainsPlan {
  /** The C-Chain's database, open; the node that takes the plan closes it. */
  readonly db: Database
}

/** A node's plan before its database opens: what the CLI's early listener needs. */
export interface ChainsPlan {
  readonly genesis: Genesis
  /** The C-Chain genesis as written (a blockchain ID off the known networks is derived from it). */
  readonly genesisJson: unknown
  /** The known network of `--network-id`, if it is one. */
  readonly known: NetworkConstants | undefined
  /** The network whose X and P chains and AVAX asset the node uses (the local one off the known networks). */
  readonly net: NetworkConstants
  /** The C-Chain's CB58 blockchain ID. */
  readonly blockchainId: string
  readonly xChainId: string
  /** The extra EVM chains (--chain-config-dir) and every chain's extra aliases. */
  readonly extra: { chains: EvmChainSpec[]; aliases: Map<string, string[]> }
}

/** Checks the config and the chains' files, then opens the C-Chain database (a locked data dir throws here). */
export async function planNode(config: NodeConfig, log: Logger): Promise<NodePlan> {
  const chains = planChains(config, log)
  return { ...chains, db: await openNodeDatabase(config, log) }
}

/**
 * Opens and locks the C-Chain database (a locked data dir throws DataDirLockedError), replaying what
 * its write-ahead log holds. The store and LevelDB load here, not with this file: the CLI listens
 * before it opens the database.
 */
export async function openNodeDatabase(config: Pick<NodeConfig, 'dataDir' | 'syncWrites'>, log: Logger): Promise<Database> {
  const { openChainDatabase } = await import('./openChainDatabase.js')
  return openChainDatabase(config.dataDir, config, log)
}

/** Checks the config and the chains' files: what planNode does before the database. */
export function planChains(config: NodeConfig, log: Logger): ChainsPlan {
  checkKeystoreExposure(config)
  checkDevControlsExposure(config)
  const { genesis, json: genesisJson } = readGenesisFile(config.genesisFile)
  const chainId = genesis.config.chainId
  const known = networkByID(config.networkId)
  const net = known ?? NETWORKS.local
  // A known network's C-Chain has its well-known ID; elsewhere it is derived from the genesis as an extra chain's is.
  const blockchainId = cb58Encode(known !== undefined ? known.cChainID : evmBlockchainID(config.networkId, genesisJson))
  const xChainId = cb58Encode(net.xChainID)
  // Extra chains are read and checked (names, aliases, EVM chain IDs) before any database opens.
  const extra = resolveExtraChains(config, [
    { name: 'C', id: blockchainId, evmChainId: chainId },
    { name: 'X', id: xChainId },
    { name: 'P', id: cb58Encode(net.pChainID) },
  ])
  for (const { name, genesis: g } of [{ name: 'C', genesis }, ...extra.chains]) {
    const id = g.config.chainId
    if (id === 43114 || id === 43113) {
      log.warn({ chain: name, chainId: id }, `EVM chain ID ${id} is a public Avalanche network's: transactions signed for this node are valid there too (replayable)`)
    }
  }
  checkEthApis(config.chain['eth-apis'])
  return { genesis, genesisJson, known, net, blockchainId, xChainId, extra }
}

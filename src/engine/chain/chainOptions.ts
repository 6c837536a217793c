import type { Logger } from 'pino'
import type { OriginClient } from '../../fork/originClient.js'
import type { ForkRecord } from '../../store/forkRecord.js'
import type { WarpChain } from '../../warp/precompile.js'
import type { Genesis } from '../rules/genesis.js'
import type { SubnetEvmRules } from '../rules/subnetEvmRules.js'

/** What Chain.open builds a chain from. */
export interface ChainOptions {
  genesis: Genesis
  log: Logger
  /** Bytes kept in memory at most of the flat state's accounts and slots and of trie nodes; coreth's defaults when absent. */
  stateCache?: { flat: number; trie: number }
  /** Recent blocks whose state is kept; undefined = archival (EngineOptions.stateHistory). */
  stateHistory: bigint | undefined
  /** ACP-176 gas target the genesis fee state starts at; undefined = the default. */
  gasTarget: number | undefined
  /** ACP-226 minimum block delay in ms the genesis delay excess starts at. */
  minDelayTarget: number
  /** A fork's record (src/engine/chain/forkBase.ts): its block N is the chain's first block, and no genesis is built. */
  fork?: ForkRecord
  /** A fork's origin: the state block N's root commits to is fetched from it as reads need it (state/forkState.ts). */
  origin?: OriginClient
  /** The chain's identity to Warp (its network and blockchain ID); no Warp precompile without it. */
  warp?: WarpChain
  /** Helicon's rules for the blocks built, else Granite's (chain config `hardfork`); a genesis before `heliconTime` (seconds, 0 when absent) keeps Granite's header. */
  helicon: boolean
  heliconTime?: number
  /** A subnet-evm chain's rules (docs/L1.md); coreth's without. */
  subnetEvm?: SubnetEvmRules
}

import type { Logger } from 'pino'
import type { ForkOrigin } from './chain/forkBase.js'
import type { FilterLimits } from './logs/filters.js'
import type { LogLimits } from './logs/logQuery.js'
import type { Genesis } from './rules/genesis.js'
import type { OwnEvmOptions } from './exec/ownEvm.js'
import type { TxPoolOptions } from './pool/txPool.js'
import type { WarpChain } from '../warp/precompile.js'
import type { ChainOptions } from './chain/chainOptions.js'
import type { SubnetEvmRules } from './rules/subnetEvmRules.js'

/**
 * Everything the engine is configured with, typed and in its own units. Built where chains are
 * composed (src/chains/engineOptions.ts maps the chain config's coreth keys onto it): nothing under
 * src/engine/ reads a config file.
 */
export interface EngineOptions {
  genesis: Genesis
  /** Fork the chain of `origin` at its block `blockNumber` (its latest when undefined) instead of starting from `genesis` (docs/FORK.md). */
  fork?: ForkOrigin
  log: Logger
  /** Which EVM serves calls: the node's interpreter (with ethereumjs as its oracle) or ethereumjs (exec/ownEvm.ts). */
  evm: OwnEvmOptions
  /** The chain's network and blockchain ID, for the Warp precompile (none without them: docs/WARP.md). */
  warp?: WarpChain
  /** ms between blocks; 0 = build as soon as transactions wait. */
  blockInterval: number
  /**
   * ms after answering a sender's `pending` nonce during which a transaction from that sender
   * is mined at once but answered only when the window ends (0 = off, the default: pendingNonceGuard.ts).
   */
  pendingNonceGuardMs: number
  /**
   * A development chain (its development controls on), answering as anvil and hardhat do where
   * clients rely on it: eth_call, eth_estimateGas and eth_createAccessList at 'pending', and
   * eth_estimateGas without a block, run in the next block's context; eth_estimateGas does not
   * require the sender to hold the value and the gas; and the running clock gives each block a
   * timestamp at least a second after its parent's. Otherwise coreth's rules: 'pending' is the
   * head, estimates check the balance, and blocks within one second share its timestamp.
   */
  devChain: boolean
  /**
   * Answer as hardhat node does (a development chain with hardhat's identity): a sent transaction
   * that fails in its automined block is answered with hardhat's error (the transaction stays
   * mined; the error's data holds its hash and return data) instead of its hash.
   */
  failedSendErrors: boolean
  /** The clock of the filter timeout (ms since the epoch; Date.now when absent); tests pass one they move on. */
  now?: () => number
  /** Gas of one eth_call / eth_estimateGas / trace at most; 0 = no cap (coreth `rpc-gas-cap`). */
  rpcGasCap: bigint
  /** Wall time of one RPC execution in ms; 0 = none (`rpc-evm-timeout`). */
  evmTimeoutMs: number
  /** What eth_sendRawTransaction admits. */
  admission: {
    /** Accept transactions without EIP-155 replay protection (`allow-unprotected-txs`). */
    allowUnprotected: boolean
    /** `allow-unprotected-tx-hashes`, lower-case 0x hashes. */
    allowUnprotectedHashes: ReadonlySet<string>
    /** Largest fee of a transaction in AVAX; 0 = no cap (`rpc-tx-fee-cap`). */
    txFeeCap: number
    /** Lowest tip in wei per gas (`tx-pool-price-limit`); also the fee oracle's floor. */
    minTip: bigint
    /** Largest raw transaction in bytes (`tx-max-size`). */
    maxSize: number
  }
  pool: TxPoolOptions
  filters: FilterLimits
  logs: LogLimits
  feeHistory: {
    /** Blocks one eth_feeHistory covers; larger counts are clamped. */
    maxBlocks: bigint
    /** Reward percentiles in one eth_feeHistory at most. */
    maxPercentiles: number
  }
  /** ACP-176 gas target per second the chain starts at and the builder steers toward; undefined = the default. */
  gasTarget: number | undefined
  /** ACP-226 minimum block delay in ms the chain starts at and steers toward. */
  minDelayTarget: number
  /** ACP-283 minimum gas price in wei the builder steers toward under Helicon; undefined = keep the parent's. */
  minPriceTarget?: number
  /**
   * When Helicon's rules start (seconds, rules/genesis.ts heliconTimeOf): from genesis on a local
   * network (the default), the network's date on Fuji's and Mainnet's IDs, UNSCHEDULED_TIME to run
   * the chain at Granite (chain config `hardfork`).
   */
  heliconTime: number
  /** A subnet-evm chain's rules (rules/subnetEvmRules.ts); coreth's without. Such a chain is never Helicon's (heliconTime unscheduled). */
  subnetEvm?: SubnetEvmRules
  /** Bytes of state kept in memory at most (`snapshot-cache`, `trie-clean-cache`): the flat state's accounts and slots, the trie's nodes. */
  stateCache: NonNullable<ChainOptions['stateCache']>
  /** Recent blocks whose state is kept (state garbage collection); undefined = archival, every state kept. */
  stateHistory: bigint | undefined
  /** On an archival node, eth_getProof refuses blocks further than this behind the head; 0 = any. */
  proofWindow: bigint
}

import type { Logger } from 'pino'
import { type ChainConfigFile, ConfigError } from '../config.js'
import { OriginClient } from '../fork/originClient.js'
import type { EngineOptions } from '../engine/engineOptions.js'
import { type Genesis, heliconTimeOf } from '../engine/rules/genesis.js'
import { configDurationMs } from '../util/goDuration.js'
import { hexToBytes } from '@ethereumjs/util'
import { SubnetEvmRules } from '../engine/rules/subnetEvmRules.js'
import { isSubnetEvmGenesis } from '../subnetevm/isSubnetEvmGenesis.js'

const MIB = 1024 * 1024

/** What the engine takes besides the chain config: the node-wide settings. */
export interface EngineSetup {
  genesis: Genesis
  log: Logger
  blockInterval: number
  pendingNonceGuardMs: number
  /** The chain's development controls are on (EngineOptions.devChain). */
  devChain: boolean
  /** Answer a send that fails in its automined block with hardhat node's error (EngineOptions.failedSendErrors). */
  failedSendErrors: boolean
  /** Which EVM serves calls (EngineOptions.evm). */
  evm: EngineOptions['evm']
  /** The chain's identity to Warp (EngineOptions.warp). */
  warp?: EngineOptions['warp']
  /** The clock of the engine's timeouts (Date.now when absent). */
  now?: () => number
  /** The chain's upgrade.json as written (a subnet-evm chain's precompileUpgrades). */
  upgrade?: unknown
}

/** The engine's typed options from a chain config's coreth keys (docs/CONFIG.md names each key). */
export function engineOptions(chain: ChainConfigFile, setup: EngineSetup): EngineOptions {
  const { upgrade, ...rest } = setup
  const networkId = setup.warp?.networkID ?? 0
  const subnetEvm = subnetEvmRules(setup.genesis, upgrade, networkId, chain.feeRecipient)
  return {
    ...rest,
    ...(subnetEvm !== undefined && { subnetEvm }),
    rpcGasCap: BigInt(chain['rpc-gas-cap']),
    evmTimeoutMs: Math.max(0, configDurationMs(chain['rpc-evm-timeout'])),
    admission: {
      allowUnprotected: chain['allow-unprotected-txs'],
      allowUnprotectedHashes: new Set(chain['allow-unprotected-tx-hashes'].map((h) => h.toLowerCase())),
      txFeeCap: chain['rpc-tx-fee-cap'],
      minTip: BigInt(chain['tx-pool-price-limit']),
      maxSize: chain['tx-max-size'],
    },
    pool: {
      priceBump: BigInt(chain['tx-pool-price-bump']),
      accountSlots: chain['tx-pool-account-slots'],
      globalSlots: chain['tx-pool-global-slots'],
      accountQueue: chain['tx-pool-account-queue'],
      globalQueue: chain['tx-pool-global-queue'],
    },
    filters: {
      timeoutMs: Math.max(0, configDurationMs(chain['filter-timeout'])),
      maxCount: chain['filter-max-count'],
      maxBuffered: chain['filter-max-buffered'],
    },
    logs: { maxBlockRange: BigInt(chain['api-max-blocks-per-request']), maxResults: chain['logs-max-results'] },
    feeHistory: { maxBlocks: BigInt(chain['fee-history-max-blocks']), maxPercentiles: chain['fee-history-max-percentiles'] },
    gasTarget: chain['gas-target'],
    minDelayTarget: chain['min-delay-target'],
    minPriceTarget: chain['min-price-target'],
    // subnet-evm executes synchronously under every upgrade it has (Helicon is a flag there).
    heliconTime: heliconTimeOf(networkId, subnetEvm === undefined && chain.hardfork === 'helicon'),
    stateHistory: chain['pruning-enabled'] ? BigInt(chain['state-history']) : undefined,
    stateCache: { flat: chain['snapshot-cache'] * MIB, trie: chain['trie-clean-cache'] * MIB },
    proofWindow: BigInt(chain['historical-proof-query-window']),
    fork: forkOptions(chain, setup.log),
  }
}

/** A subnet-evm genesis' rules (docs/L1.md), with subnet-evm's error for a config it refuses; undefined for coreth's. */
function subnetEvmRules(genesis: Genesis, upgrade: unknown, networkId: number, feeRecipient: string | undefined): SubnetEvmRules | undefined {
  if (!isSubnetEvmGenesis(genesis.config)) {
    if (upgrade !== undefined) throw new ConfigError('upgrade.json: only a subnet-evm chain (a genesis with feeConfig) takes precompile upgrades')
    if (feeRecipient !== undefined) throw new ConfigError('feeRecipient: only a subnet-evm chain (a genesis with feeConfig) takes a fee recipient')
    return undefined
  }
  try {
    return SubnetEvmRules.parse(genesis.config, upgrade, { networkId, genesisGasLimit: genesis.gasLimit, ...(feeRecipient !== undefined && { etherbase: hexToBytes(feeRecipient as `0x${string}`) }) })
  } catch (err) {
    throw new ConfigError(`subnet-evm genesis: ${(err as Error).message}`)
  }
}

/** The fork a chain config asks for (docs/FORK.md): its origin's client and block. */
function forkOptions(chain: ChainConfigFile, log: Logger): EngineOptions['fork'] {
  const url = chain['fork-url']
  const blockNumber = chain['fork-block-number']
  if (url === undefined) {
    if (blockNumber !== undefined) throw new ConfigError('fork-block-number needs fork-url (--fork-url)')
    return undefined
  }
  // A fork's trie is partly the origin's (fetched on demand), so there is no whole state to collect garbage from.
  if (chain['pruning-enabled']) throw new ConfigError('fork-url cannot be combined with pruning-enabled')
  return { origin: new OriginClient({ url, log: log.child({ module: 'fork' }) }), blockNumber: blockNumber === undefined ? undefined : BigInt(blockNumber) }
}

/**
 * The fields of a subnet-evm genesis header that depend on its config (subnet-evm core/genesis.go
 * toBlock): which of the optional ones it has is headerLayout.ts genesisHeaderFields.
 */
import type { SubnetEvmChainConfig } from './chainConfig.js'
import { INITIAL_DELAY_EXCESS } from './fees/minDelayExcess.js'
import { isForked } from './upgradesAt.js'

/** geth params.GenesisGasLimit and GenesisDifficulty: a genesis' gasLimit of 0 and missing difficulty. */
export const GENESIS_GAS_LIMIT = 4_712_388n
export const GENESIS_DIFFICULTY = 131_072n

export interface GenesisSpec {
  /** Seconds. */
  timestamp: bigint
  gasLimit: bigint
  difficulty?: bigint
  extraData?: Uint8Array
  baseFeePerGas?: bigint
  excessBlobGas?: bigint
  blobGasUsed?: bigint
}

export interface GenesisHeaderValues {
  gasLimit: bigint
  difficulty: bigint
  extraData: Uint8Array
  baseFee?: bigint
  blockGasCost?: bigint
  blobGasUsed?: bigint
  excessBlobGas?: bigint
  parentBeaconRoot?: Uint8Array
  timeMilliseconds?: bigint
  minDelayExcess?: bigint
}

/**
 * The genesis header's config-dependent values. `desiredDelayExcess` is ACP-226's
 * DesiredDelayExcess (acp226.go), used when the config sets initialMinDelayMS.
 */
export function genesisHeaderValues(
  config: Pick<SubnetEvmChainConfig, 'upgrades' | 'eth' | 'feeConfig' | 'initialMinDelayMS'>,
  genesis: GenesisSpec,
  desiredDelayExcess: (delayMs: bigint) => bigint,
): GenesisHeaderValues {
  const t = genesis.timestamp
  const out: GenesisHeaderValues = {
    gasLimit: genesis.gasLimit === 0n ? GENESIS_GAS_LIMIT : genesis.gasLimit,
    difficulty: genesis.difficulty ?? GENESIS_DIFFICULTY,
    extraData: genesis.extraData ?? new Uint8Array(),
    baseFee: genesis.baseFeePerGas,
  }
  if (isForked(config.upgrades.subnetEVMTimestamp, t)) out.baseFee = genesis.baseFeePerGas ?? config.feeConfig.minBaseFee
  // Etna's genesis writes blockGasCost 0: it precedes the Cancun fields in RLP order.
  if (isForked(config.upgrades.etnaTimestamp, t)) out.blockGasCost = 0n
  if (isForked(config.eth.londonBlock, 0n) && isForked(config.eth.cancunTime, t)) {
    out.parentBeaconRoot = new Uint8Array(32)
    out.excessBlobGas = genesis.excessBlobGas ?? 0n
    out.blobGasUsed = genesis.blobGasUsed ?? 0n
  }
  if (isForked(config.upgrades.graniteTimestamp, t)) {
    out.timeMilliseconds = t * 1000n
    out.minDelayExcess = config.initialMinDelayMS === 0n ? INITIAL_DELAY_EXCESS : desiredDelayExcess(config.initialMinDelayMS)
  }
  return out
}

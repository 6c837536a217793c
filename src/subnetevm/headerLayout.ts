/**
 * The layout of a subnet-evm header and block (subnet-evm plugin/evm/customtypes/header_ext.go
 * HeaderSerializable and gen_header_serializable_rlp.go; block_ext.go and libevm's
 * NOOPBlockBodyHooks). A header is the 15 geth fields (no extDataHash, unlike coreth) followed by
 * the optional fields present, in this order:
 *
 *   baseFee (big) · blockGasCost (big) · blobGasUsed · excessBlobGas · parentBeaconRoot (32 B) ·
 *   timeMilliseconds · minDelayExcess
 *
 * The RLP encoder writes an optional field when it or any later one is set, a missing one then as
 * 0x80. A block is [header, transactions, uncles] as geth's (the optional withdrawals list is never
 * set): no version or extData item as coreth's blocks carry.
 */
import type { EthForkConfig } from './chainConfig.js'
import type { NetworkUpgrades } from './networkUpgrades.js'
import { isForked } from './upgradesAt.js'

/** The optional header fields in RLP order. */
export const OPTIONAL_HEADER_FIELDS = ['baseFee', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot', 'timeMilliseconds', 'minDelayExcess'] as const
export type OptionalHeaderField = (typeof OPTIONAL_HEADER_FIELDS)[number]

/** Their names in a block or header JSON answer (customtypes/gen_header_serializable_json.go, header_ext.go PostRPCMarshal). */
export const OPTIONAL_HEADER_JSON_NAMES: Readonly<Record<OptionalHeaderField, string>> = Object.freeze({
  baseFee: 'baseFeePerGas',
  blockGasCost: 'blockGasCost',
  blobGasUsed: 'blobGasUsed',
  excessBlobGas: 'excessBlobGas',
  parentBeaconRoot: 'parentBeaconBlockRoot',
  timeMilliseconds: 'timestampMilliseconds',
  minDelayExcess: 'minDelayExcess',
})

/** Those names in RLP order. */
export const OPTIONAL_HEADER_JSON_KEYS: readonly string[] = OPTIONAL_HEADER_FIELDS.map((f) => OPTIONAL_HEADER_JSON_NAMES[f])

/** The items of a block's RLP list (libevm core/types/block.libevm.go NOOPBlockBodyHooks). */
export const BLOCK_RLP_ITEMS = ['header', 'transactions', 'uncles'] as const

type LayoutConfig = { upgrades: Pick<NetworkUpgrades, 'subnetEVMTimestamp' | 'etnaTimestamp' | 'graniteTimestamp'>; eth: Pick<EthForkConfig, 'londonBlock' | 'cancunTime'> }

/** Whether Cancun's header fields are on at a block (libevm IsCancun: London and cancunTime, which SetEthUpgrades puts at Etna). */
function isCancun(config: LayoutConfig, number: bigint, time: bigint): boolean {
  return isForked(config.eth.londonBlock, number) && isForked(config.eth.cancunTime, time)
}

/**
 * The optional fields a block after genesis has at `time` (seconds), in RLP order: baseFee and
 * blockGasCost from SubnetEVM (both required: wrapped_block.go syntacticVerify), the blob fields
 * and parentBeaconRoot from Cancun (= Etna; 0, 0 and the zero hash), timeMilliseconds and
 * minDelayExcess from Granite (time.go, min_delay_excess.go).
 */
export function headerFieldsAt(config: LayoutConfig, number: bigint, time: bigint): OptionalHeaderField[] {
  const out: OptionalHeaderField[] = []
  if (isForked(config.upgrades.subnetEVMTimestamp, time)) out.push('baseFee', 'blockGasCost')
  if (isCancun(config, number, time)) out.push('blobGasUsed', 'excessBlobGas', 'parentBeaconRoot')
  if (isForked(config.upgrades.graniteTimestamp, time)) out.push('timeMilliseconds', 'minDelayExcess')
  return out
}

/**
 * The optional fields of the genesis block at `time` (core/genesis.go toBlock): baseFee when the
 * genesis gives one or from SubnetEVM (then minBaseFee by default), blockGasCost (0) only from
 * Etna, the Cancun fields, and the Granite fields. A SubnetEVM genesis before Etna has baseFee alone.
 */
export function genesisHeaderFields(config: LayoutConfig, time: bigint, genesisBaseFee?: bigint): OptionalHeaderField[] {
  const out: OptionalHeaderField[] = []
  if (genesisBaseFee !== undefined || isForked(config.upgrades.subnetEVMTimestamp, time)) out.push('baseFee')
  if (isForked(config.upgrades.etnaTimestamp, time)) out.push('blockGasCost')
  if (isCancun(config, 0n, time)) out.push('blobGasUsed', 'excessBlobGas', 'parentBeaconRoot')
  if (isForked(config.upgrades.graniteTimestamp, time)) out.push('timeMilliseconds', 'minDelayExcess')
  return out
}

/**
 * The optional items of a header's RLP list, given the values of the fields it has: every field
 * up to the last one set, a missing one in between as the empty string (`gap`, 0x80), as the
 * generated encoder writes them.
 */
export function optionalHeaderItems<T>(values: Partial<Record<OptionalHeaderField, T>>, gap: T): T[] {
  let last = -1
  OPTIONAL_HEADER_FIELDS.forEach((field, i) => {
    if (values[field] !== undefined) last = i
  })
  return OPTIONAL_HEADER_FIELDS.slice(0, last + 1).map((field) => values[field] ?? gap)
}

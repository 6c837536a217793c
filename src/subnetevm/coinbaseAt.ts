/**
 * Who receives a subnet-evm block's fees (subnet-evm core/blockchain_reader.go GetCoinbaseAt,
 * miner/worker.go commitNewWork, consensus/dummy/consensus.go verifyCoinbase). Every transaction
 * pays gasUsed · effectiveGasPrice, base fee included, to the block's coinbase
 * (core/state_transition.go); with the blackhole as coinbase the fees burn.
 */
import { BLACKHOLE_ADDRESS } from './precompiles/modules.js'
import type { NetworkUpgrades } from './networkUpgrades.js'
import { isForked } from './upgradesAt.js'

export interface CoinbaseRule {
  /** The coinbase a block must have when recipients are not allowed. */
  coinbase: Uint8Array
  /** Whether the builder may name any coinbase (its `feeRecipient`). */
  allowFeeRecipients: boolean
}

/**
 * The rule at a parent of time `parentTime`: before SubnetEVM the blackhole; without the reward
 * manager active at the parent, the zero address and free recipients when the genesis allows fee
 * recipients, else the blackhole; with it, what its state holds (`rewardManager`: the stored
 * reward address and whether fee recipients are allowed).
 */
export function coinbaseAt(
  config: { upgrades: Pick<NetworkUpgrades, 'subnetEVMTimestamp'>; allowFeeRecipients: boolean },
  parentTime: bigint,
  rewardManager?: { rewardAddress: Uint8Array; allowFeeRecipients: boolean },
): CoinbaseRule {
  if (!isForked(config.upgrades.subnetEVMTimestamp, parentTime)) return { coinbase: BLACKHOLE_ADDRESS, allowFeeRecipients: false }
  if (rewardManager !== undefined) return { coinbase: rewardManager.rewardAddress, allowFeeRecipients: rewardManager.allowFeeRecipients }
  return config.allowFeeRecipients ? { coinbase: new Uint8Array(20), allowFeeRecipients: true } : { coinbase: BLACKHOLE_ADDRESS, allowFeeRecipients: false }
}

const sameAddress = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * The coinbase a builder writes: its own `etherbase` (config `feeRecipient`, default the
 * blackhole) when recipients are allowed, else the rule's (worker.go commitNewWork).
 */
export function builderCoinbase(rule: CoinbaseRule, etherbase: Uint8Array): Uint8Array {
  return rule.allowFeeRecipients || sameAddress(etherbase, rule.coinbase) ? etherbase : rule.coinbase
}

/** Whether a block's coinbase passes verification: anything when recipients are allowed, else the rule's (consensus.go verifyCoinbase). */
export function coinbaseAllowed(rule: CoinbaseRule, coinbase: Uint8Array): boolean {
  return rule.allowFeeRecipients || sameAddress(coinbase, rule.coinbase)
}

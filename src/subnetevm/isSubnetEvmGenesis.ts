/**
 * Whether a genesis `config` is subnet-evm's rather than coreth's (the C-Chain's). Both are geth
 * configs with Avalanche keys on the same root; the keys only one of them reads tell them apart:
 * subnet-evm's `feeConfig` (avalanche-cli and the Builder Console always write it), its
 * `subnetEVMTimestamp`, `durangoTimestamp`, `allowFeeRecipients`, `initialMinDelayMS` and
 * precompile configs at genesis (subnet-evm params/extras/{config,network_upgrades}.go), against
 * coreth's `apricotPhase…BlockTimestamp`, `banffBlockTimestamp`, `cortinaBlockTimestamp` and
 * `durangoBlockTimestamp` (coreth params/extras/network_upgrades.go). Keys both read (chainId,
 * the geth forks, etna/fortuna/granite/heliconTimestamp) decide nothing: such a config is taken as
 * coreth's, as the node always took it.
 */
import { PRECOMPILE_MODULES } from './precompiles/modules.js'

/** Keys only subnet-evm reads and tools always write: they decide alone. */
const SUBNET_EVM_STRONG = ['feeConfig', 'subnetEVMTimestamp', 'durangoTimestamp']
/** Keys only subnet-evm reads that a hand-written config may carry. */
const SUBNET_EVM_WEAK = ['allowFeeRecipients', 'initialMinDelayMS', ...PRECOMPILE_MODULES.map((m) => m.key)]
/** Keys only coreth reads. */
const CORETH_ONLY = /^(apricotPhase(1|2|3|4|5|Pre6|6|Post6)|banff|cortina|durango)BlockTimestamp$/

export function isSubnetEvmGenesis(config: unknown): boolean {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return false
  const keys = Object.keys(config)
  if (keys.some((k) => SUBNET_EVM_STRONG.includes(k))) return true
  if (keys.some((k) => CORETH_ONLY.test(k))) return false
  return keys.some((k) => SUBNET_EVM_WEAK.includes(k))
}

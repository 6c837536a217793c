import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { WARP_ADDRESS_BYTES } from '../../warp/warpConstants.js'

/*
 * subnet-evm's registered precompile modules (subnet-evm precompile/registry/registry.go and each
 * contracts/<name>/module.go): the genesis/upgrade config key and the address of each. The registry
 * keeps them sorted by address, the order activations are applied in.
 */

/** The config keys of the modules whose contracts this folder runs. */
export type StatefulPrecompileKey = 'contractDeployerAllowListConfig' | 'contractNativeMinterConfig' | 'txAllowListConfig' | 'feeManagerConfig' | 'rewardManagerConfig'
/** Every registered key: Warp's contract runs elsewhere (src/warp/), its config is scheduled here. */
export type PrecompileKey = StatefulPrecompileKey | 'warpConfig'

const address = (hex: string): Uint8Array => hexToBytes(`0x${hex}`)

export const DEPLOYER_ALLOW_LIST_ADDRESS = address('0200000000000000000000000000000000000000')
export const NATIVE_MINTER_ADDRESS = address('0200000000000000000000000000000000000001')
export const TX_ALLOW_LIST_ADDRESS = address('0200000000000000000000000000000000000002')
export const FEE_MANAGER_ADDRESS = address('0200000000000000000000000000000000000003')
export const REWARD_MANAGER_ADDRESS = address('0200000000000000000000000000000000000004')
export const WARP_PRECOMPILE_ADDRESS = WARP_ADDRESS_BYTES

/** subnet-evm graft/evm constants.BlackholeAddr: where fees burn when rewards are disabled. */
export const BLACKHOLE_ADDRESS = address('0100000000000000000000000000000000000000')

export interface PrecompileModule {
  key: PrecompileKey
  address: Uint8Array
}

/** The modules sorted by address (subnet-evm precompile/modules/registerer.go). */
export const PRECOMPILE_MODULES: readonly PrecompileModule[] = Object.freeze(
  [
    { key: 'contractDeployerAllowListConfig', address: DEPLOYER_ALLOW_LIST_ADDRESS },
    { key: 'contractNativeMinterConfig', address: NATIVE_MINTER_ADDRESS },
    { key: 'txAllowListConfig', address: TX_ALLOW_LIST_ADDRESS },
    { key: 'feeManagerConfig', address: FEE_MANAGER_ADDRESS },
    { key: 'rewardManagerConfig', address: REWARD_MANAGER_ADDRESS },
    { key: 'warpConfig', address: WARP_PRECOMPILE_ADDRESS },
  ].sort((a, b) => bytesToHex(a.address).localeCompare(bytesToHex(b.address))) as PrecompileModule[],
)

/** The module registered under a config key (undefined: subnet-evm's "unknown precompile config"). */
export function moduleOfKey(key: string): PrecompileModule | undefined {
  return PRECOMPILE_MODULES.find((m) => m.key === key)
}

/** The module at an address, if any. */
export function moduleAt(addr: Uint8Array): PrecompileModule | undefined {
  return PRECOMPILE_MODULES.find((m) => equalsBytes(m.address, addr))
}

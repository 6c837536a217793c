import type { StateManagerInterface } from '@ethereumjs/common'
import { type VM, createVM } from '@ethereumjs/vm'
import type { Chain } from '../chain/chain.js'
import type { EvmGuard } from './evmGuard.js'
import { warpForEthereumjs } from './warpPrecompile.js'
import { subnetEvmForEthereumjs } from './subnetEvmPrecompiles.js'
import { NATIVE_ASSET_ADDRESSES, coldAtStart, deprecatedForEthereumjs, guardStatefulPrecompiles } from './corethPrecompiles.js'
import { WARP_ADDRESS } from '../../warp/warpConstants.js'

/** Where a VM reads BLOCKHASH from: the chain's canonical hashes, or a simulation's own. */
type BlockHashes = Chain['blockHashes']

export interface ChainVMOptions {
  /** The guard whose opcode hook stops a run at its limit (requests); none for block building. */
  guard?: EvmGuard
  /** BLOCKHASH's source; the chain's canonical hashes when absent. */
  blockHashes?: BlockHashes
  /**
   * Share the chain's Common instead of a copy: only for the block builder's one VM, made once. Any
   * other VM takes a copy, because each EVM subscribes to its Common's events and the shared one would
   * keep every VM ever made alive (an eth_call at each new head leaked an EVM; scripts/soak.ts found it).
   */
  sharedCommon?: boolean
}

/**
 * Every VM the engine runs is made here (calls, estimates, traces, simulations, the pending block,
 * block building), so what each needs (a precompile, the interpreter that runs it) is given once.
 */
export async function chainVM(chain: Pick<Chain, 'common' | 'blockHashes' | 'warp' | 'subnetEvm'>, stateManager: StateManagerInterface, opts: ChainVMOptions = {}): Promise<VM> {
  const { guard, blockHashes = chain.blockHashes, sharedCommon = false } = opts
  const warp = chain.warp === undefined ? undefined : warpForEthereumjs(chain.warp)
  const subnetEvm = chain.subnetEvm === undefined ? undefined : subnetEvmForEthereumjs(chain.subnetEvm.rules)
  const vm = await createVM({
    common: sharedCommon ? chain.common : chain.common.copy(),
    stateManager,
    blockchain: blockHashes as never,
    evmOpts: {
      ...(guard === undefined ? {} : { customOpcodes: guard.opcodes }),
      // coreth's deprecated native-asset contracts are not subnet-evm's.
      customPrecompiles: [...(subnetEvm === undefined ? deprecatedForEthereumjs() : []), ...(warp?.customPrecompiles ?? []), ...(subnetEvm?.customPrecompiles ?? [])],
    },
  })
  warp?.attach(vm)
  subnetEvm?.attach(vm)
  const stateful = [...(warp === undefined ? [] : [WARP_ADDRESS]), ...(subnetEvm?.addresses ?? [])]
  guardStatefulPrecompiles(vm.evm, [...(subnetEvm === undefined ? NATIVE_ASSET_ADDRESSES : []), ...stateful])
  // Warp and subnet-evm's precompiles are not among the active ones a transaction starts with warm.
  if (stateful.length > 0) coldAtStart(vm.evm, stateful)
  return vm
}

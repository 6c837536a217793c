import { type Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { customCrypto } from '../../util/crypto.js'

/**
 * What Granite adds to Cancun's EVM: the P256VERIFY precompile at 0x100 (ACP-204). coreth registers
 * libevm's vm.P256Verify, geth's EIP-7951 code (6900 gas, not RIP-7212's 3450; empty output on any
 * failure), from Granite on (coreth params/hooks_libevm.go PrecompiledContractsGranite); ethereumjs
 * runs the same as EIP 7951 (@ethereumjs/evm precompiles/100-p256verify.js), and every VM takes it
 * from this Common. Every chain here runs upgrade.Default: Granite from genesis (src/engine/rules/genesis.ts).
 */
const GRANITE_EIPS = [7951]

/** The EVM rules of a chain with EVM chain ID `chainId`: Cancun with Granite's additions, the native crypto bindings. */
export function chainCommon(chainId: bigint): Common {
  return createCustomCommon({ chainId: Number(chainId), name: `avalanche-${chainId}` }, Mainnet, { hardfork: 'cancun', eips: GRANITE_EIPS, customCrypto })
}

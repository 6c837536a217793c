import { type Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { customCrypto } from '../../util/crypto.js'
import { LAMBDA } from './helicon.js'

/**
 * What Granite adds to Cancun's EVM: the P256VERIFY precompile at 0x100 (ACP-204). coreth registers
 * libevm's vm.P256Verify, geth's EIP-7951 code (6900 gas, not RIP-7212's 3450; empty output on any
 * failure), from Granite on (coreth params/hooks_libevm.go PrecompiledContractsGranite); ethereumjs
 * runs the same as EIP 7951 (@ethereumjs/evm precompiles/100-p256verify.js), and every VM takes it
 * from this Common. Every chain here runs upgrade.Default: Granite from genesis (src/engine/rules/genesis.ts).
 */
const GRANITE_EIPS = [7951]

/**
 * No gas refunds: coreth's StateTransition.refundGas applies the refund counter only before Apricot
 * Phase 1 (core/state_transition.go), and every chain here is past it from genesis (docs/EVM.md,
 * "The C-Chain's rules"). The EVM still counts refunds (traces show the counter); the transaction
 * keeps none of it. Both EVMs cap a refund at gasUsed / maxRefundQuotient: with 2^64 as the
 * quotient the cap is 0 for any gas a transaction can use (a uint64).
 */
export const NO_REFUND_QUOTIENT = 2n ** 64n

/**
 * Helicon's minimum charge, the node's own parameter `minGasChargeDivisor` (λ): a transaction pays for
 * at least ceil(gasLimit / λ) gas after refunds, capped at its limit (coreth params/hooks_libevm.go
 * MinimumGasConsumption, applied in libevm's state transition); its receipt shows the charged gas.
 */

/**
 * The EVM rules of a chain with EVM chain ID `chainId`: Cancun with Granite's additions and coreth's
 * refund rule, the native crypto bindings. The refund rule is a hardfork-scoped parameter: ethereumjs
 * merges it after the EIPs of every hardfork up to Cancun, so the VM's and the EVM's own parameter
 * sets (merged into every copy when a VM is made) do not put EIP-3529's quotient back.
 * `baseFeeToCoinbase`, a parameter of the node's own: the coinbase is credited the whole fee, base
 * fee included (coreth core/state_transition.go; the blackhole's balance on the C-Chain), read by the
 * interpreter (EvmRules.baseFeeToCoinbase) and by exec/impersonatedTx.ts runBlockTx for ethereumjs.
 */
export function chainCommon(chainId: bigint, helicon = false): Common {
  const common = createCustomCommon({ chainId: Number(chainId), name: `avalanche-${chainId}` }, Mainnet, { hardfork: 'cancun', eips: GRANITE_EIPS, customCrypto })
  common.updateParams({
    cancun: { maxRefundQuotient: `0x${NO_REFUND_QUOTIENT.toString(16)}`, baseFeeToCoinbase: '0x1', ...(helicon ? { minGasChargeDivisor: `0x${LAMBDA.toString(16)}` } : {}) },
  })
  return common
}

import { formatAddress } from './abi.js'
import { DEPLOYER_ALLOW_LIST_ADDRESS, TX_ALLOW_LIST_ADDRESS } from './modules.js'
import { isEnabledRole, roleOf } from './roles.js'
import type { PrecompileState } from './state.js'

/*
 * The two allow lists that gate the chain rather than a precompile: who may deploy contracts
 * (subnet-evm params/hooks_libevm.go CanCreateContract) and who may send transactions (subnet-evm
 * core/state_transition.go preCheck, core/txpool/validation.go). Each applies only while its
 * precompile is enabled at the block's time (schedule.ts isPrecompileEnabled).
 */

/** Whether tx.origin may create a contract (CREATE, CREATE2 or a creation tx): Enabled, Manager or Admin. */
export async function isDeployAllowed(state: PrecompileState, origin: Uint8Array): Promise<boolean> {
  return isEnabledRole(await roleOf(state, DEPLOYER_ALLOW_LIST_ADDRESS, origin))
}

/** Whether `from` may send a transaction: Enabled, Manager or Admin. */
export async function isTxAllowed(state: PrecompileState, from: Uint8Array): Promise<boolean> {
  return isEnabledRole(await roleOf(state, TX_ALLOW_LIST_ADDRESS, from))
}

/** The creation's error when the deployer allow list refuses tx.origin: all the creation's gas is used. */
export function deployNotAllowedError(origin: Uint8Array): string {
  return `tx.origin ${formatAddress(origin)} is not authorized to deploy a contract`
}

/** vmerrors.ErrSenderAddressNotAllowListed with the sender: the pool refuses the tx, a block holding it is invalid. */
export function txNotAllowedError(from: Uint8Array): string {
  return `cannot issue transaction from non-allow listed address: ${formatAddress(from)}`
}

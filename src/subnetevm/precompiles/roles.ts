import { addressWord, wordValue } from './abi.js'
import type { PrecompileState } from './state.js'

/*
 * The allow list's roles (subnet-evm precompile/allowlist/role.go): a role is the 32-byte value
 * stored at the account's slot of the precompile (the address left-padded to 32 bytes). Any other
 * stored value is a role no rule knows ("UnknownRole").
 */

export const ROLE = Object.freeze({ None: 0n, Enabled: 1n, Admin: 2n, Manager: 3n })

/** Role.String. */
export function roleName(role: bigint): string {
  switch (role) {
    case ROLE.None:
      return 'NoRole'
    case ROLE.Enabled:
      return 'EnabledRole'
    case ROLE.Manager:
      return 'ManagerRole'
    case ROLE.Admin:
      return 'AdminRole'
    default:
      return 'UnknownRole'
  }
}

/** Role.IsEnabled: Admin, Enabled and Manager may call the precompile (and send txs, deploy). */
export function isEnabledRole(role: bigint): boolean {
  return role === ROLE.Admin || role === ROLE.Enabled || role === ROLE.Manager
}

/** Role.CanModify: an admin sets anything; a manager moves only between None and Enabled. */
export function canModifyRole(caller: bigint, from: bigint, to: bigint): boolean {
  if (caller === ROLE.Admin) return true
  if (caller === ROLE.Manager) return (from === ROLE.Enabled || from === ROLE.None) && (to === ROLE.Enabled || to === ROLE.None)
  return false
}

/** The storage slot of an account's role. */
export function roleSlot(account: Uint8Array): Uint8Array {
  return addressWord(account)
}

/** GetAllowListStatus: the role of `account` on the precompile at `precompile` (the raw stored value). */
export async function roleOf(state: PrecompileState, precompile: Uint8Array, account: Uint8Array): Promise<bigint> {
  return wordValue(await state.getStorage(precompile, roleSlot(account)))
}

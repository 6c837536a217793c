import { addressOfWord, addressWord, eventTopic, formatAddress, selectorOf, unpackWords, word } from './abi.js'
import { ERR_OUT_OF_GAS, ERR_WRITE_PROTECTION, type FunctionContext, type FunctionOutcome, type PrecompileFunction } from './contract.js'
import { GAS } from './gas.js'
import { ROLE, canModifyRole, roleName, roleOf, roleSlot } from './roles.js'
import type { PrecompileState } from './state.js'

/*
 * The allow list every subnet-evm precompile here carries (subnet-evm precompile/allowlist/
 * allowlist.go, event.go, IAllowList.sol): readAllowList and the four role setters, setManager only
 * from Durango; from Durango a change logs RoleSet and the inputs may carry extra bytes.
 */

/** The setters and the role each sets. */
const SETTERS = [
  { name: 'setAdmin', role: ROLE.Admin },
  { name: 'setEnabled', role: ROLE.Enabled },
  { name: 'setManager', role: ROLE.Manager },
  { name: 'setNone', role: ROLE.None },
] as const

/** RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole). */
export const ROLE_SET_TOPIC = eventTopic('RoleSet(uint256,address,address,uint256)')

/** SetAllowListRole: stores `role` at the account's slot of the precompile. */
export async function setRole(state: PrecompileState, precompile: Uint8Array, account: Uint8Array, role: bigint): Promise<void> {
  await state.putStorage(precompile, roleSlot(account), word(role))
}

/** One address argument: before Durango exactly one word (strict), after it libevm's unpacking. */
function unpackAddress(input: Uint8Array, durango: boolean, strictError: string): Uint8Array | { error: string } {
  if (!durango && input.length !== 32) return { error: `${strictError}: ${input.length}` }
  const unpacked = unpackWords(input, 1)
  return 'error' in unpacked ? unpacked : addressOfWord(unpacked.words[0]!)
}

function roleSetter(precompile: Uint8Array, role: bigint) {
  return async (ctx: FunctionContext): Promise<FunctionOutcome> => {
    if (!ctx.gas.charge(GAS.modifyAllowList)) return { error: ERR_OUT_OF_GAS }
    const account = unpackAddress(ctx.input, ctx.durango, 'invalid input length for modifying allow list')
    if ('error' in account) return account
    if (ctx.readOnly) return { error: ERR_WRITE_PROTECTION }
    const callerRole = await roleOf(ctx.state, precompile, ctx.caller)
    const oldRole = await roleOf(ctx.state, precompile, account)
    if (!canModifyRole(callerRole, oldRole, role)) {
      // subnet-evm labels the caller "modify address".
      return { error: `cannot modify allow list: modify address: ${formatAddress(ctx.caller)}, from role: ${roleName(oldRole)}, to role: ${roleName(role)}` }
    }
    const logs = []
    if (ctx.durango) {
      if (!ctx.gas.charge(GAS.allowListEvent)) return { error: ERR_OUT_OF_GAS }
      logs.push({ address: precompile, topics: [ROLE_SET_TOPIC, word(role), addressWord(account), addressWord(ctx.caller)], data: word(oldRole) })
    }
    await setRole(ctx.state, precompile, account, role)
    return { returnData: new Uint8Array(0), logs }
  }
}

function readAllowList(precompile: Uint8Array) {
  return async (ctx: FunctionContext): Promise<FunctionOutcome> => {
    if (!ctx.gas.charge(GAS.readAllowList)) return { error: ERR_OUT_OF_GAS }
    const account = unpackAddress(ctx.input, ctx.durango, 'invalid input length for read allow list')
    if ('error' in account) return account
    return { returnData: word(await roleOf(ctx.state, precompile, account)), logs: [] }
  }
}

/** CreateAllowListFunctions: the allow list's five functions for the precompile at `precompile`. */
export function allowListFunctions(precompile: Uint8Array): PrecompileFunction[] {
  return [
    { selector: selectorOf('readAllowList(address)'), run: readAllowList(precompile) },
    ...SETTERS.map(({ name, role }) => ({
      selector: selectorOf(`${name}(address)`),
      run: roleSetter(precompile, role),
      ...(role === ROLE.Manager ? { active: (rules: { durango: boolean }) => rules.durango } : {}),
    })),
  ]
}

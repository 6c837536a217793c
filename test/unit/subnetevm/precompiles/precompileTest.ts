import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { getBytes, Interface } from 'ethers'
import { setRole } from '../../../../src/subnetevm/precompiles/allowList.js'
import { moduleOfKey, type StatefulPrecompileKey } from '../../../../src/subnetevm/precompiles/modules.js'
import { ROLE } from '../../../../src/subnetevm/precompiles/roles.js'
import { type PrecompileCall, type PrecompileResult, runStatefulPrecompile } from '../../../../src/subnetevm/precompiles/runStatefulPrecompile.js'
import { MemoryState } from './memoryState.js'

/** subnet-evm precompile/allowlist/allowlisttest: the four accounts its tests give roles. */
export const ADMIN = hexToBytes('0x0000000000000000000000000000000000000011')
export const ENABLED = hexToBytes('0x0000000000000000000000000000000000000022')
export const NO_ROLE = hexToBytes('0x0000000000000000000000000000000000000033')
export const MANAGER = hexToBytes('0x0000000000000000000000000000000000000044')

/** The interfaces as subnet-evm's Solidity files declare them, for encoding with ethers. */
export const ALLOW_LIST_ABI = new Interface([
  'event RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole)',
  'function setAdmin(address addr)',
  'function setEnabled(address addr)',
  'function setManager(address addr)',
  'function setNone(address addr)',
  'function readAllowList(address addr) view returns (uint256 role)',
])

export const hex = (b: Uint8Array): string => bytesToHex(b)
export const encode = (abi: Interface, fn: string, args: unknown[] = []): Uint8Array => getBytes(abi.encodeFunctionData(fn, args))
/** A 32-byte word of a number or an address, as hex. */
export const wordHex = (v: bigint | Uint8Array): string => (typeof v === 'bigint' ? `0x${v.toString(16).padStart(64, '0')}` : `0x${bytesToHex(v).slice(2).padStart(64, '0')}`)

/** A state where the precompile's allow list holds subnet-evm's default roles (allowlisttest.SetDefaultRoles). */
export async function stateWithDefaultRoles(key: StatefulPrecompileKey): Promise<MemoryState> {
  const state = new MemoryState()
  const address = moduleOfKey(key)!.address
  await setRole(state, address, ADMIN, ROLE.Admin)
  await setRole(state, address, MANAGER, ROLE.Manager)
  await setRole(state, address, ENABLED, ROLE.Enabled)
  return state
}

export interface CallOptions {
  durango?: boolean
  granite?: boolean
  isStatic?: boolean
  callType?: PrecompileCall['callType']
  blockNumber?: bigint
  blockTime?: bigint
}

/** One call of the precompile `key` (Durango on unless said otherwise, as subnet-evm's test harness). */
export function call(key: StatefulPrecompileKey, state: MemoryState, caller: Uint8Array, data: Uint8Array, gas: bigint, o: CallOptions = {}): Promise<PrecompileResult> {
  return runStatefulPrecompile(
    key,
    {
      caller,
      address: moduleOfKey(key)!.address,
      data,
      gas,
      isStatic: o.isStatic ?? false,
      ...(o.callType === undefined ? {} : { callType: o.callType }),
      blockNumber: o.blockNumber ?? 0n,
      blockTime: o.blockTime ?? 0n,
      rules: { durango: o.durango ?? true, granite: o.granite ?? false },
    },
    state,
  )
}

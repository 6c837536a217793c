import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { setRole } from '../../../../src/subnetevm/precompiles/allowList.js'
import { moduleOfKey, type StatefulPrecompileKey } from '../../../../src/subnetevm/precompiles/modules.js'
import { ROLE, roleOf } from '../../../../src/subnetevm/precompiles/roles.js'
import { ADMIN, ALLOW_LIST_ABI, call, ENABLED, encode, hex, MANAGER, NO_ROLE, stateWithDefaultRoles, wordHex } from './precompileTest.js'

/*
 * subnet-evm precompile/allowlist/allowlisttest/test_allowlist.go, run against each precompile that
 * carries the allow list: the figures (20,000 gas a change, 5,000 a read, 2,131 for RoleSet), the
 * roles after each call, the events and the errors.
 */

const KEYS: StatefulPrecompileKey[] = ['contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'txAllowListConfig', 'feeManagerConfig', 'rewardManagerConfig']
const MODIFY = 20_000n
const READ = 5_000n
/** LogGas + 4 topics + 32 bytes of data. */
const EVENT = 375n + 4n * 375n + 32n * 8n
const SETTER = { [ROLE.Admin.toString()]: 'setAdmin', [ROLE.Enabled.toString()]: 'setEnabled', [ROLE.Manager.toString()]: 'setManager', [ROLE.None.toString()]: 'setNone' }
const NAME = { [ROLE.Admin.toString()]: 'AdminRole', [ROLE.Enabled.toString()]: 'EnabledRole', [ROLE.Manager.toString()]: 'ManagerRole', [ROLE.None.toString()]: 'NoRole' }
const set = (role: bigint, account: Uint8Array) => encode(ALLOW_LIST_ABI, SETTER[role.toString()]!, [hex(account)])

describe.each(KEYS)('the allow list of %s', (key) => {
  const precompile = moduleOfKey(key)!.address

  it.each([
    ['admin sets admin', ADMIN, NO_ROLE, ROLE.Admin, ROLE.None],
    ['admin sets enabled', ADMIN, NO_ROLE, ROLE.Enabled, ROLE.None],
    ['admin sets none', ADMIN, ENABLED, ROLE.None, ROLE.Enabled],
    ['admin sets manager', ADMIN, NO_ROLE, ROLE.Manager, ROLE.None],
    ['manager sets none to none', MANAGER, NO_ROLE, ROLE.None, ROLE.None],
    ['manager sets none to enabled', MANAGER, NO_ROLE, ROLE.Enabled, ROLE.None],
    ['manager sets enabled to none', MANAGER, ENABLED, ROLE.None, ROLE.Enabled],
  ] as const)('%s: all the gas used, the role stored, RoleSet logged', async (_name, caller, account, role, oldRole) => {
    const state = await stateWithDefaultRoles(key)
    const result = await call(key, state, caller, set(role, account), MODIFY + EVENT)
    expect(result.error).toBeUndefined()
    expect(result.gasLeft).toBe(0n)
    expect(result.returnData).toEqual(new Uint8Array(0))
    expect(await roleOf(state, precompile, account)).toBe(role)
    expect(result.logs).toHaveLength(1)
    const log = result.logs[0]!
    expect(hex(log.address)).toBe(hex(precompile))
    const expected = ALLOW_LIST_ABI.encodeEventLog('RoleSet', [role, hex(account), hex(caller), oldRole])
    expect(log.topics.map(hex)).toEqual(expected.topics)
    expect(hex(log.data)).toBe(expected.data)
  })

  it.each([
    ['no role sets none', NO_ROLE, ENABLED, ROLE.None, ROLE.Enabled],
    ['no role sets enabled', NO_ROLE, NO_ROLE, ROLE.Enabled, ROLE.None],
    ['no role sets admin', NO_ROLE, ENABLED, ROLE.Admin, ROLE.Enabled],
    ['no role sets manager', NO_ROLE, NO_ROLE, ROLE.Manager, ROLE.None],
    ['enabled sets none', ENABLED, ADMIN, ROLE.None, ROLE.Admin],
    ['enabled sets enabled', ENABLED, NO_ROLE, ROLE.Enabled, ROLE.None],
    ['enabled sets admin', ENABLED, NO_ROLE, ROLE.Admin, ROLE.None],
    ['manager sets none to manager', MANAGER, NO_ROLE, ROLE.Manager, ROLE.None],
    ['manager sets none to admin', MANAGER, NO_ROLE, ROLE.Admin, ROLE.None],
    ['manager sets enabled to admin', MANAGER, ENABLED, ROLE.Admin, ROLE.Enabled],
    ['manager sets enabled to manager', MANAGER, ENABLED, ROLE.Manager, ROLE.Enabled],
    ['manager sets admin to none', MANAGER, ADMIN, ROLE.None, ROLE.Admin],
    ['manager sets admin to enabled', MANAGER, ADMIN, ROLE.Enabled, ROLE.Admin],
    ['manager sets admin to manager', MANAGER, ADMIN, ROLE.Manager, ROLE.Admin],
    ['manager sets manager to none', MANAGER, MANAGER, ROLE.None, ROLE.Manager],
  ] as const)('%s: cannot modify allow list, nothing changed', async (_name, caller, account, role, oldRole) => {
    const state = await stateWithDefaultRoles(key)
    const result = await call(key, state, caller, set(role, account), MODIFY)
    expect(result.error).toBe(`cannot modify allow list: modify address: ${hex(caller)}, from role: ${NAME[oldRole.toString()]}, to role: ${NAME[role.toString()]}`)
    expect(result.gasLeft).toBe(0n)
    expect(result.logs).toEqual([])
    expect(await roleOf(state, precompile, account)).toBe(oldRole)
  })

  it('names the caller EIP-55 checksummed, and a stored role no rule knows as UnknownRole', async () => {
    const state = await stateWithDefaultRoles(key)
    const caller = hexToBytes('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')
    await setRole(state, precompile, NO_ROLE, 7n)
    const result = await call(key, state, caller, set(ROLE.Enabled, NO_ROLE), MODIFY)
    expect(result.error).toBe('cannot modify allow list: modify address: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed, from role: UnknownRole, to role: EnabledRole')
    const read = await call(key, state, caller, encode(ALLOW_LIST_ABI, 'readAllowList', [hex(NO_ROLE)]), READ)
    expect(hex(read.returnData)).toBe(wordHex(7n))
  })

  it('has no setManager before Durango (the selector is refused before any gas is charged)', async () => {
    const state = await stateWithDefaultRoles(key)
    const result = await call(key, state, ADMIN, set(ROLE.Manager, NO_ROLE), 0n, { durango: false })
    expect(result.error).toBe('invalid non-activated function selector: 0xd0ebdbe7')
    expect(await roleOf(state, precompile, NO_ROLE)).toBe(ROLE.None)
  })

  it('before Durango: 20,000 gas and no event; the input must be exactly one word', async () => {
    const state = await stateWithDefaultRoles(key)
    const result = await call(key, state, ADMIN, set(ROLE.Admin, NO_ROLE), MODIFY, { durango: false })
    expect(result).toMatchObject({ gasLeft: 0n, logs: [] })
    expect(result.error).toBeUndefined()
    expect(await roleOf(state, precompile, NO_ROLE)).toBe(ROLE.Admin)
    const padded = new Uint8Array([...set(ROLE.Enabled, NO_ROLE), ...new Uint8Array(32)])
    expect((await call(key, state, ADMIN, padded, MODIFY, { durango: false })).error).toBe('invalid input length for modifying allow list: 64')
    const read = new Uint8Array([...encode(ALLOW_LIST_ABI, 'readAllowList', [hex(ADMIN)]), 0])
    expect((await call(key, state, ADMIN, read, READ, { durango: false })).error).toBe('invalid input length for read allow list: 33')
  })

  it('from Durango: extra input bytes are ignored, missing ones are the ABI decoder’s errors', async () => {
    const state = await stateWithDefaultRoles(key)
    const padded = new Uint8Array([...set(ROLE.Enabled, NO_ROLE), ...new Uint8Array(32)])
    expect((await call(key, state, ADMIN, padded, MODIFY + EVENT)).error).toBeUndefined()
    expect(await roleOf(state, precompile, NO_ROLE)).toBe(ROLE.Enabled)
    const short = set(ROLE.Admin, NO_ROLE).subarray(0, 35)
    expect((await call(key, state, ADMIN, short, MODIFY)).error).toBe('abi: cannot marshal in to go type: length insufficient 31 require 32')
    const bare = set(ROLE.Admin, NO_ROLE).subarray(0, 4)
    expect((await call(key, state, ADMIN, bare, MODIFY)).error).toBe('abi: attempting to unmarshal an empty string while arguments are expected')
  })

  it('refuses a change under STATICCALL (after decoding the input) and runs out of gas at each charge', async () => {
    const state = await stateWithDefaultRoles(key)
    expect((await call(key, state, ADMIN, set(ROLE.None, ENABLED), MODIFY, { isStatic: true })).error).toBe('write protection')
    expect((await call(key, state, ADMIN, set(ROLE.None, ENABLED).subarray(0, 10), MODIFY, { isStatic: true, durango: false })).error).toBe('invalid input length for modifying allow list: 6')
    const short = await call(key, state, ADMIN, set(ROLE.None, ENABLED), MODIFY - 1n)
    expect(short).toMatchObject({ error: 'out of gas', gasLeft: 0n, logs: [] })
    expect((await call(key, state, ADMIN, set(ROLE.None, ENABLED), MODIFY + EVENT - 1n)).error).toBe('out of gas')
    expect(await roleOf(state, precompile, ENABLED)).toBe(ROLE.Enabled)
  })

  it('reads a role for 5,000 gas, under STATICCALL too, and leaves the rest of the gas', async () => {
    const state = await stateWithDefaultRoles(key)
    for (const [account, role] of [
      [NO_ROLE, ROLE.None],
      [ADMIN, ROLE.Admin],
      [MANAGER, ROLE.Manager],
      [ENABLED, ROLE.Enabled],
    ] as const) {
      const result = await call(key, state, NO_ROLE, encode(ALLOW_LIST_ABI, 'readAllowList', [hex(account)]), READ + 1234n, { isStatic: true })
      expect(result).toMatchObject({ gasLeft: 1234n, logs: [] })
      expect(hex(result.returnData)).toBe(wordHex(role))
    }
    expect((await call(key, state, ADMIN, encode(ALLOW_LIST_ABI, 'readAllowList', [hex(NO_ROLE)]), READ - 1n)).error).toBe('out of gas')
  })

  it('refuses input without a selector and an unknown selector', async () => {
    const state = await stateWithDefaultRoles(key)
    expect((await call(key, state, ADMIN, Uint8Array.of(1, 2, 3), 100_000n)).error).toBe('missing function selector to precompile - input length (3)')
    expect(await call(key, state, ADMIN, hexToBytes('0xdeadbeef'), 100_000n)).toMatchObject({ error: 'invalid function selector: 0xdeadbeef', gasLeft: 0n })
  })
})

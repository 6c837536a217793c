import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import { DEPLOYER_ALLOW_LIST_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { ROLE, roleOf } from '../../../../src/subnetevm/precompiles/roles.js'
import { INVALIDATE_DELEGATE_TIME } from '../../../../src/subnetevm/precompiles/runStatefulPrecompile.js'
import { ADMIN, ALLOW_LIST_ABI, call, encode, hex, NO_ROLE, stateWithDefaultRoles } from './precompileTest.js'

/* subnet-evm params/hooks_libevm.go makePrecompile: DELEGATECALL and CALLCODE into a precompile, and the dispatch by module. */

const MINTER = new Interface(['function mintNativeCoin(address addr, uint256 amount)'])
const KEY = 'contractDeployerAllowListConfig'
const SET_ENABLED = encode(ALLOW_LIST_ABI, 'setEnabled', [hex(NO_ROLE)])
const GAS = 100_000n
const COST = 20_000n + 2_131n

describe('runStatefulPrecompile', () => {
  it('runs a CALL and returns the gas not used', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ADMIN, SET_ENABLED, GAS)
    expect(result).toMatchObject({ gasLeft: GAS - COST })
    expect(result.invalidate).toBeUndefined()
    expect(await roleOf(state, DEPLOYER_ALLOW_LIST_ADDRESS, NO_ROLE)).toBe(ROLE.Enabled)
  })

  it.each(['DELEGATECALL', 'CALLCODE'] as const)('from Granite: a %s reverts with all the gas used and nothing done', async (callType) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ADMIN, SET_ENABLED, GAS, { callType, granite: true, blockTime: INVALIDATE_DELEGATE_TIME })
    expect(result).toEqual({ returnData: new Uint8Array(0), gasLeft: 0n, error: 'execution reverted', revert: true, logs: [] })
    expect(await roleOf(state, DEPLOYER_ALLOW_LIST_ADDRESS, NO_ROLE)).toBe(ROLE.None)
  })

  it.each(['DELEGATECALL', 'CALLCODE'] as const)('before Granite: a %s runs, and from 2025-08-02 04:00 UTC invalidates its transaction', async (callType) => {
    const before = await call(KEY, await stateWithDefaultRoles(KEY), ADMIN, SET_ENABLED, GAS, { callType, blockTime: INVALIDATE_DELEGATE_TIME - 1n })
    expect(before.error).toBeUndefined()
    expect(before.invalidate).toBeUndefined()
    const state = await stateWithDefaultRoles(KEY)
    const after = await call(KEY, state, ADMIN, SET_ENABLED, GAS, { callType, blockTime: INVALIDATE_DELEGATE_TIME })
    expect(after).toMatchObject({ gasLeft: GAS - COST, invalidate: `precompile cannot be called with ${callType}` })
    expect(await roleOf(state, DEPLOYER_ALLOW_LIST_ADDRESS, NO_ROLE)).toBe(ROLE.Enabled)
  })

  it('a STATICCALL is never refused for its type, only for writing', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ADMIN, SET_ENABLED, GAS, { callType: 'STATICCALL', isStatic: true, granite: true })
    expect(result).toMatchObject({ error: 'write protection', gasLeft: 0n })
    expect(result.revert).toBeUndefined()
  })

  it('gives each allow-list-only precompile no other function', async () => {
    const mint = encode(MINTER, 'mintNativeCoin', [hex(ADMIN), 1n])
    for (const key of ['contractDeployerAllowListConfig', 'txAllowListConfig'] as const) {
      const state = await stateWithDefaultRoles(key)
      expect((await call(key, state, ADMIN, mint, GAS)).error).toBe('invalid function selector: 0x4f5aaaba')
    }
    const minter = await stateWithDefaultRoles('contractNativeMinterConfig')
    expect((await call('contractNativeMinterConfig', minter, ADMIN, mint, GAS)).error).toBeUndefined()
  })
})

import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { DEFAULT_FEE_CONFIG } from '../../../../src/subnetevm/feeConfig.js'
import { type ActivationContext, activatePrecompile, applyPrecompileActivations, deactivatePrecompile } from '../../../../src/subnetevm/precompiles/activation.js'
import { parseGenesisPrecompiles, parsePrecompileConfig, parsePrecompileUpgrades } from '../../../../src/subnetevm/precompiles/config.js'
import { getFeeConfigLastChangedAt, getStoredFeeConfig } from '../../../../src/subnetevm/precompiles/feeManager.js'
import { BLACKHOLE_ADDRESS, FEE_MANAGER_ADDRESS, NATIVE_MINTER_ADDRESS, REWARD_MANAGER_ADDRESS, TX_ALLOW_LIST_ADDRESS, WARP_PRECOMPILE_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { getStoredRewardAddress } from '../../../../src/subnetevm/precompiles/rewardManager.js'
import { ROLE, roleOf } from '../../../../src/subnetevm/precompiles/roles.js'
import { MemoryState } from './memoryState.js'

/* subnet-evm core/state_processor_ext.go ApplyPrecompileActivations and each module's Configure. */

const A = hexToBytes('0x0000000000000000000000000000000000000011')
const B = hexToBytes('0x0000000000000000000000000000000000000022')
const C = hexToBytes('0x0000000000000000000000000000000000000044')
const ctx: ActivationContext = { blockNumber: 4n, feeConfig: { ...DEFAULT_FEE_CONFIG }, allowFeeRecipients: false }

describe('activation', () => {
  it('gives the account nonce 1 and code 0x01, then the roles (enabled, admins, managers) and the initial mint', async () => {
    const state = new MemoryState()
    await state.addBalance(NATIVE_MINTER_ADDRESS, 9n)
    const config = parsePrecompileConfig('contractNativeMinterConfig', {
      blockTimestamp: 0,
      adminAddresses: ['0x0000000000000000000000000000000000000011'],
      enabledAddresses: ['0x0000000000000000000000000000000000000022'],
      managerAddresses: ['0x0000000000000000000000000000000000000044'],
      initialMint: { '0x0000000000000000000000000000000000000022': '0x10', '0x0000000000000000000000000000000000000033': 2 },
    })
    await activatePrecompile(config, state, ctx)
    expect(state.account(NATIVE_MINTER_ADDRESS)).toMatchObject({ nonce: 1n, code: Uint8Array.of(1), balance: 9n })
    expect([await roleOf(state, NATIVE_MINTER_ADDRESS, A), await roleOf(state, NATIVE_MINTER_ADDRESS, B), await roleOf(state, NATIVE_MINTER_ADDRESS, C)]).toEqual([
      ROLE.Admin,
      ROLE.Enabled,
      ROLE.Manager,
    ])
    expect(state.balanceOf(B)).toBe(16n)
    expect(state.balanceOf(hexToBytes('0x0000000000000000000000000000000000000033'))).toBe(2n)
  })

  it('stores the fee manager’s initial config, else the chain’s, with the block number', async () => {
    const initial = { ...DEFAULT_FEE_CONFIG, gasLimit: 20_000_000n }
    const state = new MemoryState()
    await activatePrecompile(parsePrecompileConfig('feeManagerConfig', { blockTimestamp: 0, initialFeeConfig: initial }), state, ctx)
    expect(await getStoredFeeConfig(state)).toEqual(initial)
    expect(await getFeeConfigLastChangedAt(state)).toBe(4n)
    const fallback = new MemoryState()
    await activatePrecompile(parsePrecompileConfig('feeManagerConfig', { blockTimestamp: 0 }), fallback, ctx)
    expect(await getStoredFeeConfig(fallback)).toEqual(DEFAULT_FEE_CONFIG)
    const broken = { ...ctx, feeConfig: { ...DEFAULT_FEE_CONFIG, gasLimit: undefined } }
    await expect(activatePrecompile(parsePrecompileConfig('feeManagerConfig', { blockTimestamp: 0 }), new MemoryState(), broken)).rejects.toThrow(
      'could not configure precompile, name: feeManagerConfig, reason: cannot configure fee config in chain config: cannot verify fee config: gasLimit cannot be nil',
    )
  })

  it.each([
    [{ initialRewardConfig: { allowFeeRecipients: true } }, false, { rewardAddress: new Uint8Array(20), allowFeeRecipients: true }],
    [
      { initialRewardConfig: { rewardAddress: '0x0000000000000000000000000000000000000123' } },
      true,
      { rewardAddress: hexToBytes('0x0000000000000000000000000000000000000123'), allowFeeRecipients: false },
    ],
    [{ initialRewardConfig: {} }, true, { rewardAddress: BLACKHOLE_ADDRESS, allowFeeRecipients: false }],
    [{}, true, { rewardAddress: new Uint8Array(20), allowFeeRecipients: true }],
    [{}, false, { rewardAddress: BLACKHOLE_ADDRESS, allowFeeRecipients: false }],
  ])('sets the reward manager from %j (chain allowFeeRecipients %s)', async (json, allowFeeRecipients, expected) => {
    const state = new MemoryState()
    await activatePrecompile(parsePrecompileConfig('rewardManagerConfig', { blockTimestamp: 0, ...json }), state, { ...ctx, allowFeeRecipients })
    expect(await getStoredRewardAddress(state)).toEqual(expected)
  })

  it('disabling destroys the account: roles, code, nonce and balance', async () => {
    const state = new MemoryState()
    await activatePrecompile(parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 0, adminAddresses: ['0x0000000000000000000000000000000000000011'] }), state, ctx)
    await state.addBalance(TX_ALLOW_LIST_ADDRESS, 5n)
    await deactivatePrecompile('txAllowListConfig', state)
    expect(state.account(TX_ALLOW_LIST_ADDRESS)).toBeUndefined()
    expect(await roleOf(state, TX_ALLOW_LIST_ADDRESS, A)).toBe(ROLE.None)
  })

  it('applies a block’s transitions in order: a disable and a re-enable in one block leave only the new config’s state', async () => {
    const schedule = {
      genesis: parseGenesisPrecompiles({ txAllowListConfig: { blockTimestamp: 0, adminAddresses: ['0x0000000000000000000000000000000000000011'] }, warpConfig: { blockTimestamp: 0 } }),
      upgrades: parsePrecompileUpgrades([
        { txAllowListConfig: { blockTimestamp: 5, disable: true } },
        { feeManagerConfig: { blockTimestamp: 6 } },
        { txAllowListConfig: { blockTimestamp: 7, enabledAddresses: ['0x0000000000000000000000000000000000000022'] } },
      ]),
    }
    const state = new MemoryState()
    expect((await applyPrecompileActivations(schedule, undefined, 0n, state, { ...ctx, blockNumber: 0n })).map((c) => c.key)).toEqual(['txAllowListConfig', 'warpConfig'])
    expect(state.account(WARP_PRECOMPILE_ADDRESS)).toMatchObject({ nonce: 1n, code: Uint8Array.of(1) })
    expect(await roleOf(state, TX_ALLOW_LIST_ADDRESS, A)).toBe(ROLE.Admin)
    const applied = await applyPrecompileActivations(schedule, 0n, 10n, state, { ...ctx, blockNumber: 3n })
    expect(applied.map((c) => [c.key, c.blockTimestamp])).toEqual([
      ['txAllowListConfig', 5n],
      ['txAllowListConfig', 7n],
      ['feeManagerConfig', 6n],
    ])
    expect(await roleOf(state, TX_ALLOW_LIST_ADDRESS, A)).toBe(ROLE.None)
    expect(await roleOf(state, TX_ALLOW_LIST_ADDRESS, B)).toBe(ROLE.Enabled)
    expect(state.account(TX_ALLOW_LIST_ADDRESS)).toMatchObject({ nonce: 1n, code: Uint8Array.of(1) })
    expect(await getFeeConfigLastChangedAt(state)).toBe(3n)
    expect(state.account(FEE_MANAGER_ADDRESS)?.nonce).toBe(1n)
    expect(state.account(REWARD_MANAGER_ADDRESS)).toBeUndefined()
  })
})

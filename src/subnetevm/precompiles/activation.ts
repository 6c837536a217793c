import type { PartialFeeConfig } from '../feeConfig.js'
import { setRole } from './allowList.js'
import type { AllowListConfig, PrecompileConfig } from './config.js'
import { storeFeeConfig } from './feeManager.js'
import { moduleOfKey, type PrecompileKey } from './modules.js'
import { disableFeeRewards, enableAllowFeeRecipients, storeRewardAddress } from './rewardManager.js'
import { ROLE } from './roles.js'
import { precompileTransitions } from './schedule.js'
import type { PrecompileState } from './state.js'
import type { PrecompileSchedule } from './verifyConfig.js'

/*
 * A precompile turned on or off at a block (subnet-evm core/state_processor_ext.go
 * ApplyPrecompileActivations, and each module's Configure): on, its account gets nonce 1 and code
 * 0x01 (so Solidity's extcodesize check passes and the account is never empty), then the config's
 * initial state; off, the account is destroyed with its storage and balance.
 */

/** What Configure reads besides the config: the block, and the chain config's own fee settings. */
export interface ActivationContext {
  /** The block being built or processed (genesis: its number, 0). */
  blockNumber: bigint
  /** The chain config's fee config (DEFAULT_FEE_CONFIG when its genesis gives none: feeConfig.ts chainFeeConfig). */
  feeConfig: PartialFeeConfig
  /** The chain config's allowFeeRecipients. */
  allowFeeRecipients: boolean
}

const PRECOMPILE_CODE = Uint8Array.of(0x01)

/** AllowListConfig.Configure: enabled, then admins, then managers. */
async function configureAllowList(state: PrecompileState, precompile: Uint8Array, c: AllowListConfig): Promise<void> {
  for (const a of c.enabledAddresses) await setRole(state, precompile, a, ROLE.Enabled)
  for (const a of c.adminAddresses) await setRole(state, precompile, a, ROLE.Admin)
  for (const a of c.managerAddresses) await setRole(state, precompile, a, ROLE.Manager)
}

/** The module's Configure; the error's text when it fails (a fee config that does not verify). */
async function configure(config: PrecompileConfig, address: Uint8Array, state: PrecompileState, ctx: ActivationContext): Promise<string | undefined> {
  switch (config.key) {
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      break
    case 'contractNativeMinterConfig':
      for (const { address: to, amount } of config.initialMint) if (amount !== undefined) await state.addBalance(to, amount)
      break
    case 'feeManagerConfig': {
      const initial = config.initialFeeConfig
      const invalid = await storeFeeConfig(state, initial ?? ctx.feeConfig, ctx.blockNumber)
      if (invalid !== undefined) return initial === undefined ? `cannot configure fee config in chain config: ${invalid}` : `cannot configure given initial fee config: ${invalid}`
      break
    }
    case 'rewardManagerConfig': {
      const initial = config.initialRewardConfig
      if (initial !== undefined) {
        if (initial.allowFeeRecipients) await enableAllowFeeRecipients(state)
        else if (initial.rewardAddress.every((b) => b === 0)) await disableFeeRewards(state)
        else await storeRewardAddress(state, initial.rewardAddress)
      } else if (ctx.allowFeeRecipients) await enableAllowFeeRecipients(state)
      else await disableFeeRewards(state)
      break
    }
    case 'warpConfig':
      // Warp's Configure stores nothing.
      return undefined
  }
  await configureAllowList(state, address, config)
  return undefined
}

/**
 * Activates `config`'s precompile: nonce 1, code 0x01, then its Configure. Throws subnet-evm's
 * "could not configure precompile, name: <key>, reason: <text>" when Configure fails (genesis wraps
 * it in "unable to configure precompiles in genesis block: ").
 */
export async function activatePrecompile(config: PrecompileConfig, state: PrecompileState, ctx: ActivationContext): Promise<void> {
  const address = moduleOfKey(config.key)!.address
  await state.setNonce(address, 1n)
  await state.setCode(address, PRECOMPILE_CODE)
  const failed = await configure(config, address, state, ctx)
  if (failed !== undefined) throw new Error(`could not configure precompile, name: ${config.key}, reason: ${failed}`)
}

/** Disables the precompile of `key`: SelfDestruct then Finalise, the account and its storage gone at once. */
export async function deactivatePrecompile(key: PrecompileKey, state: PrecompileState): Promise<void> {
  await state.destroyAccount(moduleOfKey(key)!.address)
}

/**
 * ApplyPrecompileActivations: every config taking effect from `parentTime` (absent: the genesis
 * block) to `blockTime`, applied in module order, each key's configs in schedule order. Runs before
 * the block's transactions (at genesis, before the allocation).
 */
export async function applyPrecompileActivations(
  schedule: PrecompileSchedule,
  parentTime: bigint | undefined,
  blockTime: bigint,
  state: PrecompileState,
  ctx: ActivationContext,
): Promise<PrecompileConfig[]> {
  const applied = precompileTransitions(schedule, parentTime, blockTime)
  for (const config of applied) {
    if (config.disable) await deactivatePrecompile(config.key, state)
    else await activatePrecompile(config, state, ctx)
  }
  return applied
}

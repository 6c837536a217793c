import { equalsBytes, setLengthLeft } from '@ethereumjs/util'
import { addressOfWord, addressWord, boolWord, eventTopic, formatAddress, selectorOf, unpackWords, wordAddress } from './abi.js'
import { allowListFunctions } from './allowList.js'
import { ERR_OUT_OF_GAS, ERR_WRITE_PROTECTION, type FunctionContext, type FunctionOutcome, type PrecompileFunction } from './contract.js'
import { GAS } from './gas.js'
import { BLACKHOLE_ADDRESS, REWARD_MANAGER_ADDRESS } from './modules.js'
import { isEnabledRole, roleOf } from './roles.js'
import type { PrecompileState } from './state.js'

/*
 * The reward manager (subnet-evm precompile/contracts/rewardmanager/contract.go, event.go): one slot
 * (key "rask") holds where a block's fees go: a reward address, the blackhole address (rewards
 * disabled, fees burnt) or the marker "afrav" (each block's coinbase takes its fees).
 */

const asciiWord = (s: string): Uint8Array => {
  const out = new Uint8Array(32)
  out.set(new TextEncoder().encode(s))
  return out
}
/** rewardAddressStorageKey. */
export const REWARD_ADDRESS_SLOT = asciiWord('rask')
/** allowFeeRecipientsAddressValue: the slot's value while fee recipients are allowed. */
export const ALLOW_FEE_RECIPIENTS_VALUE = asciiWord('afrav')

/** RewardAddressChanged(address indexed sender, address indexed oldRewardAddress, address indexed newRewardAddress). */
export const REWARD_ADDRESS_CHANGED_TOPIC = eventTopic('RewardAddressChanged(address,address,address)')
/** FeeRecipientsAllowed(address indexed sender). */
export const FEE_RECIPIENTS_ALLOWED_TOPIC = eventTopic('FeeRecipientsAllowed(address)')
/** RewardsDisabled(address indexed sender). */
export const REWARDS_DISABLED_TOPIC = eventTopic('RewardsDisabled(address)')

/**
 * GetStoredRewardAddress: the address in the slot's low 20 bytes (the zero address while fee
 * recipients are allowed, or before any store) and whether fee recipients are allowed.
 */
export async function getStoredRewardAddress(state: PrecompileState): Promise<{ rewardAddress: Uint8Array; allowFeeRecipients: boolean }> {
  const value = setLengthLeft(await state.getStorage(REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_SLOT), 32)
  return { rewardAddress: wordAddress(value), allowFeeRecipients: equalsBytes(value, ALLOW_FEE_RECIPIENTS_VALUE) }
}

/** EnableAllowFeeRecipients. */
export async function enableAllowFeeRecipients(state: PrecompileState): Promise<void> {
  await state.putStorage(REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_SLOT, ALLOW_FEE_RECIPIENTS_VALUE)
}

/** DisableFeeRewards: the blackhole address as the reward address. */
export async function disableFeeRewards(state: PrecompileState): Promise<void> {
  await storeRewardAddress(state, BLACKHOLE_ADDRESS)
}

/** StoreRewardAddress. */
export async function storeRewardAddress(state: PrecompileState, rewardAddress: Uint8Array): Promise<void> {
  await state.putStorage(REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_SLOT, addressWord(rewardAddress))
}

/** allowFeeRecipients and disableRewards: no input, an enabled caller, one log from Durango. */
function setter(name: string, cost: bigint, topic: Uint8Array, eventGas: bigint, store: (state: PrecompileState) => Promise<void>) {
  return async (ctx: FunctionContext): Promise<FunctionOutcome> => {
    if (!ctx.gas.charge(cost)) return { error: ERR_OUT_OF_GAS }
    if (ctx.readOnly) return { error: ERR_WRITE_PROTECTION }
    if (!isEnabledRole(await roleOf(ctx.state, REWARD_MANAGER_ADDRESS, ctx.caller))) return { error: `non-enabled cannot call ${name}: ${formatAddress(ctx.caller)}` }
    const logs = []
    if (ctx.durango) {
      if (!ctx.gas.charge(eventGas)) return { error: ERR_OUT_OF_GAS }
      logs.push({ address: REWARD_MANAGER_ADDRESS, topics: [topic, addressWord(ctx.caller)], data: new Uint8Array(0) })
    }
    await store(ctx.state)
    return { returnData: new Uint8Array(0), logs }
  }
}

async function setRewardAddress(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.setRewardAddress)) return { error: ERR_OUT_OF_GAS }
  if (ctx.readOnly) return { error: ERR_WRITE_PROTECTION }
  // Before Durango the input only has to be whole words.
  if (!ctx.durango && ctx.input.length % 32 !== 0) return { error: `invalid input length for setting reward address: ${ctx.input.length}` }
  const unpacked = unpackWords(ctx.input, 1)
  if ('error' in unpacked) return unpacked
  const rewardAddress = addressOfWord(unpacked.words[0]!)
  if (!isEnabledRole(await roleOf(ctx.state, REWARD_MANAGER_ADDRESS, ctx.caller))) return { error: `non-enabled cannot call setRewardAddress: ${formatAddress(ctx.caller)}` }
  if (rewardAddress.every((b) => b === 0)) return { error: 'reward address cannot be empty' }
  const logs = []
  if (ctx.durango) {
    if (!ctx.gas.charge(GAS.rewardAddressChangedEvent)) return { error: ERR_OUT_OF_GAS }
    const { rewardAddress: old } = await getStoredRewardAddress(ctx.state)
    logs.push({ address: REWARD_MANAGER_ADDRESS, topics: [REWARD_ADDRESS_CHANGED_TOPIC, addressWord(ctx.caller), addressWord(old), addressWord(rewardAddress)], data: new Uint8Array(0) })
  }
  await storeRewardAddress(ctx.state, rewardAddress)
  return { returnData: new Uint8Array(0), logs }
}

async function currentRewardAddress(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.currentRewardAddress)) return { error: ERR_OUT_OF_GAS }
  return { returnData: addressWord((await getStoredRewardAddress(ctx.state)).rewardAddress), logs: [] }
}

async function areFeeRecipientsAllowed(ctx: FunctionContext): Promise<FunctionOutcome> {
  if (!ctx.gas.charge(GAS.areFeeRecipientsAllowed)) return { error: ERR_OUT_OF_GAS }
  return { returnData: boolWord((await getStoredRewardAddress(ctx.state)).allowFeeRecipients), logs: [] }
}

export const REWARD_MANAGER_FUNCTIONS: readonly PrecompileFunction[] = [
  ...allowListFunctions(REWARD_MANAGER_ADDRESS),
  { selector: selectorOf('allowFeeRecipients()'), run: setter('allowFeeRecipients', GAS.allowFeeRecipients, FEE_RECIPIENTS_ALLOWED_TOPIC, GAS.feeRecipientsAllowedEvent, enableAllowFeeRecipients) },
  { selector: selectorOf('areFeeRecipientsAllowed()'), run: areFeeRecipientsAllowed },
  { selector: selectorOf('currentRewardAddress()'), run: currentRewardAddress },
  { selector: selectorOf('disableRewards()'), run: setter('disableRewards', GAS.disableRewards, REWARDS_DISABLED_TOPIC, GAS.rewardsDisabledEvent, disableFeeRewards) },
  { selector: selectorOf('setRewardAddress(address)'), run: setRewardAddress },
]

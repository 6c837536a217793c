import { hexToBytes } from '@ethereumjs/util'
import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import { BLACKHOLE_ADDRESS, REWARD_MANAGER_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { enableAllowFeeRecipients, getStoredRewardAddress, storeRewardAddress } from '../../../../src/subnetevm/precompiles/rewardManager.js'
import { ADMIN, call, ENABLED, encode, hex, MANAGER, NO_ROLE, stateWithDefaultRoles, wordHex } from './precompileTest.js'

/* subnet-evm precompile/contracts/rewardmanager/contract_test.go: 25,000 gas a change, 5,000 a read, and the events' figures. */

const ABI = new Interface([
  'event RewardAddressChanged(address indexed sender, address indexed oldRewardAddress, address indexed newRewardAddress)',
  'event FeeRecipientsAllowed(address indexed sender)',
  'event RewardsDisabled(address indexed sender)',
  'function setRewardAddress(address addr)',
  'function allowFeeRecipients()',
  'function disableRewards()',
  'function currentRewardAddress() view returns (address rewardAddress)',
  'function areFeeRecipientsAllowed() view returns (bool isAllowed)',
])
const KEY = 'rewardManagerConfig'
const REWARD = hexToBytes('0x0000000000000000000000000000000000000123')
const CHANGE = 25_000n
const READ = 5_000n
const TWO_TOPICS = 375n + 2n * 375n
/** LogGas + 4 topics + reading the old address. */
const ADDRESS_EVENT = 375n + 4n * 375n + 5_000n
const logsOf = (logs: { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }[]) => logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) }))
const logged = (event: string, args: unknown[]) => {
  const e = ABI.encodeEventLog(event, args)
  return [{ address: hex(REWARD_MANAGER_ADDRESS), topics: e.topics, data: e.data }]
}

describe('the reward manager', () => {
  it.each([
    ['allowFeeRecipients', 'non-enabled cannot call allowFeeRecipients'],
    ['disableRewards', 'non-enabled cannot call disableRewards'],
    ['setRewardAddress', 'non-enabled cannot call setRewardAddress'],
  ] as const)('refuses %s from a caller without a role', async (fn, message) => {
    const state = await stateWithDefaultRoles(KEY)
    const input = fn === 'setRewardAddress' ? encode(ABI, fn, [hex(REWARD)]) : encode(ABI, fn)
    const result = await call(KEY, state, NO_ROLE, input, CHANGE)
    expect(result).toMatchObject({ error: `${message}: 0x0000000000000000000000000000000000000033`, gasLeft: 0n, logs: [] })
  })

  it.each([ENABLED, MANAGER, ADMIN])('allows fee recipients for an enabled caller, logging FeeRecipientsAllowed', async (caller) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, caller, encode(ABI, 'allowFeeRecipients'), CHANGE + TWO_TOPICS)
    expect(result).toMatchObject({ gasLeft: 0n, returnData: new Uint8Array(0) })
    expect(logsOf(result.logs)).toEqual(logged('FeeRecipientsAllowed', [hex(caller)]))
    expect(await getStoredRewardAddress(state)).toEqual({ rewardAddress: new Uint8Array(20), allowFeeRecipients: true })
  })

  it.each([ENABLED, MANAGER])('sets the reward address, logging the old and new ones', async (caller) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, caller, encode(ABI, 'setRewardAddress', [hex(REWARD)]), CHANGE + ADDRESS_EVENT)
    expect(result).toMatchObject({ gasLeft: 0n, returnData: new Uint8Array(0) })
    expect(logsOf(result.logs)).toEqual(logged('RewardAddressChanged', [hex(caller), hex(new Uint8Array(20)), hex(REWARD)]))
    expect(await getStoredRewardAddress(state)).toEqual({ rewardAddress: REWARD, allowFeeRecipients: false })
  })

  it.each([ENABLED, MANAGER])('disables rewards (the blackhole address), logging RewardsDisabled', async (caller) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, caller, encode(ABI, 'disableRewards'), CHANGE + TWO_TOPICS)
    expect(result).toMatchObject({ gasLeft: 0n })
    expect(logsOf(result.logs)).toEqual(logged('RewardsDisabled', [hex(caller)]))
    expect(await getStoredRewardAddress(state)).toEqual({ rewardAddress: BLACKHOLE_ADDRESS, allowFeeRecipients: false })
  })

  it('logs nothing before Durango (25,000 gas each)', async () => {
    const state = await stateWithDefaultRoles(KEY)
    for (const input of [encode(ABI, 'allowFeeRecipients'), encode(ABI, 'setRewardAddress', [hex(REWARD)]), encode(ABI, 'disableRewards')]) {
      const result = await call(KEY, state, MANAGER, input, CHANGE, { durango: false })
      expect(result).toMatchObject({ gasLeft: 0n, logs: [] })
      expect(result.error).toBeUndefined()
    }
    expect((await getStoredRewardAddress(state)).rewardAddress).toEqual(BLACKHOLE_ADDRESS)
  })

  it('reads the current address and whether fee recipients are allowed, for anyone', async () => {
    const state = await stateWithDefaultRoles(KEY)
    await storeRewardAddress(state, REWARD)
    const current = await call(KEY, state, NO_ROLE, encode(ABI, 'currentRewardAddress'), READ)
    expect(hex(current.returnData)).toBe(ABI.encodeFunctionResult('currentRewardAddress', [hex(REWARD)]))
    expect(hex((await call(KEY, state, NO_ROLE, encode(ABI, 'areFeeRecipientsAllowed'), READ)).returnData)).toBe(wordHex(0n))
    await enableAllowFeeRecipients(state)
    const allowed = await call(KEY, state, NO_ROLE, encode(ABI, 'areFeeRecipientsAllowed'), READ, { isStatic: true })
    expect(hex(allowed.returnData)).toBe(ABI.encodeFunctionResult('areFeeRecipientsAllowed', [true]))
    // The marker's low 20 bytes are zero: the current address reads as the zero address.
    expect(hex((await call(KEY, state, NO_ROLE, encode(ABI, 'currentRewardAddress'), READ)).returnData)).toBe(wordHex(0n))
    expect((await call(KEY, state, NO_ROLE, encode(ABI, 'currentRewardAddress'), READ - 1n)).error).toBe('out of gas')
  })

  it('refuses the zero reward address, STATICCALL, and short gas', async () => {
    const state = await stateWithDefaultRoles(KEY)
    expect((await call(KEY, state, ENABLED, encode(ABI, 'setRewardAddress', [hex(new Uint8Array(20))]), CHANGE)).error).toBe('reward address cannot be empty')
    for (const input of [encode(ABI, 'allowFeeRecipients'), encode(ABI, 'setRewardAddress', [hex(REWARD)]), encode(ABI, 'disableRewards')])
      expect((await call(KEY, state, ENABLED, input, CHANGE, { isStatic: true })).error).toBe('write protection')
    expect((await call(KEY, state, ENABLED, encode(ABI, 'setRewardAddress', [hex(REWARD)]), CHANGE + ADDRESS_EVENT - 1n)).error).toBe('out of gas')
    expect((await call(KEY, state, ENABLED, encode(ABI, 'allowFeeRecipients'), CHANGE + TWO_TOPICS - 1n)).error).toBe('out of gas')
    expect((await call(KEY, state, ENABLED, encode(ABI, 'disableRewards'), CHANGE - 1n)).error).toBe('out of gas')
    expect(await getStoredRewardAddress(state)).toEqual({ rewardAddress: new Uint8Array(20), allowFeeRecipients: false })
  })

  it('before Durango takes any whole number of words for setRewardAddress, after it extra bytes', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const input = encode(ABI, 'setRewardAddress', [hex(REWARD)])
    expect((await call(KEY, state, ENABLED, new Uint8Array([...input, 1]), CHANGE, { durango: false })).error).toBe('invalid input length for setting reward address: 33')
    expect((await call(KEY, state, ENABLED, input.subarray(0, 4), CHANGE, { durango: false })).error).toBe('abi: attempting to unmarshal an empty string while arguments are expected')
    expect((await call(KEY, state, ENABLED, new Uint8Array([...input, ...new Uint8Array(32)]), CHANGE, { durango: false })).error).toBeUndefined()
    expect((await call(KEY, state, ENABLED, new Uint8Array([...input, 1]), CHANGE + ADDRESS_EVENT)).error).toBeUndefined()
    expect((await getStoredRewardAddress(state)).rewardAddress).toEqual(REWARD)
  })
})

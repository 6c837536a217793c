import { hexToBytes } from '@ethereumjs/util'
import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import type { FeeConfig } from '../../../../src/subnetevm/feeConfig.js'
import { getFeeConfigLastChangedAt, getStoredFeeConfig, storeFeeConfig } from '../../../../src/subnetevm/precompiles/feeManager.js'
import { FEE_MANAGER_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { ADMIN, call, ENABLED, encode, hex, MANAGER, NO_ROLE, stateWithDefaultRoles, wordHex } from './precompileTest.js'
import { VALID_TEST_FEE_CONFIG } from '../testFeeConfigs.js'

/* subnet-evm precompile/contracts/feemanager/contract_test.go, with its figures and its regression input (issue 487). */

const TUPLE =
  '(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)'
const ABI = new Interface([
  `event FeeConfigChanged(address indexed sender, ${TUPLE} oldFeeConfig, ${TUPLE} newFeeConfig)`,
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfig() view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
])
const KEY = 'feeManagerConfig'
const FIELDS = ['gasLimit', 'targetBlockRate', 'minBaseFee', 'targetGas', 'baseFeeChangeDenominator', 'minBlockGasCost', 'maxBlockGasCost', 'blockGasCostStep'] as const
/** commontype.ValidTestFeeConfig. */
const TEST_CONFIG: FeeConfig = VALID_TEST_FEE_CONFIG
const ZERO_CONFIG: FeeConfig = Object.fromEntries(FIELDS.map((f) => [f, 0n])) as unknown as FeeConfig
const REGRESSION_INPUT = hexToBytes(
  '0x8f10b58600000000000000000000000000000000000000000000000000000000017d78400000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000012a05f20000000000000000000000000000000000000000000000000000000000047868c0000000000000000000000000000000000000000000000000000000000000005400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001bc16d674ec800000000000000000000000000000000000000000000000000000de0b6b3a764000000000000000000000000000000000000000000000000000000000000',
)
const REGRESSION_CONFIG: FeeConfig = {
  gasLimit: 25_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 5_000_000_000n,
  targetGas: 75_000_000n,
  baseFeeChangeDenominator: 84n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 2_000_000_000_000_000_000n,
  blockGasCostStep: 1_000_000_000_000_000_000n,
}
const SET = 9n * 20_000n
const GET = 8n * 5_000n
/** Reading the old config, LogGas + 2 topics + two configs of data. */
const EVENT = GET + 375n + 2n * 375n + 2n * 256n * 8n
const BLOCK = 7n
const values = (c: FeeConfig) => FIELDS.map((f) => c[f])
const setInput = (c: FeeConfig) => encode(ABI, 'setFeeConfig', values(c))

describe('the fee manager', () => {
  it.each([
    ['an enabled address', ENABLED],
    ['a manager', MANAGER],
    ['an admin', ADMIN],
  ] as const)('%s sets the config: stored with its block, FeeConfigChanged logged with the old and new configs', async (_name, caller) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, caller, setInput(TEST_CONFIG), SET + EVENT, { blockNumber: BLOCK })
    expect(result).toMatchObject({ gasLeft: 0n, returnData: new Uint8Array(0) })
    expect(result.error).toBeUndefined()
    expect(await getStoredFeeConfig(state)).toEqual(TEST_CONFIG)
    expect(await getFeeConfigLastChangedAt(state)).toBe(BLOCK)
    const expected = ABI.encodeEventLog('FeeConfigChanged', [hex(caller), values(ZERO_CONFIG), values(TEST_CONFIG)])
    expect(result.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) }))).toEqual([
      { address: hex(FEE_MANAGER_ADDRESS), topics: expected.topics, data: expected.data },
    ])
  })

  it('refuses a caller without a role', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, NO_ROLE, setInput(TEST_CONFIG), SET)
    expect(result).toMatchObject({ error: 'non-enabled cannot change fee config: 0x0000000000000000000000000000000000000033', gasLeft: 0n, logs: [] })
    expect(await getStoredFeeConfig(state)).toEqual(ZERO_CONFIG)
  })

  it('refuses a config that does not verify, keeping the stored one', async () => {
    const state = await stateWithDefaultRoles(KEY)
    expect(await storeFeeConfig(state, TEST_CONFIG, 3n)).toBeUndefined()
    const invalid = { ...TEST_CONFIG, minBlockGasCost: TEST_CONFIG.maxBlockGasCost * 2n }
    const result = await call(KEY, state, ENABLED, setInput(invalid), SET + EVENT, { blockNumber: BLOCK })
    expect(result).toMatchObject({
      error: 'cannot verify fee config: minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 2000000, maxBlockGasCost = 1000000',
      gasLeft: 0n,
      logs: [],
    })
    expect(await getStoredFeeConfig(state)).toEqual(TEST_CONFIG)
    expect(await getFeeConfigLastChangedAt(state)).toBe(3n)
  })

  it('reads the config (40,000 gas) and its block (5,000 gas) for anyone, under STATICCALL too', async () => {
    const state = await stateWithDefaultRoles(KEY)
    await storeFeeConfig(state, TEST_CONFIG, 6n)
    const config = await call(KEY, state, NO_ROLE, encode(ABI, 'getFeeConfig'), GET, { isStatic: true })
    expect(config).toMatchObject({ gasLeft: 0n, logs: [] })
    expect(hex(config.returnData)).toBe(ABI.encodeFunctionResult('getFeeConfig', values(TEST_CONFIG)))
    const at = await call(KEY, state, NO_ROLE, encode(ABI, 'getFeeConfigLastChangedAt'), 5_000n, { isStatic: true })
    expect(hex(at.returnData)).toBe(wordHex(6n))
    expect((await call(KEY, state, NO_ROLE, encode(ABI, 'getFeeConfig'), GET - 1n)).error).toBe('out of gas')
    expect((await call(KEY, state, NO_ROLE, encode(ABI, 'getFeeConfigLastChangedAt'), 4_999n)).error).toBe('out of gas')
  })

  it('refuses STATICCALL and runs out of gas at the set and at the event', async () => {
    const state = await stateWithDefaultRoles(KEY)
    for (const caller of [NO_ROLE, ENABLED, ADMIN]) expect((await call(KEY, state, caller, setInput(TEST_CONFIG), SET, { isStatic: true })).error).toBe('write protection')
    expect((await call(KEY, state, ADMIN, setInput(TEST_CONFIG), SET - 1n)).error).toBe('out of gas')
    expect((await call(KEY, state, ADMIN, setInput(TEST_CONFIG), SET + EVENT - 1n)).error).toBe('out of gas')
    expect(await getStoredFeeConfig(state)).toEqual(ZERO_CONFIG)
  })

  it('before Durango: exactly eight words, 180,000 gas, no event', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const padded = new Uint8Array([...setInput(TEST_CONFIG), ...new Uint8Array(32)])
    expect((await call(KEY, state, ENABLED, padded, SET, { durango: false })).error).toBe('invalid input length for fee config Input: 288')
    expect((await call(KEY, state, ENABLED, REGRESSION_INPUT, SET, { durango: false })).error).toBe('invalid input length for fee config Input: 284')
    const result = await call(KEY, state, ENABLED, setInput(TEST_CONFIG), SET, { durango: false, blockNumber: BLOCK })
    expect(result).toMatchObject({ gasLeft: 0n, logs: [] })
    expect(await getStoredFeeConfig(state)).toEqual(TEST_CONFIG)
  })

  it('from Durango: extra bytes are ignored (the regression input of subnet-evm issue 487)', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ENABLED, REGRESSION_INPUT, SET + EVENT, { blockNumber: BLOCK })
    expect(result.error).toBeUndefined()
    expect(await getStoredFeeConfig(state)).toEqual(REGRESSION_CONFIG)
    expect(await getFeeConfigLastChangedAt(state)).toBe(BLOCK)
    expect((await call(KEY, state, ENABLED, setInput(TEST_CONFIG).subarray(0, 100), SET)).error).toBe('failed to unpack input: abi: cannot marshal in to go type: length insufficient 96 require 128')
  })

  it('keeps the low 64 bits of a uint256 targetBlockRate, as big.Int.Uint64 does', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ADMIN, setInput({ ...TEST_CONFIG, targetBlockRate: (1n << 64n) + 3n }), SET + EVENT)
    expect(result.error).toBeUndefined()
    expect((await getStoredFeeConfig(state)).targetBlockRate).toBe(3n)
    const zeroRate = await call(KEY, state, ADMIN, setInput({ ...TEST_CONFIG, targetBlockRate: 1n << 64n }), SET + EVENT)
    expect(zeroRate.error).toBe('cannot verify fee config: targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0')
  })
})

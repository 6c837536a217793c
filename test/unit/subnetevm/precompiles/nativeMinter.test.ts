import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import { NATIVE_MINTER_ADDRESS } from '../../../../src/subnetevm/precompiles/modules.js'
import { ADMIN, call, ENABLED, encode, hex, MANAGER, NO_ROLE, stateWithDefaultRoles } from './precompileTest.js'

/* subnet-evm precompile/contracts/nativeminter/contract_test.go: 30,000 gas a mint, 1,756 for NativeCoinMinted. */

const ABI = new Interface(['event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)', 'function mintNativeCoin(address addr, uint256 amount)'])
const KEY = 'contractNativeMinterConfig'
const MINT = 30_000n
/** LogGas + 3 topics + 32 bytes of data. */
const EVENT = 375n + 3n * 375n + 32n * 8n
const MAX_256 = (1n << 256n) - 1n
const mint = (to: Uint8Array, amount: bigint) => encode(ABI, 'mintNativeCoin', [hex(to), amount])

describe('the native minter', () => {
  it.each([
    ['enabled mints to itself', ENABLED, ENABLED, 1n],
    ['a manager mints to an enabled address', MANAGER, ENABLED, 1n],
    ['an admin mints to itself', ADMIN, ADMIN, 1n],
    ['an admin mints 2^256 - 1', ADMIN, ADMIN, MAX_256],
  ] as const)('%s: the balance credited, NativeCoinMinted logged', async (_name, caller, to, amount) => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, caller, mint(to, amount), MINT + EVENT)
    expect(result).toMatchObject({ gasLeft: 0n, returnData: new Uint8Array(0) })
    expect(result.error).toBeUndefined()
    expect(state.balanceOf(to)).toBe(amount)
    const expected = ABI.encodeEventLog('NativeCoinMinted', [hex(caller), hex(to), amount])
    expect(result.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) }))).toEqual([
      { address: hex(NATIVE_MINTER_ADDRESS), topics: expected.topics, data: expected.data },
    ])
  })

  it('refuses a caller without a role, naming it', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, NO_ROLE, mint(NO_ROLE, 1n), MINT)
    expect(result).toMatchObject({ error: 'non-enabled cannot mint: 0x0000000000000000000000000000000000000033', gasLeft: 0n, logs: [] })
    expect(state.balanceOf(NO_ROLE)).toBe(0n)
  })

  it('refuses STATICCALL before reading the input or the role', async () => {
    const state = await stateWithDefaultRoles(KEY)
    for (const caller of [NO_ROLE, ENABLED, ADMIN]) expect((await call(KEY, state, caller, mint(ADMIN, 1n), MINT, { isStatic: true })).error).toBe('write protection')
    expect((await call(KEY, state, ADMIN, mint(ADMIN, 1n).subarray(0, 9), MINT, { isStatic: true, durango: false })).error).toBe('write protection')
  })

  it('runs out of gas at the mint and at the event', async () => {
    const state = await stateWithDefaultRoles(KEY)
    expect((await call(KEY, state, ADMIN, mint(ENABLED, 1n), MINT - 1n)).error).toBe('out of gas')
    expect((await call(KEY, state, ADMIN, mint(ENABLED, 1n), MINT + EVENT - 1n)).error).toBe('out of gas')
    expect(state.balanceOf(ENABLED)).toBe(0n)
  })

  it('before Durango: 30,000 gas, no event, and exactly 64 bytes of input', async () => {
    const state = await stateWithDefaultRoles(KEY)
    const result = await call(KEY, state, ENABLED, mint(ENABLED, 1n), MINT, { durango: false })
    expect(result).toMatchObject({ gasLeft: 0n, logs: [] })
    expect(state.balanceOf(ENABLED)).toBe(1n)
    const padded = new Uint8Array([...mint(ENABLED, 1n), ...new Uint8Array(32)])
    expect((await call(KEY, state, ENABLED, padded, MINT, { durango: false })).error).toBe('invalid input length for minting: 96')
    const after = await call(KEY, state, ENABLED, padded, MINT + EVENT)
    expect(after.error).toBeUndefined()
    expect(state.balanceOf(ENABLED)).toBe(2n)
  })

  it('from Durango: a short input is the ABI decoder’s error, wrapped', async () => {
    const state = await stateWithDefaultRoles(KEY)
    expect((await call(KEY, state, ENABLED, mint(ENABLED, 1n).subarray(0, 40), MINT)).error).toBe('failed to unpack input: abi: cannot marshal in to go type: length insufficient 36 require 64')
  })

  it('adds to a balance modulo 2^256 (uint256 arithmetic) and leaves the rest of the gas', async () => {
    const state = await stateWithDefaultRoles(KEY)
    await call(KEY, state, ADMIN, mint(ENABLED, MAX_256), MINT + EVENT)
    const result = await call(KEY, state, ADMIN, mint(ENABLED, 2n), MINT + EVENT + 500n)
    expect(result.gasLeft).toBe(500n)
    expect(state.balanceOf(ENABLED)).toBe(1n)
  })
})

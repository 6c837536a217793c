import { Common, Mainnet } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { Account, Address, hexToBytes } from '@ethereumjs/util'
import { Interface } from 'ethers'
import { describe, expect, it } from 'vitest'
import { evmPatchStatus } from '../../../../src/engine/exec/evmPatches.js'
import { contracts } from '../../../helpers/testNode.js'

/*
 * The runtime patches of ethereumjs (src/engine/exec/evmPatches.ts). Each applies only to the exact
 * method source it was written for: after an ethereumjs upgrade the first test names the patch
 * whose method changed; re-check the patch against the new source, then its fingerprint.
 */

const hex = (h: string) => hexToBytes(h as `0x${string}`)

describe('evmPatches', () => {
  it('every patch applies to the installed ethereumjs', () => {
    expect(evmPatchStatus).toEqual({ 'jump analysis cache': 'applied', 'EIP lookup table': 'applied', 'lazy runState': 'applied', 'frame spread': 'applied', 'REVERT step within memory': 'applied' })
  })

  it('the rebuilt _executeCall answers as the original (which runs under DEBUG)', async () => {
    const evm = await createEVM()
    const probe = new Interface(contracts.contracts.Probe.abi as never)
    const to = new Address(new Uint8Array(20).fill(0x55))
    const caller = new Address(new Uint8Array(20).fill(0x56))
    await evm.stateManager.putAccount(caller, new Account(0n, 10n ** 18n))
    await evm.stateManager.putAccount(to, new Account())
    await evm.stateManager.putCode(to, hex(contracts.contracts.Probe.deployedBytecode))
    const calls: [Address, string, bigint][] = [
      ...['set', 'fail', 'panic', 'burn', 'transient'].map((f): [Address, string, bigint] => [to, probe.encodeFunctionData(f, f === 'fail' ? ['why'] : f === 'panic' ? [] : [7n]), 0n]),
      [to, probe.encodeFunctionData('set', [1n]), 1n],
      [new Address(new Uint8Array(20).fill(0x57)), '0x', 5n],
    ]
    // DEBUG is read-only in the typings; ethereumjs itself sets it from the environment.
    const flags = evm as unknown as { DEBUG: boolean }
    const run = async ([target, data, value]: [Address, string, bigint], debug: boolean) => {
      flags.DEBUG = debug
      evm.journal.cleanJournal() // no slot stays warm from the run before
      await evm.stateManager.checkpoint()
      try {
        const { execResult: r } = await evm.runCall({ to: target, caller, data: hex(data), gasLimit: 200_000n, value })
        return { ret: r.returnValue, error: r.exceptionError?.error, gas: r.executionGasUsed, refund: r.gasRefund, logs: r.logs }
      } finally {
        await evm.stateManager.revert()
        flags.DEBUG = false
      }
    }
    for (const call of calls) expect(await run(call, false)).toEqual(await run(call, true))
  })

  it('isActivatedEIP answers as the array search did, across hardfork changes', () => {
    const common = new Common({ chain: Mainnet, hardfork: 'chainstart' })
    const searched = (eip: number) => (common as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache.includes(eip)
    for (const hf of ['chainstart', 'berlin', 'london', 'shanghai', 'cancun', 'prague', 'osaka', 'berlin', 'london']) {
      common.setHardfork(hf)
      for (let eip = 0; eip < 9000; eip++) if (common.isActivatedEIP(eip) !== searched(eip)) throw new Error(`EIP-${eip} at ${hf}`)
    }
    expect(common.isActivatedEIP(1559)).toBe(true)
    expect(common.isActivatedEIP(99999)).toBe(false)
  })

  it('the jump analysis is reused for the same code and never for other code of the same length and ends', async () => {
    const evm = await createEVM()
    // PUSH1 0x40, JUMP; a JUMPDEST at 0x40 (or, moved, at 0x41); 120 bytes, so both codes have the same length and ends.
    const code = (at: number) => {
      const c = new Uint8Array(120)
      c.set([0x60, 0x40, 0x56])
      c[at] = 0x5b
      return c
    }
    const run = async (c: Uint8Array) => {
      const to = new Address(new Uint8Array(20).fill(0x33))
      await evm.stateManager.putAccount(to, new Account())
      await evm.stateManager.putCode(to, c)
      return (await evm.runCall({ to, gasLimit: 100_000n })).execResult
    }
    const a = code(0x40)
    const first = await run(a)
    expect(first.exceptionError).toBeUndefined()
    // A copy of the same code: the cached analysis; a code differing inside (the JUMPDEST moved): its own.
    expect((await run(a.slice())).exceptionError).toBeUndefined()
    const moved = code(0x41)
    expect((await run(moved)).exceptionError?.error).toMatch(/^invalid JUMP/)
  })

  it('a frame result still carries its run state when read', async () => {
    const evm = await createEVM()
    const to = new Address(new Uint8Array(20).fill(0x44))
    await evm.stateManager.putAccount(to, new Account())
    await evm.stateManager.putCode(to, hex(contracts.contracts.Probe.deployedBytecode))
    const res = await evm.runCall({ to, data: hex(new Interface(contracts.contracts.Probe.abi as never).encodeFunctionData('stored')), gasLimit: 100_000n })
    const runState = res.execResult.runState as unknown as { gasLeft: bigint; address: Address; logs: unknown[] }
    expect(runState.address.equals(to)).toBe(true)
    expect(runState.gasLeft).toBe(res.execResult.gas)
    expect(runState.logs).toEqual([])
  })
})

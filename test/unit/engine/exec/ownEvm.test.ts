import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { CallResult } from '../../../../src/engine/exec/directCall.js'
import { OwnEvm } from '../../../../src/engine/exec/ownEvm.js'
import { chainCommon } from '../../../../src/engine/rules/chainCommon.js'
import type { EvmResult } from '../../../../src/evm/types.js'
import { MemoryState } from '../../../helpers/memoryState.js'

const log = pino({ level: 'silent' })
const common = chainCommon(43112n)
const emptyChanges = () => ({ accounts: new Map(), storage: new Map(), cleared: new Set<string>(), codes: new Map() })
const ours = (returnData: Uint8Array): EvmResult => ({ returnData, executionGasUsed: 100n, gasRefund: 0n, logs: [], changes: emptyChanges(), accessed: new Map() })
const theirs = (returnValue: Uint8Array): CallResult => ({ execResult: { returnValue, executionGasUsed: 100n, gasRefund: 0n, logs: [] } as never, totalGasSpent: 21_100n, gasRefund: 0n })

describe('OwnEvm', () => {
  it("serves a chain's calls only when asked and when its rules are the interpreter's", () => {
    expect(OwnEvm.for({ common: common, warp: undefined, subnetEvm: undefined }, { interpreter: 'own', oracle: false }, log)).toBeInstanceOf(OwnEvm)
    expect(OwnEvm.for({ common: common, warp: undefined, subnetEvm: undefined }, { interpreter: 'ethereumjs', oracle: true }, log)).toBeUndefined()
    const prague = createCustomCommon({ chainId: 43112 }, Mainnet, { hardfork: 'prague' })
    expect(OwnEvm.for({ common: prague, warp: undefined, subnetEvm: undefined }, { interpreter: 'own', oracle: false }, log)).toBeUndefined()
    // A subnet-evm chain's stateful precompiles write state: ethereumjs runs its calls.
    expect(OwnEvm.for({ common: common, warp: undefined, subnetEvm: {} as never }, { interpreter: 'own', oracle: false }, log)).toBeUndefined()
  })

  it('counts a comparison, and a difference with the call it came from', async () => {
    const own = OwnEvm.for({ common: common, warp: undefined, subnetEvm: undefined }, { interpreter: 'own', oracle: true }, log)!
    const state = new MemoryState(new Map())
    await own.compare(ours(new Uint8Array([1])), theirs(new Uint8Array([1])), emptyChanges(), state, () => 'same')
    expect(own.counts).toMatchObject({ compared: 1, differing: 0 })
    await own.compare(ours(new Uint8Array([1])), theirs(new Uint8Array([2])), emptyChanges(), state, () => 'call X')
    expect(own.counts).toMatchObject({ compared: 2, differing: 1 })
    expect(own.recent).toEqual([expect.stringMatching(/^call X: returnData: ours 0x01, theirs 0x02/)])
  })

  it('keeps a call whose gas its counters cannot hold for ethereumjs', () => {
    const own = OwnEvm.for({ common: common, warp: undefined, subnetEvm: undefined }, { interpreter: 'own', oracle: false }, log)!
    const msg = (gasLimit: bigint) => ({ gasLimit, to: new Address(new Uint8Array(20)), value: 0n, data: new Uint8Array(), getIntrinsicGas: () => 21_000n })
    expect(own.serves(msg(30_000_000n))).toBe(true)
    expect(own.serves(msg(1n << 60n))).toBe(false)
  })
})

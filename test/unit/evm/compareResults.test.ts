import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { type PriorState, compareResults } from '../../../src/evm/compareResults.js'
import type { EvmResult, EvmStateChanges } from '../../../src/evm/types.js'

/* The oracle's comparison: fields by name, state by its effect on the pre-state. */

const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const SLOT = '00'.repeat(31) + '01'
const HAS_STORAGE = new Uint8Array(32).fill(7)

function changes(part: Partial<EvmStateChanges> = {}): EvmStateChanges {
  return { accounts: new Map(), storage: new Map(), cleared: new Set(), codes: new Map(), ...part }
}

function result(part: Partial<EvmResult> = {}): EvmResult {
  return { returnData: new Uint8Array(0), executionGasUsed: 21n, gasRefund: 0n, logs: [], changes: changes(), accessed: new Map(), ...part }
}

const prior: PriorState = {
  account: (address) => (address === A ? new Account(1n, 100n, HAS_STORAGE, KECCAK256_NULL) : undefined),
  slot: (address, slot) => (address === A && slot === SLOT ? Uint8Array.of(5) : new Uint8Array(0)),
}

describe('compareResults', () => {
  it('answers nothing for equal results, and names each differing field', () => {
    expect(compareResults(result(), result())).toEqual([])
    const lines = compareResults(result({ returnData: Uint8Array.of(1), executionGasUsed: 22n, error: 'revert' }), result())
    expect(lines.map((line) => line.split(':')[0])).toEqual(['error', 'returnData', 'executionGasUsed'])
  })

  it('takes an invalid JUMP for one kind of error wherever it was', () => {
    expect(compareResults(result({ error: 'invalid JUMP at 0x12/0xaa:3' }), result({ error: 'invalid JUMP' }))).toEqual([])
  })

  it("compares where a halt happened as far as geth's text reads it, when both EVMs say", () => {
    const fault = (op: number, stackLen: number, returnDataOutOfBounds = false) => ({ op, stackLen, returnDataOutOfBounds })
    const underflow = (f: ReturnType<typeof fault>) => result({ error: 'stack underflow', fault: f })
    expect(compareResults(underflow(fault(0x01, 1)), underflow(fault(0x01, 1)))).toEqual([])
    expect(compareResults(underflow(fault(0x01, 1)), underflow(fault(0x01, 0)))).toEqual(['fault: ours opcode 0x1, stack 1, theirs opcode 0x1, stack 0'])
    const oog = (oob: boolean) => result({ error: 'out of gas', fault: fault(0x3e, 3, oob) })
    expect(compareResults(oog(true), oog(false))).toEqual(['fault: ours return data out of bounds, theirs out of gas'])
    // A bad jump's text names no place; a side without a fault (an unpatched ethereumjs) is not compared.
    expect(compareResults(result({ error: 'invalid JUMP', fault: fault(0x56, 1) }), result({ error: 'invalid JUMP', fault: fault(0x02, 0) }))).toEqual([])
    expect(compareResults(underflow(fault(0x01, 1)), result({ error: 'stack underflow' }))).toEqual([])
  })

  it('compares logs in order', () => {
    const log = (n: number) => ({ address: new Uint8Array(20), topics: [Uint8Array.of(n)], data: new Uint8Array(0) })
    expect(compareResults(result({ logs: [log(1), log(2)] }), result({ logs: [log(2), log(1)] }))).toHaveLength(2)
    expect(compareResults(result({ logs: [log(1)] }), result({ logs: [] }))[0]).toMatch(/^logs: ours 1, theirs 0/)
  })

  it('sees no difference in a write of the value already there', () => {
    const rewritten = changes({ accounts: new Map([[A, new Account(1n, 100n, HAS_STORAGE, KECCAK256_NULL)]]), storage: new Map([[A, new Map([[SLOT, Uint8Array.of(0, 5)]])]]) })
    expect(compareResults(result({ changes: rewritten }), result(), prior)).toEqual([])
    const changed = changes({ storage: new Map([[A, new Map([[SLOT, Uint8Array.of(6)]])]]) })
    expect(compareResults(result({ changes: changed }), result(), prior)).toEqual([`storage ${A}[${SLOT}]: ours 0x06, theirs 0x05`])
  })

  it('takes an empty account for an absent one (EIP-161 deletes it when touched)', () => {
    const touched = changes({ accounts: new Map([[B, new Account(0n, 0n, KECCAK256_RLP, KECCAK256_NULL)]]) })
    expect(compareResults(result({ changes: touched }), result({ changes: changes({ accounts: new Map([[B, null]]) }) }), prior)).toEqual([])
    const funded = changes({ accounts: new Map([[B, new Account(0n, 1n)]]) })
    expect(compareResults(result({ changes: funded }), result(), prior)[0]).toMatch(new RegExp(`^account ${B}: ours \\{nonce 0, balance 1`))
  })

  it('reports a storage wipe on one side of an account that had storage', () => {
    const wiped = changes({ accounts: new Map([[A, null]]), cleared: new Set([A]) })
    const lines = compareResults(result({ changes: wiped }), result(), prior)
    expect(lines).toContain(`storage of ${A}: ours alone wiped it`)
  })

  it('wants new code in both results', () => {
    const code = new Uint8Array([0x00])
    const hash = 'bc36789e7a1e281436464229828f817d6612f7b477d66591ff96a9e064bcc98a'
    const account = new Account(1n, 0n, KECCAK256_RLP, Uint8Array.from(Buffer.from(hash, 'hex')))
    const withCode = changes({ accounts: new Map([[B, account]]), codes: new Map([[hash, code]]) })
    const without = changes({ accounts: new Map([[B, account]]) })
    expect(compareResults(result({ changes: withCode }), result({ changes: without }))).toEqual([`code ${hash} of ${B}: in ours only`])
  })

  it('compares the accessed addresses and slots', () => {
    const accessed = new Map([[A, new Set([SLOT])]])
    expect(compareResults(result({ accessed }), result({ accessed: new Map([[A, new Set()]]) }))).toEqual([`accessed ${A}[${SLOT}]: ours only`])
  })
})

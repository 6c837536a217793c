import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { GasLedger, availFor } from '../../../src/evm/gasLedger.js'
import { type Case, type PreAccount, addr, asm, runOurs } from '../../helpers/evmDiff.js'

/*
 * The gas ledger (src/evm/gasLedger.ts) against the runs it stands for: a message runs once with
 * plenty of gas and a ledger, then again at every limit near what it needed; wherever the ledger
 * names an outcome, the run must have it (and a success must be the same course: the same gas used,
 * the same return data). eth_estimateGas skips the runs the ledger proves.
 */

const ALICE = hexToBytes(addr(0xa11ce) as `0x${string}`)
const A = addr(0xaaaa)
const B = addr(0xbbbb)
const E = addr(0xeeee)
const CHEAP = addr(0xcccc)
const TOP = 1_000_000n

function message(code: string, pre: Record<string, PreAccount> = {}, gasLimit = TOP): Case {
  return {
    pre: { [bytesToHex(ALICE)]: { balance: 10n ** 20n }, [A]: { code: asm(code), balance: 10n ** 18n }, ...pre },
    msg: { caller: ALICE, to: hexToBytes(A as `0x${string}`), gasLimit, skipNonceIncrement: true },
  }
}

const callee = { code: asm('PUSH1 1 PUSH0 SSTORE PUSH1 2 PUSH1 1 SSTORE PUSH2 0x0400 PUSH0 KECCAK256 POP STOP') }
// 0x4000 bytes hashed ten times: about 33,000 gas.
const burner = { code: asm(`${'PUSH2 0x4000 PUSH0 KECCAK256 POP '.repeat(10)}STOP`) }
const cheap = { code: asm('PUSH0 SLOAD POP STOP') }
const call = (to: string, gas: string, value = 'PUSH0') => `PUSH0 PUSH0 PUSH0 PUSH0 ${value} PUSH20 ${to} ${gas} CALL`

const cases: [string, Case, boolean][] = [
  ['storage and a log', message('PUSH1 7 PUSH0 SSTORE PUSH1 32 PUSH0 LOG0 STOP'), true],
  ['a second SSTORE to a dirty slot (the 2 300 sentry binds, not its price)', message('PUSH1 1 PUSH0 SSTORE PUSH1 2 PUSH0 SSTORE STOP'), true],
  ['a call with all the gas (GAS then CALL), then storage', message(`${call(B, 'GAS')} POP PUSH1 7 PUSH1 5 SSTORE STOP`, { [B]: callee }), true],
  ['a call with a fixed 60,000', message(`${call(B, 'PUSH3 60000')} POP PUSH1 1 PUSH1 9 SSTORE STOP`, { [B]: callee }), true],
  ['a call whose failure is ignored (it runs out below some limit)', message(`${call(E, 'GAS')} POP PUSH1 1 PUSH0 SSTORE STOP`, { [E]: burner }), true],
  ['a value call on the stipend alone', message(`${call(CHEAP, 'PUSH0', 'PUSH1 1')} POP STOP`, { [CHEAP]: cheap }), true],
  ['a precompile (SHA-256) with all the gas', message('PUSH1 32 PUSH0 PUSH1 64 PUSH0 PUSH0 PUSH1 2 GAS CALL POP STOP'), true],
  ['CREATE of code that stores and returns a byte', message('PUSH10 0x600160005560016000f3 PUSH0 MSTORE PUSH1 10 PUSH1 22 PUSH0 CREATE POP STOP'), true],
  ['a nested call two deep with all the gas', message(`${call(B, 'GAS')} POP STOP`, { [B]: { code: asm(`${call(E, 'GAS')} POP PUSH1 3 PUSH0 SSTORE STOP`) }, [E]: callee }), true],
  ['GAS stored (it may steer the run: nothing proven)', message('GAS PUSH0 SSTORE STOP'), false],
  ['a call given too little, which runs out (it took all it had: nothing proven)', message(`${call(B, 'PUSH2 30000')} POP STOP`, { [B]: callee }), false],
]

describe('GasLedger: what one run proves of the same message with less gas', () => {
  it('availFor is the least gas left that forwards a need through EIP-150', () => {
    for (const need of [0, 1, 63, 64, 2300, 21_000, 123_457, 5_000_000]) {
      const a = availFor(need)
      expect(a - Math.floor(a / 64)).toBeGreaterThanOrEqual(need)
      if (a > 0) expect(a - 1 - Math.floor((a - 1) / 64)).toBeLessThan(need)
    }
  })

  it.each(cases)('%s', async (_name, c, provable) => {
    const ledger = new GasLedger()
    const top = await runOurs({ ...c, msg: { ...c.msg, gasLimit: TOP, gasLedger: ledger } })
    expect(top.error).toBeUndefined()
    expect(ledger.opaque).toBe(!provable)
    const used = Number(top.executionGasUsed)
    let proven = 0
    for (let gas = Math.max(0, used - 300); gas < used + 6000; gas += 7) {
      const predicted = ledger.outcome(gas)
      if (predicted === undefined) continue
      proven++
      const r = await runOurs({ ...c, msg: { ...c.msg, gasLimit: BigInt(gas) } })
      expect(r.error === undefined, `at ${gas}: predicted ${predicted}, ran ${r.error ?? 'to success'}`).toBe(predicted)
      if (predicted) expect([r.executionGasUsed, bytesToHex(r.returnData)]).toEqual([top.executionGasUsed, bytesToHex(top.returnData)])
    }
    if (provable) expect(proven).toBeGreaterThan(0)
    else expect(proven).toBe(0)
  })
})

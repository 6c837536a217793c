import type { Common } from '@ethereumjs/common'
import { type TypedTransaction, createTx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { runBlockTx } from '../../../src/engine/exec/impersonatedTx.js'
import { describe, expect, it } from 'vitest'
import { chainCommon } from '../../../src/engine/rules/chainCommon.js'
import { type EvmRules, evmRules } from '../../../src/evm/evmRules.js'
import { InvalidTransactionError, intrinsicGas, runTransaction } from '../../../src/evm/runTransaction.js'
import { type PreAccount, buildPreState, cancunCommon, envBlock, evmBlock, fillerBlockHash } from '../../../scripts/stateTests/fixture.js'
import { applyChanges, evmTransaction } from '../../../scripts/stateTests/interpreter.js'

/*
 * runTransaction against ethereumjs's runTx on hand-built transactions: the gas used, the refund and
 * the state root after it, or the rejection of an invalid one by both. The ethereum/tests state tests
 * (npm run suite:ethereum-tests, docs/EVM.md) cover far more; these name the transaction-level rules.
 */

const common = cancunCommon()
const rules = evmRules(common)!
const KEY = hexToBytes('0x45a915e4d060149eb4365960e6a7a45f334393093061116b197e3240065ff2d8')
const SENDER = bytesToHex(privateToAddress(KEY))
const CONTRACT = '0x00000000000000000000000000000000000c0de0'
const COINBASE = '0x2adc25665018aa1fe0e6bc666dac8fc2697ff9ba'
const ENV = { currentNumber: '0x01', currentTimestamp: '0x03e8', currentCoinbase: COINBASE, currentGasLimit: '0x05f5e100', currentBaseFee: '0x0a', currentExcessBlobGas: '0x00' }

// The contract clears slot 1 (a refund of 4800 against the tx's gas) and logs CALLVALUE.
const PRE: Record<string, PreAccount> = {
  [SENDER]: { balance: '0x3635c9adc5dea00000', nonce: '0x00', code: '0x', storage: {} },
  [CONTRACT]: { balance: '0x00', nonce: '0x00', code: '0x5f6001553460005260206000a000', storage: { '0x01': '0x01' } },
}

type TxFields = Parameters<typeof createTx>[0]

function signed(fields: TxFields): TypedTransaction {
  return createTx({ nonce: 0n, gasLimit: 100_000n, ...fields }, { common }).sign(KEY)
}

/** The same transaction on both engines (under `c`'s rules): what each leaves, or why each rejected it. */
async function both(tx: TypedTransaction, c: Common = common, r: EvmRules = rules) {
  const block = envBlock(ENV, c)
  const theirs = await buildPreState(PRE, c)
  const vm = await createVM({ common: c, stateManager: theirs })
  // runBlockTx: runTx with what a chain's rules add to it (coreth credits the coinbase the base fee too).
  const ejs = await runBlockTx(vm, { tx, block }).then(
    (r) => ({ gasUsed: r.totalGasSpent, refund: r.gasRefund, logs: r.execResult.logs?.length ?? 0 }),
    (e: Error) => ({ rejected: e.message }),
  )
  const ours = await buildPreState(PRE, c)
  const host = { blockHash: async (n: bigint) => fillerBlockHash(n) }
  const mine = await runTransaction(r, ours, host, evmTransaction(tx, evmBlock(block))).then(
    async (r) => {
      await applyChanges(ours, r.changes)
      return { gasUsed: r.gasUsed, refund: r.gasRefund, logs: r.logs.length }
    },
    (e: Error) => {
      expect(e).toBeInstanceOf(InvalidTransactionError)
      return { rejected: e.message }
    },
  )
  return { ejs, mine, roots: [bytesToHex(await theirs.getStateRoot()), bytesToHex(await ours.getStateRoot())] }
}

async function expectSame(fields: TxFields) {
  const { ejs, mine, roots } = await both(signed(fields))
  const said = (r: typeof ejs) => ('rejected' in r ? `rejected: ${r.rejected}` : 'ran')
  expect(said(mine).startsWith('ran'), `ours ${said(mine)}; ethereumjs ${said(ejs)}`).toBe(said(ejs).startsWith('ran'))
  if (!('rejected' in mine)) expect(mine).toEqual(ejs)
  expect(roots[1]).toBe(roots[0])
  return mine
}

describe('runTransaction', () => {
  it('charges the intrinsic gas of calldata, creation, initcode words and the access list', () => {
    const data = new Uint8Array([0, 1, 0, 2])
    expect(intrinsicGas(rules, { to: new Uint8Array(20), data })).toBe(21000n + 2n * 4n + 2n * 16n)
    expect(intrinsicGas(rules, { to: undefined, data })).toBe(21000n + 40n + 32000n + 2n)
    const accessList: [Uint8Array, Uint8Array[]][] = [[new Uint8Array(20), [new Uint8Array(32), new Uint8Array(32)]]]
    expect(intrinsicGas(rules, { to: new Uint8Array(20), data: new Uint8Array(0), accessList })).toBe(21000n + 2400n + 2n * 1900n)
  })

  it('runs a legacy call with a refund, a log and the fee to the coinbase as runTx does', async () => {
    const r = await expectSame({ to: CONTRACT, value: 5n, gasPrice: 12n })
    expect(r).toMatchObject({ refund: 4800n, logs: 1 })
  })

  it('runs an EIP-1559 call with an access list and a priority fee capped by the fee cap', async () => {
    await expectSame({ type: 2, to: CONTRACT, maxFeePerGas: 13n, maxPriorityFeePerGas: 5n, accessList: [{ address: CONTRACT, storageKeys: [`0x${'00'.repeat(31)}01`] }] })
  })

  it('runs a creation, and one whose initcode reverts', async () => {
    await expectSame({ to: undefined, data: '0x600160005560016000f3', gasPrice: 10n })
    await expectSame({ to: undefined, data: '0x60006000fd', gasPrice: 10n })
  })

  it('pays a transfer to a new account and to the coinbase itself', async () => {
    await expectSame({ to: '0x00000000000000000000000000000000000000aa', value: 1n, gasPrice: 10n })
    await expectSame({ to: COINBASE, value: 1n, gasPrice: 10n })
  })

  it('rejects what runTx rejects, changing nothing', async () => {
    const invalid: TxFields[] = [
      { to: CONTRACT, gasPrice: 10n, nonce: 1n },
      { to: CONTRACT, gasPrice: 9n },
      { to: CONTRACT, gasPrice: 10n, gasLimit: 20_999n },
      { to: CONTRACT, gasPrice: 10n, gasLimit: 100_000_001n },
      { to: CONTRACT, gasPrice: 10n ** 18n },
      { to: CONTRACT, gasPrice: 10n, value: 10n ** 30n },
    ]
    for (const fields of invalid) expect(await expectSame(fields)).toHaveProperty('rejected')
  })

  it('rejects initcode over the EIP-3860 limit', async () => {
    const tx = createTx({ to: undefined, data: new Uint8Array(49153), gasLimit: 10_000_000n, gasPrice: 10n }, { common, allowUnlimitedInitCodeSize: true }).sign(KEY)
    const { mine } = await both(tx)
    expect(mine).toMatchObject({ rejected: expect.stringContaining('EIP-3860') })
  })
})

describe("runTransaction under coreth's rules", () => {
  // coreth applies the refund counter only before Apricot Phase 1 (core/state_transition.go refundGas);
  // every chain here is past it: the clearing SSTORE's 4800 stays spent, on both engines.
  const coreth = chainCommon(1n)
  const corethRules = evmRules(coreth)!

  it('keeps no refund: the gas used is the gas spent, the state root the same on both engines', async () => {
    const tx = signed({ to: CONTRACT, value: 5n, gasPrice: 12n })
    const mainnet = await both(tx)
    const { ejs, mine, roots } = await both(tx, coreth, corethRules)
    expect(mainnet.mine).toMatchObject({ refund: 4800n })
    expect(mine).toMatchObject({ refund: 0n, gasUsed: (mainnet.mine as { gasUsed: bigint }).gasUsed + 4800n })
    expect((ejs as { gasUsed: bigint }).gasUsed).toBe((mine as { gasUsed: bigint }).gasUsed)
    expect(roots[1]).toBe(roots[0])
    expect(roots[0]).not.toBe(mainnet.roots[0])
  })
})

import { createBlock } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { type TypedTransaction, createTx } from '@ethereumjs/tx'
import { Account, Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { type VM, createVM, runTx } from '@ethereumjs/vm'
import { Interface, keccak256 } from 'ethers'
import { beforeAll, describe, expect, it } from 'vitest'
import { type CallResult, directCallSupported, messageCall, runDirectCall } from '../../../../src/engine/exec/directCall.js'
import { EvmGuard } from '../../../../src/engine/exec/evmGuard.js'
import { translateRunError } from '../../../../src/engine/exec/executor.js'
import { contracts } from '../../../helpers/testNode.js'

/*
 * runDirectCall stands in for runTx on eth_call's fee-less calls (src/engine/exec/directCall.ts): each
 * call here runs both ways on the same state, and everything the node reads of the result must
 * be the same (return data, error, gas used, refund, reported access list).
 */

const hex = (h: string) => hexToBytes(h as `0x${string}`)
const addr = (byte: number) => new Address(new Uint8Array(20).fill(byte))
const token = new Interface(contracts.contracts.TestToken.abi as never)
const probe = new Interface(contracts.contracts.Probe.abi as never)
const TOKEN = addr(0x70)
const PROBE = addr(0x71)
const RICH = addr(0x11)
const POOR = addr(0x12)
const COINBASE = addr(0xc0)
/** BALANCE of COINBASE, CALLER and ADDRESS, then STOP: gas that tells warm (EIP-2929/3651) from cold. */
const WARMTH = addr(0x72)

let vm: VM
const common = createCustomCommon({ chainId: 43112, name: 'direct-call-test' }, Mainnet, { hardfork: 'cancun' })
const block = createBlock({ header: { number: 7n, timestamp: 1_700_000_000n, gasLimit: 30_000_000n, baseFeePerGas: 0n, coinbase: COINBASE } }, { common })

beforeAll(async () => {
  vm = await createVM({ common, evmOpts: { customOpcodes: new EvmGuard().opcodes } })
  const sm = vm.stateManager
  await sm.putAccount(RICH, new Account(3n, 10n ** 21n))
  await sm.putAccount(TOKEN, new Account())
  await sm.putCode(TOKEN, hex(contracts.contracts.TestToken.deployedBytecode))
  const balanceSlot = hex(keccak256(bytesToHex(setLengthLeft(RICH.bytes, 32)) + '0'.repeat(63) + '1'))
  await sm.putStorage(TOKEN, setLengthLeft(new Uint8Array(), 32), hex('0x0de0b6b3a7640000'))
  await sm.putStorage(TOKEN, balanceSlot, hex('0x0de0b6b3a7640000'))
  await sm.putAccount(PROBE, new Account())
  await sm.putCode(PROBE, hex(contracts.contracts.Probe.deployedBytecode))
  await sm.putStorage(PROBE, setLengthLeft(new Uint8Array(), 32), hex('0x05'))
  await sm.putAccount(WARMTH, new Account())
  await sm.putCode(WARMTH, hex('0x41315033315030315000'))
})

type Req = { from?: Address; to?: Address; data?: string; value?: bigint; gas?: bigint; accessList?: [Uint8Array, Uint8Array[]][] }

function makeTx(r: Req): TypedTransaction {
  const base = { nonce: 0n, gasLimit: r.gas ?? 5_000_000n, to: r.to, value: r.value ?? 0n, data: hex(r.data ?? '0x') }
  const tx =
    r.accessList !== undefined
      ? createTx({ ...base, type: 2, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, accessList: r.accessList, chainId: 43112n }, { common, freeze: false })
      : createTx({ ...base, type: 0, gasPrice: 0n }, { common, freeze: false })
  const from = r.from ?? RICH
  ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => from
  return tx
}

/** Runs `r` one way on the current state and reverts it; an error is returned as its geth text. */
async function once(r: Req, direct: boolean, message = false): Promise<CallResult | string> {
  await vm.stateManager.checkpoint()
  try {
    const tx = makeTx(r)
    const report = r.accessList !== undefined
    // messageCall: the executor's stand-in for a plain call's transaction.
    if (message) return await runDirectCall(vm.evm, messageCall(tx.common, r.to!, tx.gasLimit, tx.value, tx.data), r.from ?? RICH, block, report)
    if (direct) return await runDirectCall(vm.evm, tx, r.from ?? RICH, block, report)
    return await runTx(vm, { tx, block, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true, reportAccessList: report })
  } catch (err) {
    return translateRunError(err).message
  } finally {
    await vm.stateManager.revert()
  }
}

function seen(out: CallResult | string) {
  if (typeof out === 'string') return out
  const e = out.execResult
  return { returnValue: bytesToHex(e.returnValue), error: e.exceptionError?.error, gasUsed: out.totalGasSpent, refund: e.gasRefund, logs: e.logs?.length ?? 0, accessList: out.accessList }
}

async function same(r: Req) {
  const viaTx = seen(await once(r, false))
  const direct = seen(await once(r, true))
  expect(direct).toEqual(viaTx)
  if (r.to !== undefined && r.accessList === undefined) expect(seen(await once(r, true, true))).toEqual(viaTx)
  return direct
}

describe('runDirectCall answers as runTx does', () => {
  it('is used on the C-Chain fork', () => {
    expect(directCallSupported(common)).toBe(true)
    expect(directCallSupported(createCustomCommon({ chainId: 1 }, Mainnet, { hardfork: 'prague' }))).toBe(false)
  })

  it('views, a known and an unknown holder', async () => {
    expect(await same({ to: TOKEN, data: token.encodeFunctionData('balanceOf', [RICH.toString()]) })).toMatchObject({
      returnValue: '0x0000000000000000000000000000000000000000000000000de0b6b3a7640000',
    })
    await same({ to: TOKEN, data: token.encodeFunctionData('balanceOf', [POOR.toString()]) })
    await same({ to: PROBE, data: probe.encodeFunctionData('context') })
    await same({ to: WARMTH })
  })

  it('writes, events, refunds (SSTORE clearing a slot) and the refund cap', async () => {
    await same({ to: TOKEN, data: token.encodeFunctionData('transfer', [POOR.toString(), 5n]) })
    const cleared = await same({ to: PROBE, data: probe.encodeFunctionData('set', [0n]) })
    expect(typeof cleared !== 'string' && cleared.refund).toBeGreaterThan(0n)
    await same({ to: PROBE, data: probe.encodeFunctionData('burn', [200n]) })
    await same({ to: PROBE, data: probe.encodeFunctionData('transient', [9n]) })
  })

  it('reverts, panics, out of gas', async () => {
    expect(await same({ from: POOR, to: TOKEN, data: token.encodeFunctionData('transfer', [RICH.toString(), 5n]) })).toMatchObject({ error: 'revert' })
    await same({ to: PROBE, data: probe.encodeFunctionData('fail', ['no']) })
    await same({ to: PROBE, data: probe.encodeFunctionData('failPlain') })
    await same({ to: PROBE, data: probe.encodeFunctionData('panic') })
    expect(await same({ to: PROBE, data: probe.encodeFunctionData('burn', [500n]), gas: 60_000n })).toMatchObject({ error: 'out of gas' })
  })

  it('intrinsic gas too low: the same error', async () => {
    expect(await same({ to: PROBE, data: probe.encodeFunctionData('stored'), gas: 21_000n })).toBe('intrinsic gas too low: have 21000, want 21064')
  })

  it('creations, value transfers, calls to nothing', async () => {
    const deploy = contracts.contracts.Probe.bytecode
    await same({ data: deploy })
    await same({ data: deploy, gas: 60_000n })
    await same({ to: POOR, value: 7n })
    await same({ to: addr(0x99) })
    await same({ to: addr(0x01), data: '0x1234' })
  })

  it('access lists: warmed and reported alike', async () => {
    const slot = new Uint8Array(32)
    await same({ to: PROBE, data: probe.encodeFunctionData('set', [3n]), accessList: [] })
    await same({ to: PROBE, data: probe.encodeFunctionData('set', [3n]), accessList: [[PROBE.bytes, [slot]]] })
    await same({ to: TOKEN, data: token.encodeFunctionData('transfer', [POOR.toString(), 1n]), accessList: [[addr(0x42).bytes, [slot, new Uint8Array(32).fill(1)]]] })
  })
})

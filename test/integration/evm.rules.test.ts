import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEE_CAP, ewoq, send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * coreth's own EVM rules where they differ from geth's (docs/EVM.md, "The C-Chain's rules"): no gas
 * refunds since Apricot Phase 1 (coreth core/state_transition.go, refundGas). A clearing SSTORE's
 * EIP-3529 refund of 4800 is counted by the EVM and kept by nobody: the receipt, the sender's
 * balance, the block's gasUsed, the estimate and the traces all show the gas spent.
 */

// Runtime: PUSH1 0 PUSH1 0 SSTORE STOP, clearing slot 0 (3 + 3 + 5000 gas: a cold slot reset, EIP-2929/2200).
const RUNTIME = '600060005500'
// Creation: slot 0 = 1, then return RUNTIME (MSTORE puts the 6 bytes at 26..31).
const INITCODE = `0x6001600055${'65' + RUNTIME}6000526006601af3`
/** 21000 + 3 + 3 + 5000: what coreth charges for the clearing call. */
const CORETH_GAS = 26_006n
/** EIP-3529's refund for clearing a slot, which geth (and the node before) took off: 21,206. */
const REFUND = 4_800n

describe("coreth's EVM rules: no gas refunds", () => {
  let node: TestNode
  let contract: string
  beforeAll(async () => {
    node = await startTestNode()
    const { receipt } = await send(node, { data: INITCODE, gasLimit: 100_000n })
    contract = receipt.contractAddress
    expect(await node.call('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(`0x${'0'.repeat(63)}1`)
  })
  afterAll(() => node.close())

  it('eth_call and eth_estimateGas of the clearing call: the gas it spends, not less', async () => {
    const call = { from: ewoq.address, to: contract }
    // One gas short of the SSTORE's 5000 after the pushes: out of gas.
    const short = await node.rpc('eth_call', [{ ...call, gas: `0x${(CORETH_GAS - 1n).toString(16)}` }, 'latest'])
    expect(short.error?.message).toBe('out of gas')
    expect(await node.call('eth_call', [{ ...call, gas: `0x${CORETH_GAS.toString(16)}` }, 'latest'])).toBe('0x')
    const estimate = BigInt(await node.call('eth_estimateGas', [call]))
    expect(estimate).toBeGreaterThanOrEqual(CORETH_GAS)
    // geth's search stops within 1.5% of the answer.
    expect(estimate).toBeLessThan((CORETH_GAS * 1015n) / 1000n + 1n)
  })

  it('the receipt, the block and the sender pay 26,006 gas (geth refunds 4,800 of it: 21,206)', async () => {
    const before = BigInt(await node.call('eth_getBalance', [ewoq.address, 'latest']))
    const { hash, receipt } = await send(node, { to: contract, gasLimit: 100_000n, maxFeePerGas: FEE_CAP })
    expect(receipt.status).toBe('0x1')
    expect(BigInt(receipt.gasUsed)).toBe(CORETH_GAS)
    expect(BigInt(receipt.gasUsed)).not.toBe(CORETH_GAS - REFUND)
    expect(BigInt(receipt.cumulativeGasUsed)).toBe(CORETH_GAS)
    const block = await node.call('eth_getBlockByHash', [receipt.blockHash, false])
    expect(BigInt(block.gasUsed)).toBe(CORETH_GAS)
    const after = BigInt(await node.call('eth_getBalance', [ewoq.address, 'latest']))
    expect(before - after).toBe(CORETH_GAS * BigInt(receipt.effectiveGasPrice))
    expect(await node.call('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(`0x${'0'.repeat(64)}`)

    // Traces: the gas spent, and the EVM's refund counter as geth's struct logger shows it (counted, not kept).
    const calls = await node.call('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    expect(BigInt(calls.gasUsed)).toBe(CORETH_GAS)
    const steps = await node.call('debug_traceTransaction', [hash, {}])
    expect(BigInt(steps.gas)).toBe(CORETH_GAS)
    expect(steps.structLogs.at(-1)).toMatchObject({ op: 'STOP', refund: Number(REFUND) })
  })

  it('eth_simulateV1 charges the same', async () => {
    const [result] = await node.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: ewoq.address, to: contract, gas: '0x186a0' }] }] }, 'latest'])
    // The first contract's slot is clear: the call finds 0 and writes 0 (a warm no-op SSTORE: 2100 + 100).
    expect(BigInt(result.calls[0].gasUsed)).toBe(21_000n + 6n + 2_200n)
    const again = (await send(node, { data: INITCODE, gasLimit: 100_000n })).receipt.contractAddress
    const [fresh] = await node.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: ewoq.address, to: again, gas: '0x186a0' }] }] }, 'latest'])
    expect(BigInt(fresh.calls[0].gasUsed)).toBe(CORETH_GAS)
    expect(BigInt(fresh.gasUsed)).toBe(CORETH_GAS)
  })
})

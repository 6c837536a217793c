import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FEE_CAP, ewoq, send } from '../helpers/chain.js'
import { bothEvms } from '../helpers/bothEvms.js'
import { GRANITE, startTestNode, type TestNode } from '../helpers/testNode.js'

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
    node = await startTestNode({ chain: GRANITE })
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

/*
 * coreth's deprecated native-asset precompiles (Banff on: every chain here): 0x0100…0000 (the genesis
 * contract's address, also the blackhole coinbase), 0x0100…0001 (NativeAssetBalance) and 0x0100…0002
 * (NativeAssetCall) revert with no data and use none of the gas they are given; active, they are warm
 * from the transaction's start (coreth params/hooks_libevm.go, nativeasset DeprecatedContract).
 */
const NATIVE_ASSET = ['0x0100000000000000000000000000000000000000', '0x0100000000000000000000000000000000000001', '0x0100000000000000000000000000000000000002']
const WARP = '0x0200000000000000000000000000000000000005'

/**
 * Init code that CALLs `to` with 100,000 gas and no value between two GAS readings, and returns
 * [success, gas spent between the readings, RETURNDATASIZE]: 5 PUSH0 (10) + PUSH20 (3) + PUSH3 (3) +
 * the CALL + GAS (2); a warm address's CALL costs 100, a cold one's 2,600.
 */
const callProbe = (to: string) => `0x5a5f5f5f5f5f73${to.slice(2)}620186a0f15a82036020525f523d60405260605ff3`

/** The rules below, from both EVMs: one node each, for the file. */
const { nodes, interpreter } = bothEvms(GRANITE)

describe("coreth's EVM rules: the deprecated native-asset precompiles", () => {
  it('a call to each reverts with no data, from eth_call and eth_estimateGas', async () => {
    for (const [which, n] of nodes()) {
      for (const to of NATIVE_ASSET) {
        expect((await n.rpc('eth_call', [{ to, data: '0x1234' }, 'latest'])).error, `${which} ${to}`).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
        expect((await n.rpc('eth_estimateGas', [{ from: ewoq.address, to, value: '0x1' }])).error, `${which} ${to}`).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
      }
    }
  })

  it('a contract calling one: success 0, no return data, the 100,000 gas given back, the address warm (118 gas, not 2,618)', async () => {
    for (const [which, n] of nodes()) {
      for (const to of NATIVE_ASSET) {
        const out = await n.call('eth_call', [{ from: ewoq.address, data: callProbe(to), gas: '0x100000' }, 'latest'])
        expect([BigInt(out.slice(0, 66)), BigInt(`0x${out.slice(66, 130)}`), BigInt(`0x${out.slice(130, 194)}`)], `${which} ${to}`).toEqual([0n, 118n, 0n])
      }
      // An ordinary empty account beside them: cold, and the call succeeds.
      const other = await n.call('eth_call', [{ from: ewoq.address, data: callProbe('0x0100000000000000000000000000000000000003'), gas: '0x100000' }, 'latest'])
      expect([BigInt(other.slice(0, 66)), BigInt(`0x${other.slice(66, 130)}`)], which).toEqual([1n, 2_618n])
    }
    expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })
  })

  it('a transaction sending AVAX to NativeAssetCall fails in its block and keeps the value: status 0, 21,000 gas', async () => {
    for (const [which, n] of nodes()) {
      const to = NATIVE_ASSET[2]!
      const before = BigInt(await n.call('eth_getBalance', [to, 'latest']))
      const { receipt } = await send(n, { to, value: 10n ** 18n, gasLimit: 50_000n, maxFeePerGas: FEE_CAP }).catch((err) => {
        // A failed send is answered as hardhat node answers it (the transaction is still mined): its receipt.
        const hash = (err as { data?: { txHash?: string } }).data?.txHash
        if (hash === undefined) throw err
        return n.call('eth_getTransactionReceipt', [hash]).then((receipt) => ({ receipt }))
      })
      expect(receipt.status, which).toBe('0x0')
      expect(BigInt(receipt.gasUsed), which).toBe(21_000n)
      expect(BigInt(await n.call('eth_getBalance', [to, 'latest'])), which).toBe(before)
    }
  })

  it('a DELEGATECALL or CALLCODE to one, or to Warp, reverts and uses all the gas it was given (coreth since Granite)', async () => {
    // Init code: GAS, DELEGATECALL (f4) or CALLCODE (f2, value 0) to `to` with 100,000 gas, GAS; returns [success, gas between the GAS readings].
    const delegate = (to: string) => `0x5a5f5f5f5f73${to.slice(2)}620186a0f45a82036020525f5260405ff3`
    const callcode = (to: string) => `0x5a5f5f5f5f5f73${to.slice(2)}620186a0f25a82036020525f5260405ff3`
    for (const [which, n] of nodes()) {
      for (const to of [...NATIVE_ASSET, WARP]) {
        for (const [code, pushes, type] of [
          [delegate(to), 4 * 2 + 3 + 3, 'DELEGATECALL'],
          [callcode(to), 5 * 2 + 3 + 3, 'CALLCODE'],
        ] as const) {
          const out = await n.call('eth_call', [{ from: ewoq.address, data: code, gas: '0x100000' }, 'latest'])
          // The pushes, the call's access (warm 100, or Warp's cold 2,600), the 100,000 it forwarded, the second GAS.
          const access = to === WARP ? 2_600 : 100
          expect([BigInt(out.slice(0, 66)), BigInt(`0x${out.slice(66, 130)}`)], `${which} ${to} ${type}`).toEqual([0n, BigInt(pushes + access + 100_000 + 2)])
        }
      }
    }
    expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })
  })

  it("Warp is not among the active precompiles: cold at a transaction's start, where the native-asset ones and P256VERIFY are warm", async () => {
    // Init code: GAS, BALANCE of `to`, POP, GAS; returns the gas between the readings: 7 + BALANCE (100 warm, 2,600 cold).
    const balanceProbe = (to: string) => `0x5a73${to.slice(2)}31505a90035f5260205ff3`
    for (const [which, n] of nodes()) {
      for (const [to, balance] of [[WARP, 2_600], ['0x0000000000000000000000000000000000000100', 100], ...NATIVE_ASSET.map((a) => [a, 100] as const)] as const) {
        const out = await n.call('eth_call', [{ from: ewoq.address, data: balanceProbe(to), gas: '0x100000' }, 'latest'])
        expect(BigInt(out), `${which} ${to}`).toBe(BigInt(7 + balance))
      }
      // Not active, Warp is listed by eth_createAccessList when a call reaches it; the run with that list
      // then fails on a Warp tuple without keys, an empty predicate, as coreth's does.
      const listed = await n.rpc('eth_createAccessList', [{ from: ewoq.address, data: balanceProbe(WARP) }, 'latest'])
      expect(listed.error, which).toEqual({ code: -32000, message: 'cannot unpack predicate bytes: no delimiter found: length (0)' })
    }
  })
})

describe("coreth's EVM rules: the whole fee to the coinbase", () => {
  // graft/coreth core/state_transition.go: the coinbase (the blackhole, 0x0100…0000) gets gasUsed × the
  // effective gas price, base fee and tip; geth burns the base fee and credits the tip only.
  it('the blackhole gains gasUsed × effectiveGasPrice for each transaction, from both EVMs', async () => {
    for (const [, n] of nodes()) {
      const before = BigInt(await n.call('eth_getBalance', [NATIVE_ASSET[0], 'latest']))
      const { receipt } = await send(n, { to: '0x1111111111111111111111111111111111111111', value: 1n, maxFeePerGas: FEE_CAP, maxPriorityFeePerGas: 5n })
      const block = await n.call('eth_getBlockByNumber', [receipt.blockNumber, false])
      expect(BigInt(receipt.effectiveGasPrice)).toBe(BigInt(block.baseFeePerGas) + 5n)
      expect(BigInt(await n.call('eth_getBalance', [NATIVE_ASSET[0], 'latest'])) - before).toBe(21_000n * BigInt(receipt.effectiveGasPrice))
    }
    expect(interpreter().node.engine.own!.counts).toMatchObject({ differing: 0, failed: 0 })

    // eth_simulateV1 the same: a transfer paying a 2 wei tip, then a call reading the feeRecipient's balance.
    const recipient = '0x000000000000000000000000000000000000fee1'
    const [simulated] = await interpreter().call('eth_simulateV1', [
      {
        validation: true,
        blockStateCalls: [
          {
            blockOverrides: { feeRecipient: recipient },
            calls: [
              { from: ewoq.address, to: '0x1111111111111111111111111111111111111111', value: '0x1', maxFeePerGas: `0x${FEE_CAP.toString(16)}`, maxPriorityFeePerGas: '0x2' },
              // Init code: BALANCE(recipient), returned as one word.
              { from: ewoq.address, data: `0x73${recipient.slice(2)}315f5260205ff3`, maxFeePerGas: `0x${FEE_CAP.toString(16)}`, maxPriorityFeePerGas: '0x0' },
            ],
          },
        ],
      },
      'latest',
    ])
    const paid = 21_000n * (BigInt(simulated.baseFeePerGas) + 2n)
    expect(BigInt(simulated.calls[1].returnData)).toBe(paid)
  })
})

import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, iface } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

const token = iface('TestToken')

describe('the EVM interpreter behind --evm-interpreter and --evm-oracle', () => {
  let oracle: TestNode
  let own: TestNode
  let ejs: TestNode
  let tokenAt: { oracle: string; own: string; ejs: string }

  beforeAll(async () => {
    ;[oracle, own, ejs] = await Promise.all([
      startTestNode(),
      startTestNode({ config: { evmInterpreter: 'own', evmOracle: false } }),
      startTestNode({ config: { evmInterpreter: 'ethereumjs', evmOracle: false } }),
    ])
    const [a, b, c] = await Promise.all([oracle, own, ejs].map((n) => deploy(n, 'TestToken', [1000n])))
    tokenAt = { oracle: a!.address, own: b!.address, ejs: c!.address }
  })
  afterAll(() => Promise.all([oracle, own, ejs].map((n) => n.close())))

  const balanceOf = (n: TestNode, at: string, who: string) => n.call('eth_call', [{ to: at, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest'])

  it('serves eth_call and eth_estimateGas on the interpreter, every one checked against ethereumjs with no difference (the test default)', async () => {
    const counts = oracle.node.engine.own!.counts
    const before = { ...counts }
    const holder = Wallet.createRandom().address
    expect(BigInt(await balanceOf(oracle, tokenAt.oracle, holder))).toBe(0n)
    const transfer = token.encodeFunctionData('transfer', [holder, 5n])
    const from = EWOQ_ADDRESS
    const gas = BigInt(await oracle.call('eth_estimateGas', [{ from, to: tokenAt.oracle, data: transfer }]))
    expect(gas > 21_000n).toBe(true)
    expect(counts.served - before.served).toBeGreaterThanOrEqual(2)
    expect(counts.compared - before.compared).toBe(counts.served - before.served)
    expect(counts).toMatchObject({ differing: 0, failed: 0 })
  })

  it('answers what ethereumjs answers, with the oracle off: same result, same estimate, same revert', async () => {
    const holder = Wallet.createRandom().address
    const served = own.node.engine.own!.counts.served
    const from = EWOQ_ADDRESS
    const ask = async (n: TestNode, at: string) => ({
      balance: await balanceOf(n, at, from),
      estimate: await n.call('eth_estimateGas', [{ from, to: at, data: token.encodeFunctionData('transfer', [holder, 7n]) }]),
      // More than the sender holds: the token reverts with its reason.
      revert: (await n.rpc('eth_call', [{ from: holder, to: at, data: token.encodeFunctionData('transfer', [from, 1n]) }, 'latest'])).error,
    })
    expect(await ask(own, tokenAt.own)).toEqual(await ask(ejs, tokenAt.ejs))
    expect(own.node.engine.own!.counts.served).toBeGreaterThan(served)
    expect(own.node.engine.own!.counts.compared).toBe(0)
  })

  it('leaves eth_createAccessList to ethereumjs, and every call when the flag says ethereumjs', async () => {
    const served = oracle.node.engine.own!.counts.served
    const from = EWOQ_ADDRESS
    await oracle.call('eth_createAccessList', [{ from, to: tokenAt.oracle, data: token.encodeFunctionData('balanceOf', [from]) }, 'latest'])
    expect(oracle.node.engine.own!.counts.served).toBe(served)
    expect(ejs.node.engine.own).toBeUndefined()
  })
})

import { type TransactionRequest, Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytecode, deploy, iface, send } from '../helpers/chain.js'
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

  it("runs blocks' transactions on the interpreter too, each checked against ethereumjs with no difference", async () => {
    const counts = oracle.node.engine.own!.counts
    const before = { ...counts }
    const { receipt } = await send(oracle, { to: tokenAt.oracle, data: token.encodeFunctionData('transfer', [Wallet.createRandom().address, 3n]), gasLimit: 100_000n })
    expect(receipt.status).toBe('0x1')
    expect(receipt.logs).toHaveLength(1)
    // The send's nonce read is no EVM run: the block's transaction is the one served.
    expect(counts.served - before.served).toBe(1)
    expect(counts.compared - before.compared).toBe(1)
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

describe("blocks' transactions on the interpreter, the oracle off", () => {
  let own: TestNode
  let ejs: TestNode

  beforeAll(async () => {
    ;[own, ejs] = await Promise.all([startTestNode({ config: { evmInterpreter: 'own', evmOracle: false } }), startTestNode({ config: { evmInterpreter: 'ethereumjs', evmOracle: false } })])
  })
  afterAll(() => Promise.all([own, ejs].map((n) => n.close())))

  it('commits the blocks ethereumjs commits: the same receipts and the same block hashes (state roots included), failures too', async () => {
    const served = own.node.engine.own!.counts.served
    // From the wall clock: the genesis (2020-12-05) starts Helicon's gas clock at its 225 gwei, which
    // blocks a few seconds after it would still pay (fee caps here are 100 gwei).
    const start = BigInt(Math.floor(Date.now() / 1000)) + 10n
    const holder = Wallet.createRandom().address
    const steps = (tokenAddress: string): TransactionRequest[] => [
      // A transfer (logs, storage), a reverting one (status 0, gas used to the revert), one with an access list (type 1), a value transfer to a new account (type 0).
      { to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 5n]), gasLimit: 100_000n },
      { to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 10n ** 9n]), gasLimit: 100_000n },
      { type: 1, to: tokenAddress, data: token.encodeFunctionData('transfer', [holder, 6n]), gasLimit: 100_000n, accessList: [{ address: tokenAddress, storageKeys: [`0x${'00'.repeat(31)}02`] }] },
      { type: 0, to: holder, value: 1n },
      // A creation that runs out of gas.
      { data: bytecode('TestToken') + token.encodeDeploy([1n]).slice(2), gasLimit: 150_000n },
    ]
    // Both nodes run the same transactions at the same times (the base fee follows the time), one block each.
    const answers = await Promise.all(
      [own, ejs].map(async (n) => {
        const at = (i: number) => n.call('evm_setNextBlockTimestamp', [`0x${(start + BigInt(i)).toString(16)}`])
        await at(0)
        const { address } = await deploy(n, 'TestToken', [1000n])
        const out = []
        for (const [i, tx] of steps(address).entries()) {
          await at(i + 1)
          const { receipt } = await send(n, tx)
          const block = await n.call('eth_getBlockByNumber', [receipt.blockNumber, false])
          out.push({ receipt: { ...receipt, blockHash: undefined }, hash: block.hash, stateRoot: block.stateRoot })
        }
        return out
      }),
    )
    expect(answers[0]!.map((a) => a.receipt.status)).toEqual(['0x1', '0x0', '0x1', '0x1', '0x0'])
    expect(answers[0]).toEqual(answers[1])
    expect(own.node.engine.own!.counts.served - served).toBeGreaterThanOrEqual(6)
    expect(own.node.engine.own!.counts).toMatchObject({ compared: 0, failed: 0 })
  })
})

import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, iface, nonceOf, sign } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Automine as anvil and hardhat node do it: a send is answered once its block is committed, so
 * what a client reads right after the answer (the receipt, the state) already holds the
 * transaction, whatever it read before (its pending nonce included). And, on a development chain,
 * calls and estimates at 'pending' run in the next block's context, as anvil's and hardhat's do.
 */

const hexOf = (n: bigint | number) => `0x${n.toString(16)}`
const headNumber = async (node: TestNode) => BigInt(await node.call('eth_blockNumber'))

/** One JSON-RPC batch over HTTP; the answers in request order. */
async function batch(node: TestNode, calls: { method: string; params: unknown[] }[]): Promise<any[]> {
  const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: i, ...c }))
  const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answers = (await res.json()) as { id: number }[]
  return answers.sort((a, b) => a.id - b.id)
}

describe('automine: a send is answered once its block is committed', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('after a pending-nonce read, each raw send answers with its receipt and state already readable', async () => {
    const to = Wallet.createRandom().address
    for (let i = 1; i <= 5; i++) {
      const nonce = await nonceOf(node, EWOQ_ADDRESS, 'pending')
      const hash = await node.call('eth_sendRawTransaction', [await sign({ to, value: 7n, nonce })])
      const receipt = await node.call('eth_getTransactionReceipt', [hash])
      expect(receipt).not.toBeNull()
      expect(receipt.status).toBe('0x1')
      expect(BigInt(receipt.blockNumber)).toBe(await headNumber(node))
      expect(BigInt(await node.call('eth_getBalance', [to, 'latest']))).toBe(7n * BigInt(i))
      expect(await nonceOf(node, EWOQ_ADDRESS, 'latest')).toBe(nonce + 1)
    }
  })

  it('eth_sendTransaction from an impersonated account answers with its block committed too', async () => {
    const who = Wallet.createRandom().address
    await node.call('hardhat_setBalance', [who, hexOf(10n ** 18n)])
    await node.call('hardhat_impersonateAccount', [who])
    const hash = await node.call('eth_sendTransaction', [{ from: who, to: EWOQ_ADDRESS, value: '0x1' }])
    const receipt = await node.call('eth_getTransactionReceipt', [hash])
    expect(receipt?.status).toBe('0x1')
    expect(await nonceOf(node, who, 'latest')).toBe(1)
  })

  it('sends from several senders at once share one block, and each answer comes with it', async () => {
    const senders = Array.from({ length: 8 }, () => new Wallet(Wallet.createRandom().privateKey))
    for (const s of senders) await node.call('hardhat_setBalance', [s.address, hexOf(10n ** 18n)])
    const raws = await Promise.all(senders.map((s) => sign({ to: EWOQ_ADDRESS, value: 1n, nonce: 0 }, s)))
    const answers = await batch(
      node,
      raws.map((raw) => ({ method: 'eth_sendRawTransaction', params: [raw] })),
    )
    const receipts = await batch(
      node,
      answers.map((a) => ({ method: 'eth_getTransactionReceipt', params: [a.result] })),
    )
    expect(receipts.map((r) => r.result?.status)).toEqual(senders.map(() => '0x1'))
    expect(new Set(receipts.map((r) => r.result.blockNumber)).size).toBe(1)
    const block = await node.call('eth_getBlockByNumber', [receipts[0].result.blockNumber, false])
    expect(block.transactions).toHaveLength(senders.length)
  })

  it("a transaction that fails in its block is answered with hardhat node's error, and stays mined", async () => {
    const probe = (await deploy(node, 'Probe')).address
    const PROBE = iface('Probe')
    const failing = async (data: string, gasLimit: bigint) => node.rpc('eth_sendRawTransaction', [await sign({ to: probe, data, gasLimit, nonce: await nonceOf(node, EWOQ_ADDRESS) })])
    const cases = [
      { data: PROBE.encodeFunctionData('fail', ['nope']), code: -32603, message: "Error: VM Exception while processing transaction: reverted with reason string 'nope'" },
      { data: PROBE.encodeFunctionData('failPlain'), code: -32603, message: 'Error: Transaction reverted without a reason string' },
      { data: PROBE.encodeFunctionData('panic'), code: -32603, message: 'Error: VM Exception while processing transaction: reverted with panic code 0x12 (Division or modulo division by zero)' },
    ]
    for (const c of cases) {
      const answer = await failing(c.data, 100_000n)
      expect(answer.error).toMatchObject({ code: c.code, message: c.message, data: { message: c.message } })
      const data = answer.error!.data as { txHash: string; data: string }
      const receipt = await node.call('eth_getTransactionReceipt', [data.txHash])
      expect(receipt.status).toBe('0x0')
      // The return data is the revert's, as eth_call answers it.
      const call = await node.rpc('eth_call', [{ from: EWOQ_ADDRESS, to: probe, data: c.data }, 'latest'])
      expect(data.data).toBe((call.error?.data as string | undefined) ?? '0x')
    }
    const oog = await failing(PROBE.encodeFunctionData('burn', [1000n]), 50_000n)
    expect(oog.error).toMatchObject({ code: -32000, message: 'Transaction ran out of gas', data: { message: 'Transaction ran out of gas', data: '0x' } })
    expect((await node.call('eth_getTransactionReceipt', [(oog.error!.data as { txHash: string }).txHash])).gasUsed).toBe(hexOf(50_000n))
  })

  it('with automine off the send is answered at once and the transaction waits for evm_mine', async () => {
    await node.call('evm_setAutomine', [false])
    try {
      const hash = await node.call('eth_sendRawTransaction', [await sign({ to: EWOQ_ADDRESS, nonce: await nonceOf(node, EWOQ_ADDRESS, 'pending') })])
      expect(await node.call('eth_getTransactionReceipt', [hash])).toBeNull()
      await node.call('evm_mine')
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).toBe('0x1')
    } finally {
      await node.call('evm_setAutomine', [true])
    }
  })
})

describe("calls and estimates at 'pending' on a development chain run in the next block's context", () => {
  let node: TestNode
  let gate: string
  let probe: string
  const GATE = iface('Gate')
  const PROBE = iface('Probe')
  beforeAll(async () => {
    node = await startTestNode()
    gate = (await deploy(node, 'Gate')).address
    probe = (await deploy(node, 'Probe')).address
  })
  afterAll(() => node.close())

  // With a fee cap given, BASEFEE reads the block's base fee (geth's eth_call runs at base fee 0 without one).
  const context = async (tag: string) =>
    PROBE.decodeFunctionResult('context', await node.call('eth_call', [{ from: EWOQ_ADDRESS, to: probe, data: PROBE.encodeFunctionData('context'), maxFeePerGas: hexOf(10n ** 12n) }, tag]))
  const openCall = (notBefore: bigint, fromBlock: bigint) => ({ from: EWOQ_ADDRESS, to: gate, data: GATE.encodeFunctionData('open', [notBefore, fromBlock]) })

  it("eth_call at 'pending' sees the next block's number, set timestamp, base fee and coinbase; 'latest' the head's", async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const next = BigInt(head.timestamp) + 1000n
    const coinbase = Wallet.createRandom().address
    await node.call('evm_setNextBlockTimestamp', [hexOf(next)])
    await node.call('anvil_setNextBlockBaseFeePerGas', [hexOf(123_456_789n)])
    await node.call('anvil_setCoinbase', [coinbase])
    const pending = await context('pending')
    expect(pending.number).toBe(BigInt(head.number) + 1n)
    expect(pending.timestamp).toBe(next)
    expect(pending.basefee).toBe(123_456_789n)
    expect(pending.coinbase).toBe(coinbase)
    const latest = await context('latest')
    expect(latest.number).toBe(BigInt(head.number))
    expect(latest.timestamp).toBe(BigInt(head.timestamp))
    // The block then mined is the one 'pending' described.
    await node.call('evm_mine')
    const mined = await node.call('eth_getBlockByNumber', ['latest', false])
    expect([BigInt(mined.number), BigInt(mined.timestamp), BigInt(mined.baseFeePerGas), mined.miner]).toEqual([pending.number, next, 123_456_789n, coinbase.toLowerCase()])
    await node.call('anvil_setCoinbase', ['0x0100000000000000000000000000000000000000'])
  })

  it('eth_estimateGas without a block estimates in the next block (time moved, a checkpoint at the head passed) where the head reverts', async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const notBefore = BigInt(head.timestamp) + 3600n
    const fromBlock = BigInt(head.number) + 1n
    await node.call('evm_setNextBlockTimestamp', [hexOf(notBefore)])
    const gas = BigInt(await node.call('eth_estimateGas', [openCall(notBefore, fromBlock)]))
    expect(gas).toBeGreaterThan(21_000n)
    expect(BigInt(await node.call('eth_estimateGas', [openCall(notBefore, fromBlock), 'pending']))).toBe(gas)
    const atHead = await node.rpc('eth_estimateGas', [openCall(notBefore, fromBlock), 'latest'])
    expect(atHead.error).toMatchObject({ code: 3, message: 'execution reverted: too early' })
    // What the estimate promised holds: the transaction with that gas runs in the next block.
    const raw = await sign({ to: gate, data: GATE.encodeFunctionData('open', [notBefore, fromBlock]), gasLimit: gas, nonce: await nonceOf(node, EWOQ_ADDRESS) })
    const hash = await node.call('eth_sendRawTransaction', [raw])
    const receipt = await node.call('eth_getTransactionReceipt', [hash])
    expect([receipt.status, BigInt(receipt.blockNumber)]).toEqual(['0x1', fromBlock])
  })
})

describe("without development controls 'pending' is the head, as on coreth", () => {
  let node: TestNode
  let probe: string
  beforeAll(async () => {
    node = await startTestNode({ config: { devControls: false } })
    probe = (await deploy(node, 'Probe')).address
  })
  afterAll(() => node.close())

  it("eth_call at 'pending' runs at the head's number and time", async () => {
    const PROBE = iface('Probe')
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const out = PROBE.decodeFunctionResult('context', await node.call('eth_call', [{ to: probe, data: PROBE.encodeFunctionData('context') }, 'pending']))
    expect([out.number, out.timestamp]).toEqual([BigInt(head.number), BigInt(head.timestamp)])
  })
})

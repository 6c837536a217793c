import { Wallet, getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHAIN_ID, FEE_CAP, TIP, ewoq, fundedWallet, nonceOf, sign, waitReceipt } from '../helpers/chain.js'
import { rawHttp } from '../helpers/rawHttp.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * geth's answers at the edges (issue 17), each as geth gives it: the envelope (params null,
 * oversized batches), log queries on `pending`, eth_sendRawTransaction's order of checks and its
 * decoder's texts, the nonce-gapped queue.
 */

const post = async (node: TestNode, body: string) => JSON.parse((await rawHttp(node.port, { body, headers: { 'content-type': 'application/json' } })).body)
/** A random key as a plain Wallet (the chain helpers sign with one). */
const randomWallet = () => new Wallet(Wallet.createRandom().privateKey)

let node: TestNode
beforeAll(async () => {
  // A small batch limit, and geth's default fee cap of 1 ether (coreth's is 100).
  node = await startTestNode({ chain: { 'batch-request-limit': 2, 'rpc-tx-fee-cap': 1 } })
})
afterAll(() => node.close())

describe('the envelope as geth reads it (rpc/json.go, rpc/handler.go)', () => {
  it('"params": null is no params; another non-array is -32602 "non-array args"', async () => {
    expect(await post(node, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":null}')).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
    expect(await post(node, '{"jsonrpc":"2.0","id":2,"method":"eth_getBalance","params":null}')).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'missing value for required argument 0' },
    })
    expect(await post(node, '{"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":"x"}')).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'non-array args' } })
  })

  it('a batch over batch-request-limit is an array of one -32600 "batch too large" carrying the first call\'s id', async () => {
    const call = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })
    expect(await post(node, JSON.stringify([{ jsonrpc: '2.0', method: 'eth_chainId' }, call('a'), call(2)]))).toEqual([
      { jsonrpc: '2.0', id: 'a', error: { code: -32600, message: 'batch too large' } },
    ])
    expect(await post(node, JSON.stringify([1, 2, 3]))).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } }])
    // At the limit the batch is served.
    expect(await post(node, JSON.stringify([call(1), call(2)]))).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 2, result: '0xa868' },
    ])
  })
})

describe('log queries on pending (geth eth/filters)', () => {
  it('eth_getLogs and eth_newFilter with pending as a bound are -32602 "pending logs are not supported"', async () => {
    const refused = { code: -32602, message: 'pending logs are not supported' }
    for (const filter of [{ fromBlock: 'pending' }, { toBlock: 'pending' }, { fromBlock: 'earliest', toBlock: 'pending' }]) {
      expect((await node.rpc('eth_getLogs', [filter])).error).toEqual(refused)
      expect((await node.rpc('eth_newFilter', [filter])).error).toEqual(refused)
    }
    expect(await node.call('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }])).toEqual([])
  })
})

describe('eth_sendRawTransaction as geth checks it (internal/ethapi SubmitTransaction, core/txpool)', () => {
  it('the fee cap comes before the balance: an unfunded sender over the cap gets the cap error', async () => {
    const poor = randomWallet()
    const raw = await sign({ to: ewoq.address, nonce: 0, maxFeePerGas: 10n ** 15n, maxPriorityFeePerGas: TIP }, poor)
    expect((await node.rpc('eth_sendRawTransaction', [raw])).error).toEqual({ code: -32000, message: 'tx fee (21.00 ether) exceeds the configured cap (1.00 ether)' })
    const legacy = await sign({ type: 0, to: ewoq.address, nonce: 0, gasPrice: 10n ** 15n }, poor)
    expect((await node.rpc('eth_sendRawTransaction', [legacy])).error).toEqual({ code: -32000, message: 'tx fee (21.00 ether) exceeds the configured cap (1.00 ether)' })
    // Under the cap, the balance.
    const cheap = await sign({ to: ewoq.address, nonce: 0 }, poor)
    const cost = FEE_CAP * 21000n
    expect((await node.rpc('eth_sendRawTransaction', [cheap])).error).toEqual({ code: -32000, message: `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}` })
  })

  it("bytes geth cannot decode get its decoder's words", async () => {
    const texts: Record<string, string> = {
      '0x': 'typed transaction too short',
      '0x02': 'typed transaction too short',
      '0xf86c': 'rlp: value size exceeds available input length',
      '0x02f86c01': 'rlp: value size exceeds available input length',
      '0x0201': 'rlp: expected input list for types.DynamicFeeTx',
      '0xc0': 'rlp: too few elements for types.LegacyTx',
      '0x80': 'rlp: expected input list for types.LegacyTx',
      '0x05c0': 'transaction type not supported',
    }
    for (const [raw, message] of Object.entries(texts)) expect((await node.rpc('eth_sendRawTransaction', [raw])).error, raw).toEqual({ code: -32000, message })
    const good = await sign({ to: ewoq.address, nonce: 0 }, randomWallet())
    expect((await node.rpc('eth_sendRawTransaction', [good + '00'])).error).toEqual({ code: -32000, message: 'rlp: input contains more than one value' })
  })

  it('a nonce gap is queued and its hash returned; the gap filled, both are mined', async () => {
    const w = await fundedWallet(node, 10n ** 16n)
    const second = await sign({ to: ewoq.address, nonce: 1, value: 1n }, w)
    const hash = await node.call('eth_sendRawTransaction', [second])
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await node.call('txpool_status')).toEqual({ pending: '0x0', queued: '0x1' })
    expect(await nonceOf(node, w.address)).toBe(0)
    const first = await node.call('eth_sendRawTransaction', [await sign({ to: ewoq.address, nonce: 0, value: 1n }, w)])
    expect((await waitReceipt(node, first)).status).toBe('0x1')
    expect((await waitReceipt(node, hash)).status).toBe('0x1')
  })

  it("the balance covers this transaction's cost, then the sender's pending ones with it (geth ExistingExpenditure)", async () => {
    // Two transactions' worth: each alone is affordable, three pending are not.
    const cost = FEE_CAP * 21000n
    const w = await fundedWallet(node, 2n * cost)
    await node.call('evm_setAutomine', [false])
    try {
      await node.call('eth_sendRawTransaction', [await sign({ to: ewoq.address, nonce: 0 }, w)])
      await node.call('eth_sendRawTransaction', [await sign({ to: ewoq.address, nonce: 1 }, w)])
      const third = await node.rpc('eth_sendRawTransaction', [await sign({ to: ewoq.address, nonce: 2 }, w)])
      expect(third.error).toEqual({
        code: -32000,
        message: `insufficient funds for gas * price + value: balance ${2n * cost}, queued cost ${2n * cost}, tx cost ${cost}, overshot ${cost}`,
      })
      // Replacing a pending one counts only the raise.
      const bumped = await node.rpc('eth_sendRawTransaction', [await sign({ to: ewoq.address, nonce: 1, maxFeePerGas: (FEE_CAP * 11n) / 10n, maxPriorityFeePerGas: TIP * 2n }, w)])
      const raise = (FEE_CAP / 10n) * 21000n
      expect(bumped.error).toEqual({
        code: -32000,
        message: `insufficient funds for gas * price + value: balance ${2n * cost}, queued cost ${2n * cost}, tx bumped ${raise}, overshot ${raise}`,
      })
    } finally {
      await node.call('evm_setAutomine', [true])
      await node.call('evm_mine')
    }
  })

  it('a signed transaction of another chain is an invalid sender', async () => {
    const raw = await randomWallet().signTransaction({ chainId: CHAIN_ID + 1n, type: 2, nonce: 0, gasLimit: 21000n, to: ewoq.address, maxFeePerGas: FEE_CAP, maxPriorityFeePerGas: TIP })
    expect((await node.rpc('eth_sendRawTransaction', [raw])).error).toEqual({ code: -32000, message: `invalid sender: invalid chain id for signer: have ${CHAIN_ID + 1n} want ${CHAIN_ID}` })
    expect(getAddress(ewoq.address)).toBe(ewoq.address)
  })
})

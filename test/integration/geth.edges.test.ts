import { Wallet, getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHAIN_ID, FEE_CAP, TIP, deploy, ewoq, fundedWallet, iface, nonceOf, sign, waitReceipt } from '../helpers/chain.js'
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

describe('eth_call as geth answers it (internal/ethapi DoCall, core/state_transition.go)', () => {
  const probe = iface('Probe')
  let probeAddress: string
  beforeAll(async () => {
    probeAddress = (await deploy(node, 'Probe')).address
  })

  it('a call refused before it runs is "err: <error> (supplied gas N)", the sender checksummed', async () => {
    const poor = getAddress(randomWallet().address)
    const to = ewoq.address
    expect((await node.rpc('eth_call', [{ from: poor.toLowerCase(), to, value: '0x1' }, 'latest'])).error).toEqual({
      code: -32000,
      message: `err: insufficient funds for gas * price + value: address ${poor} have 0 want 1 (supplied gas 50000000)`,
    })
    // The balance must cover gas at the fee cap, not at the effective price.
    expect((await node.rpc('eth_call', [{ from: poor, to, gas: '0x5208', maxFeePerGas: '0x3', maxPriorityFeePerGas: '0x0' }, 'latest'])).error).toEqual({
      code: -32000,
      message: `err: insufficient funds for gas * price + value: address ${poor} have 0 want ${3 * 21000} (supplied gas 21000)`,
    })
    expect((await node.rpc('eth_call', [{ from: poor, to, gas: '0x100' }, 'latest'])).error).toEqual({
      code: -32000,
      message: 'err: intrinsic gas too low: have 256, want 21000 (supplied gas 256)',
    })
    // A revert is not a refusal: no prefix.
    expect((await node.rpc('eth_call', [{ to: probeAddress, data: probe.encodeFunctionData('failPlain') }, 'latest'])).error).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
  })

  it('a 4th argument, block overrides: number, time, gasLimit, feeRecipient, baseFeePerGas', async () => {
    const context = (overrides: unknown, extra: Record<string, string> = {}) =>
      node.call('eth_call', [{ from: ewoq.address, to: probeAddress, data: probe.encodeFunctionData('context'), gas: '0x100000', ...extra }, 'latest', null, overrides])
    const plain = probe.decodeFunctionResult('context', await context(null))
    const coinbase = getAddress(randomWallet().address)
    const out = probe.decodeFunctionResult('context', await context({ number: '0x1234', time: '0x5678', gasLimit: '0x2000000', feeRecipient: coinbase }))
    expect([out[1], out[2], out[4], out[5]]).toEqual([0x1234n, 0x5678n, coinbase, 0x2000000n])
    expect(out[0]).toBe(plain[0])
    // BASEFEE is the override when the call pays fees (geth: 0 for a call without them).
    const fees = { maxFeePerGas: '0x' + (2n * 10n ** 12n).toString(16), maxPriorityFeePerGas: '0x0' }
    expect(probe.decodeFunctionResult('context', await context({ baseFeePerGas: '0xe8d4a51000' }, fees))[3]).toBe(10n ** 12n)
    expect(probe.decodeFunctionResult('context', await context({ baseFeePerGas: '0xe8d4a51000' }))[3]).toBe(0n)
    // The overrides touch nothing else: the next plain call sees the chain's block again.
    expect(probe.decodeFunctionResult('context', await context(undefined))[1]).toBe(plain[1])
  })

  it('block overrides: prevRandao (PREVRANDAO) and blobBaseFee (BLOBBASEFEE)', async () => {
    // PREVRANDAO PUSH0 MSTORE BLOBBASEFEE PUSH1 32 MSTORE PUSH1 64 PUSH0 RETURN
    const reader = getAddress(randomWallet().address)
    const code = { [reader]: { code: '0x445f524a602052604' + '05ff3' } }
    const read = (overrides: unknown) => node.call('eth_call', [{ to: reader }, 'latest', code, overrides])
    const randao = '0x' + 'ab'.repeat(32)
    expect(await read({ prevRandao: randao, blobBaseFee: '0x7' })).toBe(randao + '7'.padStart(64, '0'))
    expect(await read({})).toBe('0x' + '1'.padStart(64, '0') + '1'.padStart(64, '0'))
  })

  it("block override errors: geth's texts", async () => {
    const call = (overrides: unknown) => node.rpc('eth_call', [{ to: ewoq.address }, 'latest', {}, overrides])
    expect((await call({ beaconRoot: '0x' + '00'.repeat(32) })).error).toEqual({ code: -32000, message: 'block override "beaconRoot" is not supported for this RPC method' })
    expect((await call({ withdrawals: [] })).error).toEqual({ code: -32000, message: 'block override "withdrawals" is not supported for this RPC method' })
    expect((await call({ number: 5 })).error).toEqual({
      code: -32602,
      message: 'invalid argument 3: json: cannot unmarshal non-string into Go struct field BlockOverrides.number of type *hexutil.Big',
    })
    expect((await call({ unknownField: 1 })).result).toBe('0x')
    expect((await node.rpc('eth_call', [{ to: ewoq.address }, 'latest', {}, {}, 1])).error).toEqual({ code: -32602, message: 'too many arguments, want at most 4' })
  })
})

describe('the raw transaction getters geth serves (internal/ethapi TransactionAPI)', () => {
  it('eth_getRawTransactionByHash, eth_getRawTransactionByBlockHashAndIndex, eth_getRawTransactionByBlockNumberAndIndex: the signed bytes; "0x" when there is none', async () => {
    for (const type of [0, 1, 2]) {
      const raw = await sign({ type, to: ewoq.address, value: 1n, nonce: await nonceOf(node, ewoq.address) })
      const hash = await node.call('eth_sendRawTransaction', [raw])
      const receipt = await waitReceipt(node, hash)
      expect(await node.call('eth_getRawTransactionByHash', [hash])).toBe(raw)
      expect(await node.call('eth_getRawTransactionByBlockHashAndIndex', [receipt.blockHash, receipt.transactionIndex])).toBe(raw)
      expect(await node.call('eth_getRawTransactionByBlockNumberAndIndex', [receipt.blockNumber, receipt.transactionIndex])).toBe(raw)
      expect(await node.call('eth_getRawTransactionByBlockNumberAndIndex', ['latest', receipt.transactionIndex])).toBe(raw)
    }
    const unknown = '0x' + 'ee'.repeat(32)
    expect(await node.call('eth_getRawTransactionByHash', [unknown])).toBe('0x')
    expect(await node.call('eth_getRawTransactionByBlockHashAndIndex', [unknown, '0x0'])).toBe('0x')
    expect(await node.call('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x7'])).toBe('0x')
    expect(await node.call('eth_getRawTransactionByBlockNumberAndIndex', ['0xffffff', '0x0'])).toBe('0x')
    expect((await node.rpc('eth_getRawTransactionByHash', ['0x01'])).error).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 2, want 64 for common.Hash' })
  })

  it('eth_getRawTransactionByHash answers a pooled transaction too', async () => {
    await node.call('evm_setAutomine', [false])
    try {
      const raw = await sign({ to: ewoq.address, value: 1n, nonce: await nonceOf(node, ewoq.address) })
      const hash = await node.call('eth_sendRawTransaction', [raw])
      expect(await node.call('eth_getRawTransactionByHash', [hash])).toBe(raw)
    } finally {
      await node.call('evm_setAutomine', [true])
      await node.call('evm_mine')
    }
  })
})

describe("the pending block as geth's miner shows it (internal/ethapi GetBlockByNumber)", () => {
  it("with nothing pooled: the head's next block, empty, hash, nonce and miner null", async () => {
    const head = await node.call('eth_getBlockByNumber', ['latest', false])
    const pending = await node.call('eth_getBlockByNumber', ['pending', false])
    expect([pending.hash, pending.nonce, pending.miner]).toEqual([null, null, null])
    expect(pending.number).toBe('0x' + (BigInt(head.number) + 1n).toString(16))
    expect(pending.parentHash).toBe(head.hash)
    expect([pending.transactions, pending.gasUsed]).toEqual([[], '0x0'])
    // Helicon: its stateRoot is the root after the last block it settles, the head's own when it settles no further.
    expect(BigInt(pending.settledHeight) >= BigInt(head.settledHeight)).toBe(true)
    if (pending.settledHeight === head.settledHeight) expect(pending.stateRoot).toBe(head.stateRoot)
    expect(BigInt(pending.timestamp) >= BigInt(head.timestamp)).toBe(true)
    const header = await node.call('eth_getHeaderByNumber', ['pending'])
    expect([header.hash, header.nonce, header.miner, header.parentHash]).toEqual([null, null, null, head.hash])
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['pending'])).toBe('0x0')
    expect(await node.call('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x0'])).toBeNull()
  })

  it('with transactions pooled: they run into it as the builder would run them; mined, the block has its roots', async () => {
    await node.call('evm_setAutomine', [false])
    let raws: string[] = []
    try {
      const nonce = await nonceOf(node, ewoq.address)
      raws = [await sign({ to: ewoq.address, value: 1n, nonce }), await sign({ type: 0, to: getAddress(randomWallet().address), value: 5n, nonce: nonce + 1 })]
      const hashes = []
      for (const raw of raws) hashes.push(await node.call('eth_sendRawTransaction', [raw]))
      const pending = await node.call('eth_getBlockByNumber', ['pending', false])
      expect([pending.hash, pending.nonce, pending.miner]).toEqual([null, null, null])
      expect(pending.transactions).toEqual(hashes)
      expect(pending.gasUsed).toBe('0x' + (2 * 21000).toString(16))
      const full = await node.call('eth_getBlockByNumber', ['pending', true])
      expect(full.transactions.map((t: any) => [t.hash, t.blockNumber, typeof t.blockHash])).toEqual(hashes.map((h) => [h, pending.number, 'string']))
      expect(await node.call('eth_getBlockTransactionCountByNumber', ['pending'])).toBe('0x2')
      expect((await node.call('eth_getTransactionByBlockNumberAndIndex', ['pending', '0x1'])).hash).toBe(hashes[1])
      expect(await node.call('eth_getRawTransactionByBlockNumberAndIndex', ['pending', '0x1'])).toBe(raws[1])
      // Nothing was kept: the head and the pool are as they were.
      expect(await node.call('eth_getTransactionReceipt', [hashes[0]])).toBeNull()
      expect(await node.call('txpool_status')).toEqual({ pending: '0x2', queued: '0x0' })
      await node.call('evm_mine')
      const mined = await node.call('eth_getBlockByNumber', ['latest', false])
      expect([mined.number, mined.transactions, mined.transactionsRoot, mined.receiptsRoot, mined.logsBloom]).toEqual([
        pending.number,
        hashes,
        pending.transactionsRoot,
        pending.receiptsRoot,
        pending.logsBloom,
      ])
      // The state root too, unless the ACP-176 base fee moved between the two (it prices the gas the senders paid).
      if (mined.baseFeePerGas === pending.baseFeePerGas) expect(mined.stateRoot).toBe(pending.stateRoot)
    } finally {
      await node.call('evm_setAutomine', [true])
    }
  })
})

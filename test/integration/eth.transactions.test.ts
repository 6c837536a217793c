import { Transaction, Wallet, decodeRlp } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHAIN_ID, FEE_CAP, TIP, ewoq, fundedWallet, nonceOf, send, sign, waitReceipt } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const AVAX = 10n ** 18n
const UNKNOWN_HASH = '0x' + 'cd'.repeat(32)

describe('eth_sendRawTransaction and transaction lookups', () => {
  let node: TestNode
  const bob = Wallet.createRandom().address
  const sendRaw = (raw: string) => node.rpc('eth_sendRawTransaction', [raw])

  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  describe('accepted transaction types', () => {
    it('EIP-1559 (type 2): mined, looked up by hash, receipt with the effective gas price', async () => {
      const n = await nonceOf(node, ewoq.address)
      const raw = await sign({ nonce: n, to: bob, value: 5n, type: 2 })
      const hash = await node.call('eth_sendRawTransaction', [raw])
      expect(hash).toBe(Transaction.from(raw).hash)
      const receipt = await waitReceipt(node, hash)
      const block = await node.call('eth_getBlockByHash', [receipt.blockHash, false])
      const effective = BigInt(block.baseFeePerGas) + TIP < FEE_CAP ? BigInt(block.baseFeePerGas) + TIP : FEE_CAP
      expect(receipt).toMatchObject({
        status: '0x1',
        type: '0x2',
        gasUsed: '0x5208',
        cumulativeGasUsed: '0x5208',
        from: ewoq.address.toLowerCase(),
        to: bob.toLowerCase(),
        contractAddress: null,
        logs: [],
        transactionIndex: '0x0',
        transactionHash: hash,
        effectiveGasPrice: '0x' + effective.toString(16),
      })
      const tx = await node.call('eth_getTransactionByHash', [hash])
      expect(tx).toMatchObject({
        hash,
        type: '0x2',
        chainId: '0xa868',
        nonce: '0x' + n.toString(16),
        from: ewoq.address.toLowerCase(),
        to: bob.toLowerCase(),
        value: '0x5',
        gas: '0x5208',
        input: '0x',
        maxFeePerGas: '0x' + FEE_CAP.toString(16),
        maxPriorityFeePerGas: '0x' + TIP.toString(16),
        gasPrice: '0x' + effective.toString(16),
        accessList: [],
        blockHash: receipt.blockHash,
        blockNumber: receipt.blockNumber,
        transactionIndex: '0x0',
      })
      const parsed = Transaction.from(raw)
      expect(tx.r).toBe('0x' + BigInt(parsed.signature!.r).toString(16))
      expect(tx.s).toBe('0x' + BigInt(parsed.signature!.s).toString(16))
      expect(tx.yParity).toBe('0x' + parsed.signature!.yParity.toString(16))
      expect(tx.v).toBe(tx.yParity)
    })

    it('EIP-2930 (type 1) with an access list', async () => {
      const accessList = [{ address: bob, storageKeys: ['0x' + '00'.repeat(31) + '01'] }]
      const { hash, receipt } = await send(node, { to: bob, value: 6n, type: 1, gasLimit: 30_000n, accessList })
      expect(receipt.status).toBe('0x1')
      expect(receipt.type).toBe('0x1')
      // 21000 + 2400 per address + 1900 per storage key (EIP-2930).
      expect(receipt.gasUsed).toBe('0x' + (21_000 + 2400 + 1900).toString(16))
      expect(receipt.effectiveGasPrice).toBe('0x' + FEE_CAP.toString(16))
      const tx = await node.call('eth_getTransactionByHash', [hash])
      expect(tx).toMatchObject({ type: '0x1', chainId: '0xa868', gasPrice: '0x' + FEE_CAP.toString(16), accessList: [{ address: bob.toLowerCase(), storageKeys: accessList[0]!.storageKeys }] })
      expect(tx.maxFeePerGas).toBeUndefined()
    })

    it('legacy (type 0) with EIP-155 replay protection', async () => {
      const { hash, receipt } = await send(node, { to: bob, value: 7n, type: 0 })
      expect(receipt.status).toBe('0x1')
      expect(receipt.type).toBe('0x0')
      const tx = await node.call('eth_getTransactionByHash', [hash])
      expect(tx.type).toBe('0x0')
      expect(tx.chainId).toBe('0xa868')
      expect(['0x150f3', '0x150f4']).toContain(tx.v) // 43112 * 2 + 35 + yParity
      expect(tx.yParity).toBeUndefined()
      expect(tx.accessList).toBeUndefined()
      expect(await node.call('eth_getBalance', [bob, 'latest'])).toBe('0x12') // 5 + 6 + 7
    })

    it('a contract creation has contractAddress and to: null', async () => {
      // Init code that returns an empty runtime: PUSH1 0 PUSH1 0 RETURN.
      const { hash, receipt } = await send(node, { data: '0x60006000f3', gasLimit: 100_000n })
      expect(receipt.status).toBe('0x1')
      expect(receipt.to).toBeNull()
      const tx = await node.call('eth_getTransactionByHash', [hash])
      expect(tx.to).toBeNull()
      const { getCreateAddress } = await import('ethers')
      expect(receipt.contractAddress).toBe(getCreateAddress({ from: ewoq.address, nonce: Number(tx.nonce) }).toLowerCase())
    })

    it('unknown hashes: transaction and receipt are null', async () => {
      expect(await node.call('eth_getTransactionByHash', [UNKNOWN_HASH])).toBeNull()
      expect(await node.call('eth_getTransactionReceipt', [UNKNOWN_HASH])).toBeNull()
    })
  })

  describe("rejections with geth's wording", () => {
    it('nonce too low', async () => {
      const w = await fundedWallet(node, AVAX)
      await send(node, { to: bob, value: 1n }, w)
      const r = await sendRaw(await sign({ nonce: 0, to: bob, value: 2n }, w))
      expect(r.error).toEqual({ code: -32000, message: 'nonce too low: next nonce 1, tx nonce 0' })
    })

    it('nonce too low wins over insufficient funds (geth checks the nonce first)', async () => {
      const w = await fundedWallet(node, 3n * 10n ** 15n)
      await send(node, { to: bob, value: 1n }, w)
      const r = await sendRaw(await sign({ nonce: 0, to: bob, value: AVAX }, w))
      expect(r.error).toEqual({ code: -32000, message: 'nonce too low: next nonce 1, tx nonce 0' })
    })

    it('insufficient funds for gas * price + value', async () => {
      const w = await fundedWallet(node, 10n ** 15n)
      const cost = FEE_CAP * 21_000n + AVAX
      const r = await sendRaw(await sign({ nonce: 0, to: bob, value: AVAX }, w))
      expect(r.error).toEqual({ code: -32000, message: `insufficient funds for gas * price + value: balance ${10n ** 15n}, tx cost ${cost}, overshot ${cost - 10n ** 15n}` })
    })

    it('intrinsic gas too low', async () => {
      const r = await sendRaw(await sign({ nonce: await nonceOf(node, ewoq.address), to: bob, gasLimit: 20_999n }))
      expect(r.error).toEqual({ code: -32000, message: 'intrinsic gas too low: gas 20999, minimum needed 21000' })
    })

    it('tx fee over rpc-tx-fee-cap (100 AVAX)', async () => {
      const r = await sendRaw(await sign({ nonce: await nonceOf(node, ewoq.address), to: bob, gasLimit: 1_000_000n, maxFeePerGas: 200_000n * 10n ** 9n, maxPriorityFeePerGas: TIP }))
      expect(r.error).toEqual({ code: -32000, message: 'tx fee (200.00 ether) exceeds the configured cap (100.00 ether)' })
    })

    it('only replay-protected (EIP-155) transactions allowed over RPC', async () => {
      const raw = await sign({ nonce: await nonceOf(node, ewoq.address), to: bob, type: 0, chainId: 0n })
      expect(Transaction.from(raw).signature!.v).toBeLessThan(29)
      const r = await sendRaw(raw)
      expect(r.error).toEqual({ code: -32000, message: 'only replay-protected (EIP-155) transactions allowed over RPC' })
    })

    it("takes a keyless deployment (Nick's method: no chain ID, nonce 0, r == s) as coreth does, and the hashes allow-unprotected-tx-hashes lists", async () => {
      // A contract whose creation code returns one byte of runtime code (0x00), from a sender no key holds.
      const unsigned = Transaction.from({ type: 0, nonce: 0, gasPrice: 100n * 10n ** 9n, gasLimit: 100_000n, data: '0x600060005360016000f3', value: 0n })
      const keyless = Transaction.from({ ...unsigned.toJSON(), signature: { r: `0x${'33'.repeat(32)}`, s: `0x${'33'.repeat(32)}`, v: 27 } })
      await send(node, { to: keyless.from!, value: 100_000n * 100n * 10n ** 9n })
      const r = await sendRaw(keyless.serialized)
      expect(r.result).toBe(keyless.hash)
      const receipt = await waitReceipt(node, keyless.hash!)
      expect(receipt.status).toBe('0x1')
      expect(receipt.from).toBe(keyless.from!.toLowerCase())
      expect(await node.call('eth_getCode', [receipt.contractAddress, 'latest'])).not.toBe('0x')
      // The same pattern at another nonce is no keyless deployment: refused.
      const later = Transaction.from({ ...unsigned.toJSON(), nonce: 1, signature: { r: `0x${'33'.repeat(32)}`, s: `0x${'33'.repeat(32)}`, v: 27 } })
      expect((await sendRaw(later.serialized)).error?.message).toBe('only replay-protected (EIP-155) transactions allowed over RPC')
      // A listed hash passes.
      const raw = await sign({ nonce: 0, to: bob, type: 0, chainId: 0n })
      const listed = await startTestNode({ chain: { 'allow-unprotected-tx-hashes': [Transaction.from(raw).hash!] } })
      try {
        expect((await listed.rpc('eth_sendRawTransaction', [raw])).result).toBe(Transaction.from(raw).hash)
      } finally {
        await listed.close()
      }
    })

    it('a foreign chain ID is an invalid sender', async () => {
      const n = await nonceOf(node, ewoq.address)
      const typed = await sendRaw(await sign({ nonce: n, to: bob, chainId: 43114n }))
      expect(typed.error).toEqual({ code: -32000, message: `invalid sender: invalid chain id for signer: have 43114 want ${CHAIN_ID}` })
      const legacy = await sendRaw(await sign({ nonce: n, to: bob, chainId: 1n, type: 0 }))
      expect(legacy.error).toEqual({ code: -32000, message: `invalid sender: invalid chain id for signer: have 1 want ${CHAIN_ID}` })
    })

    it('blob transactions and garbage are refused', async () => {
      expect((await sendRaw('0x03c0')).error).toEqual({ code: -32000, message: 'transaction type not supported' })
      const garbage = await sendRaw('0xc0')
      expect(garbage.error?.code).toBe(-32000)
      expect(garbage.error?.message).toMatch(/^rlp: /)
    })

    it('already known, replacement transaction underpriced, and a >= 10% bump replaces a queued tx', async () => {
      const w = await fundedWallet(node, AVAX)
      // Nonce 1 with nonce 0 missing: the tx waits in the queue.
      const first = await sign({ nonce: 1, to: bob, value: 1n, maxFeePerGas: 1000n * 10n ** 9n, maxPriorityFeePerGas: 10n * 10n ** 9n }, w)
      const firstHash = await node.call('eth_sendRawTransaction', [first])
      expect((await sendRaw(first)).error).toEqual({ code: -32000, message: 'already known' })
      const pendingTx = await node.call('eth_getTransactionByHash', [firstHash])
      expect(pendingTx).toMatchObject({ hash: firstHash, blockHash: null, blockNumber: null, transactionIndex: null, gasPrice: '0x' + (1000n * 10n ** 9n).toString(16) })
      expect(await node.call('eth_getTransactionReceipt', [firstHash])).toBeNull()
      // 9% more on both caps is not enough.
      const low = await sign({ nonce: 1, to: bob, value: 2n, maxFeePerGas: 1090n * 10n ** 9n, maxPriorityFeePerGas: 10_900_000_000n }, w)
      expect((await sendRaw(low)).error).toEqual({ code: -32000, message: 'replacement transaction underpriced' })
      // A bigger fee cap alone is not enough either: the tip must rise 10% too.
      const tipless = await sign({ nonce: 1, to: bob, value: 2n, maxFeePerGas: 2000n * 10n ** 9n, maxPriorityFeePerGas: 10n * 10n ** 9n }, w)
      expect((await sendRaw(tipless)).error).toEqual({ code: -32000, message: 'replacement transaction underpriced' })
      // Exactly 10% replaces it.
      const bumped = await sign({ nonce: 1, to: bob, value: 3n, maxFeePerGas: 1100n * 10n ** 9n, maxPriorityFeePerGas: 11n * 10n ** 9n }, w)
      const bumpedHash = await node.call('eth_sendRawTransaction', [bumped])
      expect(await node.call('eth_getTransactionByHash', [firstHash])).toBeNull()
      expect((await node.call('eth_getTransactionByHash', [bumpedHash])).value).toBe('0x3')
      // Filling the gap mines both; the replacement is the one included.
      await send(node, { nonce: 0, to: bob, value: 1n }, w)
      const receipt = await waitReceipt(node, bumpedHash)
      expect(receipt.status).toBe('0x1')
      expect(await node.call('eth_getTransactionReceipt', [firstHash])).toBeNull()
      // A mined transaction sent again is not in the pool any more: geth answers with the nonce check.
      expect((await sendRaw(bumped)).error).toEqual({ code: -32000, message: 'nonce too low: next nonce 2, tx nonce 1' })
    })
  })

  it('eth_getTransactionCount pending counts pool transactions without gaps; queued ones do not count', async () => {
    const w = await fundedWallet(node, AVAX)
    const h2 = await node.call('eth_sendRawTransaction', [await sign({ nonce: 2, to: bob, value: 1n }, w)])
    const h3 = await node.call('eth_sendRawTransaction', [await sign({ nonce: 3, to: bob, value: 1n }, w)])
    expect(await nonceOf(node, w.address, 'pending')).toBe(0)
    expect(await nonceOf(node, w.address, 'latest')).toBe(0)
    await send(node, { nonce: 0, to: bob, value: 1n }, w)
    expect(await nonceOf(node, w.address, 'latest')).toBe(1)
    expect(await nonceOf(node, w.address, 'pending')).toBe(1)
    // Nonce 1 closes the gap: 2 and 3 become executable and are mined.
    await send(node, { nonce: 1, to: bob, value: 1n }, w)
    await waitReceipt(node, h2)
    await waitReceipt(node, h3)
    expect(await nonceOf(node, w.address, 'latest')).toBe(4)
    expect(await nonceOf(node, w.address, 'pending')).toBe(4)
  })

  it('eth_fillTransaction fills nonce, gas, fees and chain ID of an unsigned EIP-1559 transaction', async () => {
    const r = await node.call('eth_fillTransaction', [{ from: ewoq.address, to: bob, value: '0x1' }])
    const n = await nonceOf(node, ewoq.address)
    const tip = BigInt(await node.call('eth_maxPriorityFeePerGas'))
    expect(r.tx).toMatchObject({
      type: '0x2',
      chainId: '0xa868',
      nonce: '0x' + n.toString(16),
      to: bob.toLowerCase(),
      gas: '0x5208',
      value: '0x1',
      input: '0x',
      maxPriorityFeePerGas: '0x' + tip.toString(16),
    })
    expect(BigInt(r.tx.maxFeePerGas) >= tip + BigInt(await node.call('eth_baseFee'))).toBe(true)
    // geth's raw form: the typed envelope with v, r, s all zero.
    expect(r.raw.startsWith('0x02')).toBe(true)
    const fields = decodeRlp('0x' + r.raw.slice(4)) as string[]
    expect(fields).toHaveLength(12)
    expect(fields.slice(9)).toEqual(['0x', '0x', '0x'])
    expect(BigInt(fields[0]!)).toBe(CHAIN_ID)
    expect(fields[1]).toBe(n === 0 ? '0x' : '0x' + n.toString(16).padStart(2, '0'))
  })
})

describe('eth_sendRawTransaction with tx-pool-price-limit 0 and allow-unprotected-txs', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'tx-pool-price-limit': 0, 'allow-unprotected-txs': true } })
  })
  afterAll(() => node.close())

  it('max fee per gas less than block base fee', async () => {
    // Helicon: the pending block's worst-case base fee (eth_baseFee is an upper bound of it, saevm's estimate).
    const baseFee = BigInt((await node.call('eth_getBlockByNumber', ['pending', false])).baseFeePerGas)
    expect(baseFee > 0n && baseFee <= BigInt(await node.call('eth_baseFee'))).toBe(true)
    const feeCap = baseFee - 1n
    const r = await node.rpc('eth_sendRawTransaction', [await sign({ nonce: 0, to: ewoq.address, maxFeePerGas: feeCap, maxPriorityFeePerGas: 0n })])
    expect(r.error).toEqual({ code: -32000, message: `max fee per gas less than block base fee: address ${ewoq.address}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}` })
  })

  it('an unprotected legacy transaction is accepted when allow-unprotected-txs is set', async () => {
    const raw = await sign({ nonce: 0, to: ewoq.address, type: 0, chainId: 0n })
    const hash = await node.call('eth_sendRawTransaction', [raw])
    const receipt = await waitReceipt(node, hash)
    expect(receipt.status).toBe('0x1')
    const tx = await node.call('eth_getTransactionByHash', [hash])
    expect(['0x1b', '0x1c']).toContain(tx.v)
    expect(tx.chainId).toBeUndefined()
  })
})

describe('raw transaction size (tx-max-size)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'tx-max-size': 300 } })
  })
  afterAll(() => node.close())

  it('a raw transaction over the configured size is -32000 "oversized data"', async () => {
    const small = await sign({ to: Wallet.createRandom().address, nonce: 0, gasLimit: 100_000n, data: '0x' + '01'.repeat(100) })
    expect((await node.rpc('eth_sendRawTransaction', [small])).result).toMatch(/^0x[0-9a-f]{64}$/)
    const big = await sign({ to: Wallet.createRandom().address, nonce: 1, gasLimit: 100_000n, data: '0x' + '01'.repeat(300) })
    const size = (big.length - 2) / 2
    expect((await node.rpc('eth_sendRawTransaction', [big])).error).toEqual({ code: -32000, message: `oversized data: transaction size ${size}, limit 300` })
  })
})

import { Wallet, decodeRlp, getAddress, keccak256 } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, nonceOf, sign, waitReceipt } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

describe('txpool_ with a held pool (blocks only on demand)', () => {
  let node: TestNode
  const bob = Wallet.createRandom().address
  beforeAll(async () => {
    node = await startTestNode({ config: { blockInterval: 3_600_000 } })
  })
  afterAll(() => node.close())

  it('content, contentFrom, status and inspect show pending and queued by checksummed sender and nonce', async () => {
    const n = await nonceOf(node, ewoq.address)
    const h0 = await node.call('eth_sendRawTransaction', [await sign({ nonce: n, to: bob, value: 5n })])
    const h2 = await node.call('eth_sendRawTransaction', [await sign({ nonce: n + 2, to: bob, value: 7n })])
    expect(await node.call('txpool_status')).toEqual({ pending: '0x1', queued: '0x1' })
    const content = await node.call('txpool_content')
    const sender = getAddress(ewoq.address)
    expect(Object.keys(content.pending)).toEqual([sender])
    expect(content.pending[sender][String(n)].hash).toBe(h0)
    expect(content.pending[sender][String(n)].blockHash).toBeNull()
    expect(content.queued[sender][String(n + 2)].hash).toBe(h2)
    const mine = await node.call('txpool_contentFrom', [ewoq.address])
    expect(Object.keys(mine.pending)).toEqual([String(n)])
    expect(Object.keys(mine.queued)).toEqual([String(n + 2)])
    expect(await node.call('txpool_contentFrom', [bob])).toEqual({ pending: {}, queued: {} })
    const inspect = await node.call('txpool_inspect')
    expect(inspect.pending[sender][String(n)]).toBe(`${getAddress(bob)}: 5 wei + 21000 gas × 100000000000 wei`)
    await node.node.engine.buildBlock()
    await waitReceipt(node, h0)
    expect(await node.call('txpool_status')).toEqual({ pending: '0x0', queued: '0x1' })
  })
})

describe('debug_getRaw*', () => {
  let node: TestNode
  let raw: string
  let hash: string
  beforeAll(async () => {
    node = await startTestNode()
    raw = await sign({ nonce: await nonceOf(node, ewoq.address), to: ewoq.address, value: 1n })
    hash = await node.call('eth_sendRawTransaction', [raw])
    await waitReceipt(node, hash)
  })
  afterAll(() => node.close())

  it('header and block encodings hash to the block hash; the block holds the transaction', async () => {
    const block = await node.call('eth_getBlockByNumber', ['latest', false])
    const header = await node.call('debug_getRawHeader', ['latest'])
    expect(keccak256(header)).toBe(block.hash)
    expect(await node.call('debug_getRawHeader', [block.hash])).toBe(header)
    const rawBlock = decodeRlp(await node.call('debug_getRawBlock', [block.number])) as any[]
    expect(rawBlock).toHaveLength(5)
    expect(rawBlock[1]).toHaveLength(1)
    expect(keccak256(await node.call('debug_getRawHeader', ['0x0']))).toBe((await node.call('eth_getBlockByNumber', ['0x0', false])).hash)
  })

  it('raw transaction equals what was sent; unknown is 0x', async () => {
    expect(await node.call('debug_getRawTransaction', [hash])).toBe(raw)
    expect(await node.call('debug_getRawTransaction', ['0x' + '22'.repeat(32)])).toBe('0x')
  })

  it('raw receipts: one typed receipt per transaction; genesis has none', async () => {
    const receipts = await node.call('debug_getRawReceipts', ['latest'])
    expect(receipts).toHaveLength(1)
    expect(receipts[0].startsWith('0x02')).toBe(true)
    expect(await node.call('debug_getRawReceipts', ['0x0'])).toEqual([])
  })

  it('invalid params and unknown blocks answer like geth', async () => {
    expect((await node.rpc('debug_getRawBlock', ['2'])).error).toEqual({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' })
    expect((await node.rpc('debug_getRawHeader', ['0x99999'])).error).toEqual({ code: -32000, message: 'header not found' })
  })
})

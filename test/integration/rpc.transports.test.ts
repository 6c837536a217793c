import { Interface, Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, iface } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'
import { connectClient, type RpcClient, type Transport } from '../helpers/transport.js'

const probe = iface('Probe')
const errorString = (reason: string) => new Interface(['error Error(string)']).encodeErrorResult('Error', [reason])

/** Every answer over HTTP and WebSocket is the same for the same request (issue 3): one body, both transports. */
let node: TestNode
let probeAddr: string
beforeAll(async () => {
  node = await startTestNode()
  probeAddr = (await deploy(node, 'Probe')).address
})
afterAll(() => node.close())

/** Representative requests; each transport must answer each exactly as the other does. */
const REQUESTS: [string, () => unknown[]][] = [
  ['eth_chainId', () => []],
  ['eth_blockNumber', () => []],
  ['eth_getBalance', () => [EWOQ_ADDRESS, 'latest']],
  ['eth_getBalance', () => ['0x01']],
  ['eth_getBlockByNumber', () => ['0x1', true]],
  ['eth_getBlockByNumber', () => ['latest', false]],
  ['eth_call', () => [{ to: probeAddr, data: probe.encodeFunctionData('fail', ['boom']) }, 'latest']],
  ['eth_nope', () => []],
  ['eth_unsubscribe', () => ['0x1']],
]

describe.each(['http', 'ws'] as Transport[])('JSON-RPC over %s', (transport) => {
  let client: RpcClient
  beforeAll(async () => {
    client = await connectClient(node, transport)
  })
  afterAll(() => client.close())

  it('eth_chainId', async () => {
    expect(await client.rpc('eth_chainId')).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: '0xa868' })
  })

  it('eth_getBalance of an account never touched is 0x0', async () => {
    expect(await client.call('eth_getBalance', [Wallet.createRandom().address, 'latest'])).toBe('0x0')
  })

  it('eth_getBlockByNumber: the genesis block', async () => {
    const block = await client.call('eth_getBlockByNumber', ['0x0', false])
    expect(block.number).toBe('0x0')
    expect(block.transactions).toEqual([])
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('eth_call revert: code 3, the reason, the revert data', async () => {
    const r = await client.rpc('eth_call', [{ to: probeAddr, data: probe.encodeFunctionData('fail', ['boom']) }, 'latest'])
    expect(r.error).toEqual({ code: 3, message: 'execution reverted: boom', data: errorString('boom') })
  })

  it("invalid params: -32602 with geth's wording", async () => {
    const r = await client.rpc('eth_getBalance', [EWOQ_ADDRESS, 'latest', 'extra'])
    expect(r.error).toEqual({ code: -32602, message: 'too many arguments, want at most 2' })
  })

  it('a batch: answers in order, errors in place', async () => {
    expect(await client.raw('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"eth_nope"},{"jsonrpc":"2.0","id":3,"method":"net_version"}]')).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
      { jsonrpc: '2.0', id: 3, result: '1' },
    ])
  })
})

describe('the same request over both transports', () => {
  it('gets the same answer', async () => {
    const http = await connectClient(node, 'http')
    const ws = await connectClient(node, 'ws')
    try {
      for (const [method, params] of REQUESTS) {
        const text = JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: params() })
        expect(await ws.raw(text), method).toEqual(await http.raw(text))
      }
    } finally {
      await ws.close()
    }
  })
})

import WebSocket from 'ws'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/** The same JSON-RPC over WS at /ext/bc/C/ws: one dispatcher for both transports (docs/SECURITY.md, W3, W9). */
describe('JSON-RPC over WebSocket', () => {
  let node: TestNode
  const sockets: WebSocket[] = []
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'batch-request-limit': 2 } })
  })
  afterEach(() => {
    for (const s of sockets.splice(0)) s.terminate()
  })
  afterAll(() => node.close())

  /** Opens a socket and returns a function that sends a text frame and resolves with the next answer. */
  async function connect(): Promise<(text: string) => Promise<any>> {
    const ws = new WebSocket(node.wsUrl)
    sockets.push(ws)
    const answers: string[] = []
    const waiters: ((s: string) => void)[] = []
    // Listeners before any await (@fastify/websocket README, "Attaching event handlers").
    ws.on('message', (data) => {
      const text = data.toString()
      const w = waiters.shift()
      if (w) w(text)
      else answers.push(text)
    })
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return (text: string) => {
      ws.send(text)
      const queued = answers.shift()
      return queued !== undefined ? Promise.resolve(JSON.parse(queued)) : new Promise((r) => waiters.push((s) => r(JSON.parse(s))))
    }
  }

  it('answers calls, errors and batches as HTTP does, and survives a parse error', async () => {
    const ask = await connect()
    expect(await ask('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
    expect(await ask('not json')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    expect(await ask(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [EWOQ_ADDRESS, 'latest'] }))).toEqual({ jsonrpc: '2.0', id: 2, result: '0x295be96e64066972000000' })
    expect((await ask('{"jsonrpc":"2.0","id":3,"method":"eth_getBalance","params":["0x01"]}')).error.code).toBe(-32602)
    expect(await ask('[{"jsonrpc":"2.0","id":4,"method":"net_version"},{"jsonrpc":"2.0","id":5,"method":"eth_nope"}]')).toEqual([
      { jsonrpc: '2.0', id: 4, result: '1' },
      { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
    ])
    const tooMany = '[' + Array.from({ length: 3 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"eth_chainId"}`).join(',') + ']'
    expect(await ask(tooMany)).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32600, message: 'batch too large' } }])
  })
})

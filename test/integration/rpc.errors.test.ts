import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/** POSTs a raw body; returns HTTP status and the parsed JSON answer. */
async function post(url: string, body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const text = await res.text()
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) }
}

const req = (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params })

describe('JSON-RPC envelope errors (docs/SECURITY.md, L2-L8)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('-32700 for a body that is not JSON, HTTP 200, id null', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', 'NaN', '{/*c*/}', 'hello']) {
      const r = await post(node.url, body)
      expect(r.status).toBe(200)
      expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    }
  })

  it('-32600 for JSON that is not a request', async () => {
    const cases = [
      'null',
      '42',
      '"eth_chainId"',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}',
      '{"jsonrpc":"2.0","id":[1],"method":"eth_chainId"}',
      '{"jsonrpc":"2.0","id":1,"method":""}',
    ]
    for (const body of cases) {
      const r = await post(node.url, body)
      expect(r.status, body).toBe(200)
      expect(r.json.error.code, body).toBe(-32600)
      expect(r.json.result, body).toBeUndefined()
    }
    // An object/array id is not echoed.
    expect((await post(node.url, cases[5]!)).json.id).toBeNull()
    // A request with a usable id and a bad envelope keeps its id.
    expect((await post(node.url, cases[4]!)).json.id).toBe(1)
  })

  it('-32601 with geth wording for unknown methods and prototype names', async () => {
    for (const name of ['eth_nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'evm_notAMethod', 'anvil_notAMethod', 'debug_setHead']) {
      const r = await node.rpc(name, [])
      expect(r.error, name).toEqual({ code: -32601, message: `the method ${name} does not exist/is not available` })
    }
  })

  it('-32602 names the bad argument with geth hexutil wording', async () => {
    const cases: [string, unknown[], string][] = [
      ['eth_getBalance', ['8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest'], 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address'],
      ['eth_getBalance', [EWOQ_ADDRESS, '0x01'], 'invalid argument 1: hex number with leading zero digits'],
      ['eth_getBalance', ['0x8db97c', 'latest'], 'invalid argument 0: hex string has length 6, want 40 for common.Address'],
      ['eth_getBalance', [EWOQ_ADDRESS, 'latestt'], 'invalid argument 1: hex string without 0x prefix'],
      ['eth_getBlockByNumber', ['0x0', 'yes'], 'invalid argument 1: json: cannot unmarshal string into Go value of type bool'],
      ['eth_getBlockByNumber', ['0x', false], 'invalid argument 0: hex string "0x"'],
      ['eth_getBlockByNumber', ['0xzz', false], 'invalid argument 0: invalid hex string'],
      ['eth_getBlockByHash', ['0x1234', false], 'invalid argument 0: hex string has length 4, want 64 for common.Hash'],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x0', '0x10000000000000000'], 'invalid argument 1: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint'],
      ['eth_sendRawTransaction', ['0xabc'], 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'],
      ['eth_getBalance', [], 'missing value for required argument 0'],
      ['eth_chainId', [1], 'too many arguments, want at most 0'],
    ]
    for (const [method, params, message] of cases) {
      const r = await node.rpc(method, params)
      expect(r.error, `${method} ${JSON.stringify(params)}`).toEqual({ code: -32602, message })
    }
  })

  it('null in an optional position means the argument was left out (geth)', async () => {
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, null])).toBe('0x295be96e64066972000000')
  })

  it('echoes string, number and big-number ids exactly; notifications get no answer', async () => {
    expect((await post(node.url, '{"jsonrpc":"2.0","id":"abc","method":"eth_chainId"}')).json.id).toBe('abc')
    const big = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"eth_chainId"}' })
    expect(await big.text()).toBe('{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":"0xa868"}')
    const note = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"eth_chainId"}' })
    expect(note.status).toBe(200)
    expect(await note.text()).toBe('')
  })

  it('echoes numeric ids byte for byte: exponents, fractions, -0, in single requests and batches (fuzz finding)', async () => {
    for (const tok of ['1E+3', '1e3', '1.0', '-0', '2.50', '1.5']) {
      const one = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id": ${tok},"method":"eth_chainId"}` })
      expect(await one.text()).toBe(`{"jsonrpc":"2.0","id":${tok},"result":"0xa868"}`)
    }
    const batch = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[{"jsonrpc":"2.0","id":7,"method":"eth_chainId"},{"jsonrpc":"2.0","id":1e2,"method":"eth_chainId"}]',
    })
    expect(await batch.text()).toBe('[{"jsonrpc":"2.0","id":7,"result":"0xa868"},{"jsonrpc":"2.0","id":1e2,"result":"0xa868"}]')
  })
})

describe('JSON-RPC batches', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'batch-request-limit': 3 } })
  })
  afterAll(() => node.close())

  it('answers every item in request order, each with its own result or error', async () => {
    const batch = [
      req(1, 'eth_chainId'),
      req('two', 'eth_nope'),
      { jsonrpc: '2.0', method: 'eth_chainId' }, // notification: no answer
    ]
    const r = await post(node.url, JSON.stringify(batch))
    expect(r.status).toBe(200)
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0xa868' },
      { jsonrpc: '2.0', id: 'two', error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
    ])
  })

  it('mixes invalid items, invalid params and results in one batch', async () => {
    const r = await post(node.url, JSON.stringify([req(7, 'eth_getBalance', ['0x12', 'latest']), 5, req(8, 'net_version')]))
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'invalid argument 0: hex string has length 2, want 40 for common.Address' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      { jsonrpc: '2.0', id: 8, result: '1' },
    ])
  })

  it('an empty batch is one -32600', async () => {
    const r = await post(node.url, '[]')
    expect(r.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
  })

  it('a batch over batch-request-limit is one -32600 "batch too large" and runs nothing', async () => {
    const before = await node.call('eth_blockNumber')
    const items = [req(1, 'eth_chainId'), req(2, 'eth_chainId'), req(3, 'eth_chainId'), req(4, 'eth_sendRawTransaction', ['0x00'])]
    const r = await post(node.url, JSON.stringify(items))
    // geth: an array holding one error, with the first call's id.
    expect(r.json).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }])
    expect(await node.call('eth_blockNumber')).toBe(before)
    // At the limit it is served.
    const ok = await post(node.url, JSON.stringify(items.slice(0, 3)))
    expect(ok.json.map((x: any) => x.result)).toEqual(['0xa868', '0xa868', '0xa868'])
  })
})

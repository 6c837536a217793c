import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send } from '../helpers/chain.js'
import { GRANITE, EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/** JUMPDEST PUSH1 0 JUMP: a loop only gas ends. */
const LOOP_CODE = '0x5b600056'
const LOOP = '0x00000000000000000000000000000000000c0ffe'
const loopCall = { from: EWOQ_ADDRESS, to: LOOP, gas: '0x7fffffffffffffff' }
const overrides = { [LOOP]: { code: LOOP_CODE } }

/** Calls eth_chainId and friends until `busy` settles; every answer must come within 1 s (docs/SECURITY.md, E3). */
async function staysLive(node: TestNode, busy: Promise<unknown>): Promise<number> {
  let done = false
  void busy.finally(() => {
    done = true
  })
  let answered = 0
  const methods: [string, unknown[]][] = [
    ['eth_chainId', []],
    ['eth_blockNumber', []],
    ['eth_getBalance', [EWOQ_ADDRESS, 'latest']],
  ]
  while (!done) {
    const [method, params] = methods[answered % methods.length]!
    const t0 = performance.now()
    const r = await node.rpc(method, params)
    expect(performance.now() - t0, method).toBeLessThan(1000)
    expect(r.result).toBeDefined()
    answered++
  }
  return answered
}

/** The node still serves and mines after a limited call. */
async function stillWorks(node: TestNode): Promise<void> {
  expect(await node.call('eth_chainId')).toBe('0xa868')
  const { receipt } = await send(node, { to: Wallet.createRandom().address, value: 1n })
  expect(receipt.status).toBe('0x1')
  expect(await node.call('eth_call', [{ to: LOOP, data: '0x' }, 'latest', { [LOOP]: { code: '0x602a60005260206000f3' } }])).toBe('0x' + '2a'.padStart(64, '0'))
}

// Real time on purpose (no SkipClock): these limits stop an EVM loop that really runs, and the
// tests check that the node keeps answering and mining while it does.
describe('EVM wall-time limit (rpc-evm-timeout) and isolation', () => {
  let node: TestNode
  beforeAll(async () => {
    // Granite's 100,000,000-gas blocks: eth_simulateV1's 200,000,000-gas loop needs more than Helicon's 20,000,000.
    node = await startTestNode({ chain: { ...GRANITE, 'rpc-evm-timeout': '1s', 'rpc-gas-cap': 0 } })
  })
  afterAll(() => node.close())

  it("eth_call of an endless loop answers geth's timeout error while other requests and mining go on", async () => {
    const call = node.rpc('eth_call', [loopCall, 'latest', overrides])
    const mined = send(node, { to: Wallet.createRandom().address, value: 1n })
    expect(await staysLive(node, call)).toBeGreaterThan(0)
    expect((await mined).receipt.status).toBe('0x1')
    expect((await call).error).toEqual({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    await stillWorks(node)
  })

  it('eth_estimateGas stops at the limit', async () => {
    const estimate = node.rpc('eth_estimateGas', [loopCall, 'latest', overrides])
    expect(await staysLive(node, estimate)).toBeGreaterThan(0)
    expect((await estimate).error).toEqual({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    await stillWorks(node)
  })

  it('debug_traceCall stops at the limit; a shorter tracer timeout keeps its own error', async () => {
    const trace = node.rpc('debug_traceCall', [loopCall, 'latest', { tracer: 'callTracer', stateOverrides: overrides }])
    expect(await staysLive(node, trace)).toBeGreaterThan(0)
    expect((await trace).error).toEqual({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    const short = await node.rpc('debug_traceCall', [loopCall, 'latest', { tracer: 'callTracer', timeout: '200ms', stateOverrides: overrides }])
    expect(short.error).toEqual({ code: -32000, message: 'execution timeout' })
    await stillWorks(node)
  })

  it('eth_simulateV1 and eth_createAccessList stop at the limit', async () => {
    const sim = await node.rpc('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: overrides, calls: [{ from: EWOQ_ADDRESS, to: LOOP, gas: '0xbebc200' }] }] }, 'latest'])
    expect(sim.error).toEqual({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    // eth_createAccessList takes no overrides: deploy the loop.
    const { receipt } = await send(node, { data: '0x6004600c60003960046000f3' + LOOP_CODE.slice(2), gasLimit: 100_000n })
    const list = await node.rpc('eth_createAccessList', [{ ...loopCall, to: receipt.contractAddress }, 'latest'])
    expect(list.error).toEqual({ code: -32000, message: 'execution aborted (timeout = 1s)' })
  })
})

describe('request deadline (api-max-duration)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'api-max-duration': '300ms', 'rpc-evm-timeout': 0, 'rpc-gas-cap': 0 } })
  })
  afterAll(() => node.close())

  it('answers -32002 and cancels the EVM work; a batch keeps the answers made in time', async () => {
    expect(await node.rpc('eth_call', [loopCall, 'latest', overrides])).toEqual({ jsonrpc: '2.0', id: expect.any(Number), error: { code: -32002, message: 'request timed out' } })
    const res = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'b', method: 'eth_call', params: [loopCall, 'latest', overrides] },
      ]),
    })
    expect(await res.json()).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0xa868' },
      { jsonrpc: '2.0', id: 'b', error: { code: -32002, message: 'request timed out' } },
    ])
    // The loops were cancelled: calls on the same state run again (they would queue behind a loop forever).
    await stillWorks(node)
  })
})

describe('method name length and params depth (rpc-max-method-name-length, rpc-max-params-depth)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode({ chain: { 'rpc-max-method-name-length': 16, 'rpc-max-params-depth': 3 } })
  })
  afterAll(() => node.close())

  it('a name over the configured length is -32601 "method name too long"', async () => {
    expect((await node.rpc('eth_blockNumber', [])).result).toBe('0x0') // 15 characters
    expect((await node.rpc('eth_getBlockByNumber', ['latest', false])).error).toEqual({ code: -32601, message: 'method name too long' })
  })

  it('params nested deeper than configured are -32600', async () => {
    expect((await node.rpc('eth_call', [{ to: LOOP, data: '0x' }, 'latest', { [LOOP]: { code: '0x00' } }])).result).toBe('0x') // depth 3
    expect((await node.rpc('eth_call', [{ to: LOOP, data: '0x' }, 'latest', { [LOOP]: { stateDiff: { ['0x' + '0'.repeat(64)]: ['0x'] } } }])).error).toEqual({
      code: -32600,
      message: 'params nested too deeply',
    })
  })
})

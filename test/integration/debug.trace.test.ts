import { Wallet, getAddress } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, send } from '../helpers/chain.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * debug_trace*: geth's struct logger, callTracer, prestateTracer and the tracing API's errors
 * (eth/tracers/api.go, logger/logger.go, native/call.go, native/prestate.go).
 */

const probe = iface('Probe')
const COINBASE = '0x0100000000000000000000000000000000000000'
const word = (n: bigint | number) => '0x' + n.toString(16).padStart(64, '0')

/** Runtime code that forwards its calldata to `target`, logs the success flag (LOG1), and returns or reverts with the callee's data. */
function forwarder(target: string): string {
  const pre = '3660006000' + '37' + '6000' + '6000' + '36' + '6000' + '6000' + '73' + target.slice(2).toLowerCase() + '5a' + 'f1' + '80' + '6000' + '6000' + 'a1' + '3d' + '6000' + '6000' + '3e'
  const dest = pre.length / 2 + 2 + 1 + 4
  const runtime = pre + '60' + dest.toString(16).padStart(2, '0') + '57' + '3d6000fd' + '5b' + '3d6000f3'
  const len = runtime.length / 2
  return '0x61' + len.toString(16).padStart(4, '0') + '80600c6000396000f3' + runtime
}

/** Intrinsic gas of a call transaction (21000 + 16 per non-zero and 4 per zero calldata byte). */
function intrinsic(data: string): number {
  let gas = 21000
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4 : 16
  return gas
}

describe('debug_trace*', () => {
  let node: TestNode
  let probeAddr: string
  let fwdAddr: string
  let transfer: { hash: string; receipt: any }
  let setTx: { hash: string; receipt: any }
  let failTx: { hash: string; receipt: any }
  let nestedTx: { hash: string; receipt: any }
  const bob = Wallet.createRandom().address
  const setData = probe.encodeFunctionData('set', [42n])

  beforeAll(async () => {
    node = await startTestNode()
    probeAddr = (await deploy(node, 'Probe')).address
    const fwd = await send(node, { data: forwarder(probeAddr), gasLimit: 200_000n })
    fwdAddr = fwd.receipt.contractAddress
    transfer = await send(node, { to: bob, value: 1000n })
    setTx = await send(node, { to: probeAddr, data: setData, gasLimit: 100_000n })
    failTx = await send(node, { to: probeAddr, data: probe.encodeFunctionData('fail', ['boom']), gasLimit: 100_000n })
    nestedTx = await send(node, { to: fwdAddr, data: probe.encodeFunctionData('set', [7n]), gasLimit: 150_000n })
  })
  afterAll(() => node.close())

  it('a plain transfer has no struct logs and 21000 gas', async () => {
    expect(await node.call('debug_traceTransaction', [transfer.hash])).toEqual({ gas: 21000, failed: false, returnValue: '0x', structLogs: [] })
  })

  it('struct logs of a contract call: geth fields, gas that adds up, storage of SSTORE', async () => {
    const r = await node.call('debug_traceTransaction', [setTx.hash])
    expect(r.gas).toBe(Number(setTx.receipt.gasUsed))
    expect(r.failed).toBe(false)
    expect(r.returnValue).toBe('0x')
    const logs = r.structLogs as any[]
    expect(logs[0]).toEqual({ pc: 0, op: 'PUSH1', gas: 100_000 - intrinsic(setData), gasCost: 3, depth: 1, stack: [] })
    for (let i = 0; i + 1 < logs.length; i++) {
      expect(Object.keys(logs[i]).slice(0, 5)).toEqual(['pc', 'op', 'gas', 'gasCost', 'depth'])
      expect(logs[i + 1].gas).toBe(logs[i].gas - logs[i].gasCost)
      for (const v of logs[i].stack) expect(v).toMatch(/^0x(0|[1-9a-f][0-9a-f]*)$/)
    }
    expect(logs.at(-1).op).toBe('STOP')
    const sstore = logs.find((l) => l.op === 'SSTORE')
    expect(sstore.storage).toEqual({ [word(0)]: word(42) })
    expect(sstore.gasCost).toBe(22100) // cold slot, 0 -> non-zero
    expect(sstore.stack.slice(-2)).toEqual(['0x2a', '0x0'])
    expect(logs.some((l) => l.op === 'LOG2')).toBe(true)
    expect(logs.every((l) => l.memory === undefined && l.returnData === undefined)).toBe(true)
  })

  it('options: disableStack, disableStorage, enableMemory (0x-prefixed 32-byte words)', async () => {
    const r = await node.call('debug_traceTransaction', [setTx.hash, { disableStack: true, disableStorage: true, enableMemory: true }])
    const logs = r.structLogs as any[]
    expect(logs.every((l) => l.stack === undefined && l.storage === undefined)).toBe(true)
    expect(logs[0].memory).toBeUndefined() // empty memory is left out
    expect(logs[2].op).toBe('MSTORE')
    expect(logs[2].memory).toBeUndefined() // memory as it is before the step runs
    expect(logs[3].memory).toEqual([word(0), word(0), word(0x80)])
  })

  it('limit caps the number of steps logged (coreth; geth documents it so)', async () => {
    const full = (await node.call('debug_traceTransaction', [setTx.hash])).structLogs as any[]
    expect(full.length).toBeGreaterThan(5)
    expect((await node.call('debug_traceTransaction', [setTx.hash, { limit: 1 }])).structLogs).toEqual(full.slice(0, 1))
    expect((await node.call('debug_traceTransaction', [setTx.hash, { limit: 5 }])).structLogs).toEqual(full.slice(0, 5))
    expect((await node.call('debug_traceTransaction', [setTx.hash, { limit: 0 }])).structLogs).toEqual(full)
  })

  it('a reverted transaction: failed, the revert data as returnValue, REVERT last', async () => {
    expect(failTx.receipt.status).toBe('0x0')
    const r = await node.call('debug_traceTransaction', [failTx.hash])
    expect(r.failed).toBe(true)
    expect(r.gas).toBe(Number(failTx.receipt.gasUsed))
    expect(r.returnValue).toBe('0x08c379a0' + probe.encodeFunctionResult('fail', []).slice(2) + '0'.repeat(62) + '20' + '0'.repeat(62) + '04' + Buffer.from('boom').toString('hex').padEnd(64, '0'))
    expect(r.structLogs.at(-1).op).toBe('REVERT')
    expect(r.structLogs.every((l: any) => l.error === undefined)).toBe(true)
  })

  it('out of gas: the failing step carries the error, returnValue is empty', async () => {
    const tx = await send(node, { to: probeAddr, data: probe.encodeFunctionData('set', [5n]), gasLimit: BigInt(intrinsic(setData) + 5000) })
    expect(tx.receipt.status).toBe('0x0')
    const r = await node.call('debug_traceTransaction', [tx.hash])
    expect(r).toMatchObject({ failed: true, returnValue: '0x', gas: Number(tx.receipt.gasUsed) })
    const last = r.structLogs.at(-1)
    expect(last.op).toBe('SSTORE')
    expect(last.error).toBe('out of gas')
    expect(Object.keys(last).slice(0, 6)).toEqual(['pc', 'op', 'gas', 'gasCost', 'depth', 'error'])
    const call = await node.call('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
    expect(call.error).toBe('out of gas')
    expect(call.output).toBeUndefined()
  })

  it("callTracer: nested calls with logs and their positions; gasUsed is the receipt's", async () => {
    const r = await node.call('debug_traceTransaction', [nestedTx.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])
    const inner = probe.encodeFunctionData('set', [7n])
    expect(Object.keys(r)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'calls', 'logs', 'value', 'type'])
    expect(r).toMatchObject({ from: ewoq.address.toLowerCase(), gas: '0x249f0', gasUsed: nestedTx.receipt.gasUsed, to: fwdAddr.toLowerCase(), input: inner, value: '0x0', type: 'CALL' })
    expect(r.calls).toHaveLength(1)
    const c = r.calls[0]
    expect(c).toMatchObject({ from: fwdAddr.toLowerCase(), to: probeAddr.toLowerCase(), input: inner, value: '0x0', type: 'CALL' })
    expect(BigInt(c.gasUsed)).toBeLessThan(BigInt(c.gas))
    expect(c.output).toBeUndefined() // set() returns nothing
    expect(c.logs).toEqual([
      {
        address: probeAddr.toLowerCase(),
        topics: [probe.getEvent('Stored')!.topicHash, '0x' + fwdAddr.slice(2).toLowerCase().padStart(64, '0')],
        data: word(7),
        index: '0x0',
        position: '0x0',
      },
    ])
    expect(r.logs).toEqual([{ address: fwdAddr.toLowerCase(), topics: [word(1)], data: '0x', index: '0x1', position: '0x1' }])
    // The struct logs agree: a CALL's cost includes the gas it hands over, which the callee starts with.
    const logs = (await node.call('debug_traceTransaction', [nestedTx.hash])).structLogs as any[]
    const at = logs.findIndex((l) => l.op === 'CALL')
    expect(logs[at + 1]).toMatchObject({ depth: 2, pc: 0, gas: Number(c.gas) })
    const back = logs.findIndex((l, j) => j > at && l.depth === 1)
    expect(logs[back].gas).toBe(logs[at].gas - logs[at].gasCost + Number(c.gas) - Number(c.gasUsed))
    const top = await node.call('debug_traceTransaction', [nestedTx.hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }])
    expect(top.calls).toBeUndefined()
    expect(top.logs).toBeUndefined()
    expect(top.gasUsed).toBe(r.gasUsed)
  })

  it('callTracer: a reverted nested call gives error, output and revertReason at both levels; its logs are dropped', async () => {
    const data = probe.encodeFunctionData('fail', ['nope'])
    const r = await node.call('debug_traceCall', [{ from: ewoq.address, to: fwdAddr, data, gas: '0x30000' }, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }])
    expect(r).toMatchObject({ type: 'CALL', error: 'execution reverted', revertReason: 'nope', gas: '0x30000' })
    expect(r.calls[0]).toMatchObject({ type: 'CALL', error: 'execution reverted', revertReason: 'nope', to: probeAddr.toLowerCase() })
    expect(r.output).toBe(r.calls[0].output)
    expect(r.logs).toBeUndefined()
  })

  it('prestateTracer: accounts and slots as they were; diffMode gives post and pre', async () => {
    const pre = await node.call('debug_traceTransaction', [setTx.hash, { tracer: 'prestateTracer' }])
    const sender = ewoq.address.toLowerCase()
    expect(Object.keys(pre)).toEqual([COINBASE, probeAddr.toLowerCase(), sender].sort())
    const p = pre[probeAddr.toLowerCase()]
    expect(Object.keys(p)).toEqual(['balance', 'code', 'codeHash', 'nonce', 'storage'])
    expect(p).toMatchObject({ balance: '0x0', nonce: 1, storage: { [word(0)]: word(0) } })
    expect(p.code).toBe(await node.call('eth_getCode', [probeAddr, 'latest']))
    expect(typeof pre[sender].nonce).toBe('number')
    const diff = await node.call('debug_traceTransaction', [setTx.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])
    expect(Object.keys(diff)).toEqual(['post', 'pre'])
    expect(diff.post[probeAddr.toLowerCase()]).toEqual({ storage: { [word(0)]: word(42) } })
    expect(diff.pre[probeAddr.toLowerCase()]).toEqual({ balance: '0x0', code: p.code, codeHash: p.codeHash, nonce: 1 })
    expect(diff.post[sender].nonce).toBe(diff.pre[sender].nonce + 1)
    expect(BigInt(diff.post[sender].balance)).toBeLessThan(BigInt(diff.pre[sender].balance))
    expect(await node.rpc('debug_traceTransaction', [setTx.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }])).toMatchObject({
      error: { code: -32000, message: 'cannot use diffMode with includeEmpty' },
    })
  })

  it('traces a REVERT of memory far beyond its gas as an out-of-gas step, as geth, instead of failing', async () => {
    // PUSH1 0x48 PUSH5 0x0100000000 REVERT: 72 bytes at 2^32 (ethereumjs's step event read them before the gas check).
    const at = '0x00000000000000000000000000000000000000aa'
    const overrides = { stateOverrides: { [at]: { code: '0x6048640100000000fd' } } }
    const call = await node.call('debug_traceCall', [{ to: at, gas: '0x100000' }, 'latest', { tracer: 'callTracer', ...overrides }])
    expect(call).toMatchObject({ to: at, gas: '0x100000', gasUsed: '0x100000', error: 'out of gas', type: 'CALL' })
    const logs = await node.call('debug_traceCall', [{ to: at, gas: '0x100000' }, 'latest', overrides])
    expect(logs).toMatchObject({ failed: true, gas: 0x100000, returnValue: '0x' })
    expect(logs.structLogs.map((l: any) => l.op)).toEqual(['PUSH1', 'PUSH5', 'REVERT'])
    expect(logs.structLogs.at(-1)).toMatchObject({ op: 'REVERT', error: 'out of gas' })
  })

  it('traceCall with state overrides and block overrides', async () => {
    const data = probe.encodeFunctionData('stored')
    const r = await node.call('debug_traceCall', [{ to: probeAddr, data }, 'latest', { stateOverrides: { [probeAddr]: { stateDiff: { [word(0)]: word(99) } } } }])
    expect(r.failed).toBe(false)
    expect(r.returnValue).toBe(word(99))
    expect(r.structLogs.find((l: any) => l.op === 'SLOAD').storage).toEqual({ [word(0)]: word(99) })
    const ctx = await node.call('debug_traceCall', [
      { to: probeAddr, data: probe.encodeFunctionData('context') },
      'latest',
      { tracer: 'callTracer', blockOverrides: { number: '0x1234', feeRecipient: bob } },
    ])
    const [, number, , , coinbase] = probe.decodeFunctionResult('context', ctx.output)
    expect(number).toBe(0x1234n)
    expect(coinbase).toBe(getAddress(bob))
    expect(await node.rpc('debug_traceCall', [{ to: probeAddr, data }, 'pending'])).toMatchObject({ error: { code: -32000, message: 'tracing on top of pending is not supported' } })
  })

  it('traceBlockByNumber and traceBlockByHash: one {txHash, result} per transaction', async () => {
    const block = await node.call('eth_getBlockByHash', [nestedTx.receipt.blockHash, false])
    const byHash = await node.call('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])
    expect(byHash).toEqual([{ txHash: nestedTx.hash, result: await node.call('debug_traceTransaction', [nestedTx.hash, { tracer: 'callTracer' }]) }])
    expect(await node.call('debug_traceBlockByNumber', [block.number])).toEqual([{ txHash: nestedTx.hash, result: await node.call('debug_traceTransaction', [nestedTx.hash]) }])
    expect(await node.rpc('debug_traceBlockByNumber', ['0x0'])).toMatchObject({ error: { code: -32000, message: 'genesis is not traceable' } })
    expect(await node.rpc('debug_traceBlockByNumber', ['0xffff'])).toMatchObject({ error: { code: -32000, message: 'block #65535 not found' } })
    expect(await node.rpc('debug_traceBlockByNumber', ['3'])).toMatchObject({ error: { code: -32602, message: 'invalid argument 0: hex string without 0x prefix' } })
    const none = '0x' + '00'.repeat(31) + '01'
    expect(await node.rpc('debug_traceBlockByHash', [none])).toMatchObject({ error: { code: -32000, message: `block ${none} not found` } })
  })

  it('errors: unknown transaction, unknown tracer, bad timeout, timeout expiry; 4byte and noop tracers', async () => {
    expect(await node.rpc('debug_traceTransaction', ['0x' + '00'.repeat(31) + '01'])).toMatchObject({ error: { code: -32000, message: 'transaction not found' } })
    const unknown = await node.rpc('debug_traceTransaction', [setTx.hash, { tracer: 'fooTracer' }])
    expect(unknown.error?.code).toBe(-32000)
    expect(unknown.error?.message).toMatch(/^ReferenceError: fooTracer is not defined/)
    expect(await node.rpc('debug_traceTransaction', [setTx.hash, { timeout: 'abc' }])).toMatchObject({ error: { code: -32000, message: 'time: invalid duration "abc"' } })
    const slow = await node.rpc('debug_traceCall', [{ to: probeAddr, data: probe.encodeFunctionData('burn', [5000n]) }, 'latest', { timeout: '1ms' }])
    expect(slow).toMatchObject({ error: { code: -32000, message: 'execution timeout' } })
    // The transaction's call and the forwarded one: set(uint256) twice, 32 bytes of arguments.
    expect(await node.call('debug_traceTransaction', [nestedTx.hash, { tracer: '4byteTracer' }])).toEqual({ [`${setData.slice(0, 10)}-32`]: 2 })
    expect(await node.call('debug_traceTransaction', [nestedTx.hash, { tracer: 'noopTracer' }])).toEqual({})
  })
})

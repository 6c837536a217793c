import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import pino from 'pino'
import { Dispatcher, MAX_METHOD_NAME_LENGTH } from '../../../src/rpc/dispatch.js'
import { method } from '../../../src/rpc/types.js'
import { Address, BlockRef } from '../../../src/rpc/schemas.js'
import { RpcError, formatZodError, toJsonRpcError } from '../../../src/rpc/errors.js'
import * as atomicErrors from '../../../src/atomic/errors.js'
import * as avalancheErrors from '../../../src/avalanche/errors.js'
import * as engineErrors from '../../../src/engine/base/errors.js'

const log = pino({ level: 'silent' })
const notified = vi.fn()

const table = {
  eth_chainId: method(z.tuple([]), () => '0xa868'),
  two: method(z.tuple([z.string(), z.number().optional()]), ([a, b]) => ({ a, b: b ?? 'absent' })),
  later: method(z.tuple([z.number()]), async ([ms]) => {
    await new Promise((r) => setTimeout(r, ms))
    return ms
  }),
  big: method(z.tuple([z.number()]), ([n]) => 'x'.repeat(n)),
  any: method(z.tuple([z.unknown()]), () => true),
  named: method(z.object({ address: z.string() }), ({ address }) => address),
  notify: method(z.tuple([]), () => {
    notified()
  }),
  nothing: method(z.tuple([]), () => undefined),
  /** What the handler got parsed and as the client sent it (the 5th argument). */
  raw: method(z.tuple([z.string().transform((s) => s.length), z.number().optional()]), (params, _call, _origin, _cancel, raw) => ({
    params,
    raw,
    secondAbsent: Array.isArray(raw) && raw.length > 1 && raw[1] === undefined,
  })),
  /** A schema the quick parser takes (src/rpc/quickParse.ts): the raw params still reach the handler unparsed. */
  quickRaw: method(z.tuple([Address, BlockRef.optional()]), (_params, _call, _origin, _cancel, raw) => raw),
  bigint: method(z.tuple([]), () => 1n),
  throws: method(z.tuple([]), () => {
    throw new Error('secret cause')
  }),
  reverts: method(z.tuple([]), async () => {
    throw new engineErrors.ExecutionRevertedError(Uint8Array.from([0xde, 0xad]), 'nope')
  }),
  /** Runs until the request is cancelled, then records that it saw the cancellation. */
  untilCancelled: method(z.tuple([]), async (_p, _call, _origin, cancel) => {
    while (cancel?.aborted !== true) await new Promise((r) => setTimeout(r, 5))
    cancelled()
    return 'late'
  }),
}
const cancelled = vi.fn()

function dispatcher(opts: Partial<{ batchRequestLimit: number; batchResponseMaxSize: number; requestTimeoutMs: number }> = {}): Dispatcher {
  return new Dispatcher(table, { batchRequestLimit: 1000, batchResponseMaxSize: 25_000_000, log, ...opts })
}

const d = dispatcher()
async function call(body: string, disp = d): Promise<any> {
  const out = await disp.handle(body)
  return out === undefined ? undefined : JSON.parse(out)
}
const req = (m: string, params?: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: m, params })

describe('Dispatcher envelope', () => {
  it('answers a plain call with the exact text', async () => {
    expect(await d.handle('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}')
  })

  it.each(['{', '', 'NaN', '{"a":1,}', '// x\n{}', '[1,]'])('parse error for %j', async (body) => {
    expect(await d.handle(body)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
  })

  it.each(['null', '1', '"s"', 'true'])('invalid request for %s', async (body) => {
    expect(await call(body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } })
  })

  it.each([
    ['missing jsonrpc', { id: 1, method: 'eth_chainId' }, 1],
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'eth_chainId' }, 1],
    ['numeric jsonrpc', { jsonrpc: 2.0, id: 1, method: 'eth_chainId' }, 1],
    ['missing method', { jsonrpc: '2.0', id: 1 }, 1],
    ['method not a string', { jsonrpc: '2.0', id: 1, method: 5 }, 1],
    ['empty method', { jsonrpc: '2.0', id: 1, method: '' }, 1],
    ['object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' }, null],
    ['array id', { jsonrpc: '2.0', id: [1], method: 'eth_chainId' }, null],
    ['boolean id', { jsonrpc: '2.0', id: true, method: 'eth_chainId' }, null],
    ['invalid without id', { jsonrpc: '2.0', method: 7 }, null],
  ])('-32600 for %s', async (_name, body, id) => {
    expect(await call(JSON.stringify(body))).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } })
  })

  it('echoes string, null and big ids exactly', async () => {
    expect(await d.handle(req('eth_chainId', [], 'a"b'))).toBe('{"jsonrpc":"2.0","id":"a\\"b","result":"0xa868"}')
    expect(await d.handle(req('eth_chainId', [], null))).toBe('{"jsonrpc":"2.0","id":null,"result":"0xa868"}')
    const big = '{"id":12345678901234567890123,"jsonrpc":"2.0","method":"eth_chainId"}'
    expect(await d.handle(big)).toBe('{"jsonrpc":"2.0","id":12345678901234567890123,"result":"0xa868"}')
    // Only ids that are not safe integers are re-read from the text: escaped key, tricky strings, nested ids.
    const odd = '{"id":7, "\\u0069d" : 1.50e-3 , "jsonrpc":"2.0","method":"any","params":[{"s":"]}\\"","id":2}]}'
    expect(await d.handle(odd)).toBe('{"jsonrpc":"2.0","id":1.50e-3,"result":true}')
    const batch = '[{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}, 5, {"jsonrpc":"2.0","method":"eth_chainId","id":-9007199254740993}]'
    expect(await d.handle(batch)).toBe(
      '[{"jsonrpc":"2.0","id":"x","result":"0xa868"},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}},{"jsonrpc":"2.0","id":-9007199254740993,"result":"0xa868"}]',
    )
  })

  it('looks methods up only in the table', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'nope']) {
      expect(await call(req(name, []))).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `the method ${name} does not exist/is not available` } })
    }
    const long = await call(req('x'.repeat(MAX_METHOD_NAME_LENGTH + 1), []))
    expect(long.error).toEqual({ code: -32601, message: 'method name too long' })
  })

  it('runs notifications without answering', async () => {
    notified.mockClear()
    expect(await d.handle('{"jsonrpc":"2.0","method":"notify"}')).toBeUndefined()
    expect(await d.handle('[{"jsonrpc":"2.0","method":"notify"},{"jsonrpc":"2.0","method":"nope"}]')).toBeUndefined()
    expect(notified).toHaveBeenCalledTimes(2)
  })

  it('answers null for an undefined result', async () => {
    expect(await d.handle(req('nothing'))).toBe('{"jsonrpc":"2.0","id":1,"result":null}')
  })
})

describe('Dispatcher params', () => {
  it('checks arity with geth wording', async () => {
    expect((await call(req('two', ['a', 1, 2]))).error).toEqual({ code: -32602, message: 'too many arguments, want at most 2' })
    expect((await call(req('eth_chainId', [1]))).error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
    expect((await call(req('two', []))).error).toEqual({ code: -32602, message: 'missing value for required argument 0' })
    expect((await call(req('two'))).error).toEqual({ code: -32602, message: 'missing value for required argument 0' })
    expect((await call(req('two', { a: 'x' }))).error).toEqual({ code: -32602, message: 'non-array args' })
    // geth parsePositionalArguments: any other non-array is "non-array args" too, and null is no params.
    for (const params of ['x', 5, true]) expect((await call(req('eth_chainId', params))).error).toEqual({ code: -32602, message: 'non-array args' })
    expect((await call(req('eth_chainId', null))).result).toBe('0xa868')
    expect((await call(req('two', null))).error).toEqual({ code: -32602, message: 'missing value for required argument 0' })
  })

  it('reports schema failures as invalid argument N', async () => {
    const res = await call(req('two', ['a', 'b']))
    expect(res.error.code).toBe(-32602)
    expect(res.error.message).toMatch(/^invalid argument 1: /)
  })

  it('treats null in an optional position as absent', async () => {
    expect((await call(req('two', ['a', null]))).result).toEqual({ a: 'a', b: 'absent' })
    expect((await call(req('two', ['a']))).result).toEqual({ a: 'a', b: 'absent' })
    expect((await call(req('two', [null]))).error.message).toMatch(/^invalid argument 0: /)
  })

  it("hands the handler the client's params before parsing, with a null in an optional position made absent", async () => {
    expect((await call(req('raw', ['abc', 7]))).result).toEqual({ params: [3, 7], raw: ['abc', 7], secondAbsent: false })
    expect((await call(req('raw', ['abc', null]))).result).toEqual({ params: [3, null], raw: ['abc', null], secondAbsent: true })
    const address = '0x8DB97C7CEcE249C2B98BDC0226CC4C2A57BF52FC'
    expect((await call(req('quickRaw', [address, '0x1F']))).result).toEqual([address, '0x1F'])
    expect((await call(req('quickRaw', [address, { blockHash: '0x' + 'ab'.repeat(32) }]))).result).toEqual([address, { blockHash: '0x' + 'ab'.repeat(32) }])
  })

  it('takes named params as an object or a one-element array', async () => {
    expect((await call(req('named', { address: 'x' }))).result).toBe('x')
    expect((await call(req('named', [{ address: 'y' }]))).result).toBe('y')
    expect((await call(req('named', {}))).error.code).toBe(-32602)
  })

  it('refuses params nested deeper than 128 without overflowing', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
    const res = await call(`{"jsonrpc":"2.0","id":1,"method":"any","params":[${deep(100_000)}]}`)
    expect(res.error.code).toBe(-32600)
    expect((await call(`{"jsonrpc":"2.0","id":1,"method":"any","params":[${deep(120)}]}`)).result).toBe(true)
  })
})

describe('Dispatcher handler errors', () => {
  it('hides internal causes', async () => {
    expect((await call(req('throws'))).error).toEqual({ code: -32603, message: 'internal error' })
    expect((await call(req('bigint'))).error).toEqual({ code: -32603, message: 'internal error' })
  })

  it('maps a revert from an async handler to code 3 with data', async () => {
    expect((await call(req('reverts'))).error).toEqual({ code: 3, message: 'execution reverted: nope', data: '0xdead' })
  })
})

describe('Dispatcher batches', () => {
  it('refuses an empty batch', async () => {
    expect(await call('[]')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
  })

  it('refuses a batch over the limit without running any item', async () => {
    notified.mockClear()
    const small = dispatcher({ batchRequestLimit: 2 })
    const body = JSON.stringify([1, 2, 3].map(() => ({ jsonrpc: '2.0', method: 'notify', id: 1 })))
    // geth respondWithBatchTooLarge: an array of one error, with the id of the first call.
    expect(await call(body, small)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }])
    expect(notified).not.toHaveBeenCalled()
    // Notifications and invalid items are not calls; without any call the id is null. A big id is echoed as written.
    const noCall = JSON.stringify([{ jsonrpc: '2.0', method: 'notify' }, 7, { jsonrpc: '1.0', id: 4, method: 'x' }])
    expect(await small.handle(noCall)).toBe('[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}]')
    const bigId = '[{"jsonrpc":"2.0","method":"notify"},{"jsonrpc":"2.0","id":12345678901234567890123,"method":"x"},{"jsonrpc":"2.0","id":"s","method":"x"}]'
    expect(await small.handle(bigId)).toBe('[{"jsonrpc":"2.0","id":12345678901234567890123,"error":{"code":-32600,"message":"batch too large"}}]')
  })

  it('runs items concurrently and keeps request order', async () => {
    const t0 = Date.now()
    const res = await call(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'later', params: [60] },
        { jsonrpc: '2.0', id: 2, method: 'later', params: [1] },
        [{ jsonrpc: '2.0', id: 3, method: 'eth_chainId' }],
        { jsonrpc: '2.0', id: 4, method: 'later', params: [60] },
      ]),
    )
    expect(Date.now() - t0).toBeLessThan(110)
    expect(res.map((r: { id: unknown }) => r.id)).toEqual([1, 2, null, 4])
    expect(res[2].error.code).toBe(-32600)
  })

  it('cuts the response off past batchResponseMaxSize', async () => {
    const small = dispatcher({ batchResponseMaxSize: 1000 })
    const items = [1, 2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'big', params: [600] }))
    const res = await call(JSON.stringify(items), small)
    expect(res[0].result).toHaveLength(600)
    expect(res[1].result).toHaveLength(600)
    expect(res[2]).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32003, message: 'response too large' } })
    expect(res[3].error.code).toBe(-32003)
  })

  it('counts the response in UTF-8 bytes, not characters: the answer that crosses the limit is the last one kept', async () => {
    // Each answer: 337 characters, 637 bytes (300 two-byte é); five are 3,185 bytes and 1,685 characters.
    const small = dispatcher({ batchResponseMaxSize: 3000 })
    const items = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({ jsonrpc: '2.0', id, method: 'named', params: { address: 'é'.repeat(300) } }))
    const res = await call(JSON.stringify(items), small)
    expect(res.slice(0, 5).map((r: { result: string }) => r.result.length)).toEqual([300, 300, 300, 300, 300])
    expect(res.slice(5).map((r: { error: { code: number } }) => r.error.code)).toEqual([-32003, -32003, -32003])
  })
})

describe('request deadline (api-max-duration)', () => {
  const timed = dispatcher({ requestTimeoutMs: 50 })
  const timedOut = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32002, message: 'request timed out' } })

  it('answers -32002 and cancels the handler', async () => {
    cancelled.mockClear()
    expect(await call(req('untilCancelled', [], 7), timed)).toEqual(timedOut(7))
    await vi.waitFor(() => expect(cancelled).toHaveBeenCalledTimes(1))
  })

  it('keeps the answers of a batch made in time and times out the rest; notifications get nothing', async () => {
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'untilCancelled' },
      { jsonrpc: '2.0', method: 'untilCancelled' },
      { jsonrpc: '2.0', id: 3, method: 'later', params: [1] },
    ])
    expect(await call(body, timed)).toEqual([{ jsonrpc: '2.0', id: 1, result: '0xa868' }, timedOut(2), { jsonrpc: '2.0', id: 3, result: 1 }])
  })

  it('leaves calls that finish in time alone', async () => {
    expect(await call(req('later', [1]), timed)).toEqual({ jsonrpc: '2.0', id: 1, result: 1 })
    expect(await call(req('eth_chainId'), timed)).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
  })
})

describe('toJsonRpcError', () => {
  const expected: Record<string, { code: number; message: string; data?: unknown }> = {
    EngineError: { code: -32000, message: 'm' },
    TxRejectedError: { code: -32000, message: 'm' },
    ExecutionRevertedError: { code: 3, message: 'execution reverted', data: '0x0102' },
    ExecutionFailedError: { code: -32000, message: 'm' },
    NotFoundError: { code: -32000, message: 'm' },
    InvalidParamsError: { code: -32602, message: 'm' },
    LimitExceededError: { code: -32005, message: 'm' },
    SimulateError: { code: -38020, message: 'm' },
    RequestTimeoutError: { code: -32002, message: 'request timed out' },
    // hardhat node's answer to a send whose transaction reverted in its block.
    TxFailedInBlockError: { code: -32603, message: 'm', data: { message: 'm', txHash: '0xab', data: '0x0102' } },
  }
  const classes = Object.entries(engineErrors).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error)

  it.each(classes)('maps %s', (name, Cls) => {
    const err =
      name === 'ExecutionRevertedError'
        ? new engineErrors.ExecutionRevertedError(Uint8Array.from([1, 2]))
        : name === 'SimulateError'
          ? new engineErrors.SimulateError('blockNumberInvalid', 'm')
          : name === 'TxFailedInBlockError'
            ? new engineErrors.TxFailedInBlockError('m', '0xab', Uint8Array.from([1, 2]), false)
            : new (Cls as new (m: string) => Error)('m')
    // A new class without an entry here must still be an EngineError (-32000).
    expect(toJsonRpcError(err)).toEqual(expected[name] ?? { code: -32000, message: 'm' })
  })

  it.each(Object.entries({ ...avalancheErrors, ...atomicErrors }).filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error))('maps Avalanche-side %s to -32000', (_, Cls) => {
    expect(toJsonRpcError(new (Cls as new (m: string) => Error)('already known: tx x is pending'))).toEqual({ code: -32000, message: 'already known: tx x is pending' })
  })

  it('passes RpcError through and hides anything else', () => {
    expect(toJsonRpcError(new RpcError(-32601, 'x', { a: 1 }))).toEqual({ code: -32601, message: 'x', data: { a: 1 } })
    expect(toJsonRpcError(new TypeError('boom'))).toEqual({ code: -32603, message: 'internal error' })
    expect(toJsonRpcError('str')).toEqual({ code: -32603, message: 'internal error' })
  })

  it('formats zod errors like geth', () => {
    const res = z.tuple([z.string(), z.number()]).safeParse(['a', 'b'])
    expect(res.success).toBe(false)
    if (!res.success) {
      expect(formatZodError(res.error)).toMatch(/^invalid argument 1: /)
      expect(toJsonRpcError(res.error).code).toBe(-32602)
    }
  })
})

import fc from 'fast-check'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { SLOW, quickTuple } from '../../../src/rpc/quickParse.js'
import { Address, BlockRef, CallRequest, StateOverride } from '../../../src/rpc/schemas.js'

const getBalance = z.tuple([Address, BlockRef.optional()])
const call = z.tuple([CallRequest, BlockRef.optional(), StateOverride.optional()])

/** Whenever the quick parse answers, it answers what zod does; the inputs it leaves are zod's. */
function agrees(schema: z.ZodType, list: unknown[]): unknown[] | typeof SLOW {
  const quick = quickTuple(schema)!(list)
  if (quick !== SLOW) expect(quick).toStrictEqual(schema.parse(list))
  return quick
}

const addr = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'
const hexText = fc.array(fc.constantFrom(...'0123456789abcdefABCDEFxg'.split('')), { maxLength: 70 }).map((a) => a.join(''))
const texts = fc.oneof(
  hexText.map((s) => '0x' + s),
  hexText,
  fc.constantFrom('latest', 'pending', 'earliest', 'safe', 'finalized', 'accepted', '', '0x', '0x0', '0x00', 'LATEST'),
)
const values = fc.oneof(texts, fc.constant(null), fc.integer(), fc.boolean())

describe('quickTuple', () => {
  it('takes the plain forms of eth_getBalance and eth_call params', () => {
    expect(agrees(getBalance, [addr, 'latest'])).not.toBe(SLOW)
    expect(agrees(getBalance, [addr.toUpperCase().replace('0X', '0x')])).not.toBe(SLOW)
    expect(agrees(getBalance, [addr, undefined])).not.toBe(SLOW)
    expect(agrees(call, [{ to: addr, data: '0x70a08231' + '00'.repeat(32) }, 'latest'])).not.toBe(SLOW)
    expect(agrees(call, [{ from: addr, to: addr, gas: '0x5208', value: '0x0', input: '0x', data: '0x' }, 'pending', undefined])).not.toBe(SLOW)
    expect(agrees(call, [{ to: addr, gasPrice: '0x1', nonce: '0xff', chainId: '0xa868', type: '0x0', from: null }])).not.toBe(SLOW)
  })

  it('leaves everything else to zod', () => {
    for (const list of [
      [addr, 'accepted'],
      [addr, '0x10'],
      [addr.slice(0, 41), 'latest'],
      [addr + '0', 'latest'],
      ['', 'latest'],
      [42, 'latest'],
      [addr, { blockNumber: '0x0' }],
    ]) {
      expect(agrees(getBalance, list)).toBe(SLOW)
    }
    const slow = [
      [{ to: addr, data: '0x01', input: '0x02' }],
      [{ to: addr, gasPrice: '0x1', maxFeePerGas: '0x2' }],
      [{ to: addr, accessList: [] }],
      [{ to: addr, gas: '0x01' }],
      [{ to: addr, gas: '0x' + 'f'.repeat(17) }],
      [{ to: addr, extra: 1 }],
      [{ to: addr }, 'latest', {}],
      [[addr]],
      [null],
    ]
    for (const list of slow) expect(agrees(call, list)).toBe(SLOW)
  })

  it('agrees with zod on arbitrary hex-like params', () => {
    fc.assert(
      fc.property(fc.tuple(values, fc.option(values, { nil: undefined })), ([a, b]) => {
        agrees(getBalance, b === undefined ? [a] : [a, b])
      }),
      { seed: 14, numRuns: 2000 },
    )
    const field = fc.constantFrom('from', 'to', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'nonce', 'data', 'input', 'chainId', 'type')
    fc.assert(
      fc.property(fc.dictionary(field, values, { maxKeys: 5 }), fc.option(values, { nil: undefined }), (req, ref) => {
        let zodOk = true
        try {
          call.parse(ref === undefined ? [req] : [req, ref])
        } catch {
          zodOk = false
        }
        const quick = quickTuple(call)!(ref === undefined ? [req] : [req, ref])
        if (!zodOk) expect(quick).toBe(SLOW)
        else agrees(call, ref === undefined ? [req] : [req, ref])
      }),
      { seed: 14, numRuns: 2000 },
    )
  })

  it('has none for schemas without quick items', () => {
    expect(quickTuple(z.tuple([]))).toBeUndefined()
    expect(quickTuple(z.tuple([StateOverride]))).toBeUndefined()
    expect(quickTuple(z.object({}))).toBeUndefined()
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { batchNeedsRawIds, needsRawId } from '../../../src/rpc/rawIds.js'

/** The rule as a regular expression: a numeric `"id"` member written with a fraction or an exponent. */
const RULE = /"id"\s*:\s*-?[0-9]+[.eE]/

describe('needsRawId', () => {
  it('reads an id back from the body when its number has a fraction or an exponent, or cannot print as written', () => {
    expect(needsRawId(1000, '{"jsonrpc":"2.0","id":1e3,"method":"m"}')).toBe(true)
    expect(needsRawId(1, '{"id" :\n 1.0}')).toBe(true)
    expect(needsRawId(-500, '{"id":-5E2}')).toBe(true)
    expect(needsRawId(-0, '{"id":-0}')).toBe(true)
    expect(needsRawId(2 ** 60, '{"id":1152921504606846976}')).toBe(true)
    expect(needsRawId(1, '{"jsonrpc":"2.0","id":1,"method":"m","params":[]}')).toBe(false)
    expect(needsRawId('1e3', '{"id":"1e3"}')).toBe(false)
    expect(needsRawId(1, '{"x":"\\"id\\":1e3","id":1}')).toBe(false)
  })

  it('finds what the regular expression finds in any JSON body with numeric ids', () => {
    const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map(String), fc.constantFrom('1e3', '1.0', '-2.5', '10E1', '7e-1', '-0'))
    const ws = fc.constantFrom('', ' ', '\n', '\t ', '\r\n')
    const member = fc.oneof(
      fc.tuple(ws, ws, number).map(([a, b, n]) => `"id"${a}:${b}${n}`),
      fc.string().map((s) => `"x":${JSON.stringify(s)}`),
      fc.constantFrom('"params":[{"id":1.5}]', '"m":"\\"id\\": 1e3"', '"xid":1e3', '"id":"2e3"'),
    )
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 5 }), (members) => {
        const body = '{' + members.join(',') + '}'
        const parsed = JSON.parse(body) as { id?: unknown }
        const id = typeof parsed.id === 'number' && Number.isSafeInteger(parsed.id) && !Object.is(parsed.id, -0) ? parsed.id : 1
        expect(needsRawId(id, body)).toBe(RULE.test(body))
        expect(batchNeedsRawIds([{ id }], body)).toBe(RULE.test(body))
      }),
      { seed: 34, numRuns: 2000 },
    )
  })
})

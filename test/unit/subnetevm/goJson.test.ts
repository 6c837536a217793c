import { describe, expect, it } from 'vitest'
import { compareGoStrings, goJsonStringify, sortedKeys } from '../../../src/subnetevm/goJson.js'

describe('goJsonStringify', () => {
  it('writes bigints as bare numbers and leaves undefined members out', () => {
    expect(goJsonStringify({ a: (1n << 64n) - 1n, b: undefined, c: [1, null, true], d: 'x' })).toBe('{"a":18446744073709551615,"c":[1,null,true],"d":"x"}')
    expect(goJsonStringify(1e21)).toBe('1e+21')
    expect(goJsonStringify(253399622400)).toBe('253399622400')
  })

  it('escapes HTML characters as Go does', () => {
    expect(goJsonStringify('<a&b>\u2028')).toBe('"\\u003ca\\u0026b\\u003e\\u2028"')
  })

  it('rejects non-finite numbers', () => {
    expect(() => goJsonStringify(Number.NaN)).toThrow(RangeError)
  })
})

describe('sortedKeys', () => {
  it('orders keys by bytes, as Go sorts a map', () => {
    expect(Object.keys(sortedKeys({ b: 1, B: 2, a: 3, é: 4 }))).toEqual(['B', 'a', 'b', 'é'])
    expect(compareGoStrings('eip150Block', 'eip155Block')).toBeLessThan(0)
  })
})

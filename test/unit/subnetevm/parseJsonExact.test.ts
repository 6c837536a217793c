import { describe, expect, it } from 'vitest'
import { parseJsonExact } from '../../../src/subnetevm/parseJsonExact.js'

describe('parseJsonExact', () => {
  it('keeps integers past 2^53 exact as bigints and the others as numbers', () => {
    expect(parseJsonExact('{"a":18446744073709551615,"b":-9007199254740993,"c":9007199254740991,"d":1.5e300,"e":[1,2]}')).toEqual({
      a: 18446744073709551615n,
      b: -9007199254740993n,
      c: 9007199254740991,
      d: 1.5e300,
      e: [1, 2],
    })
  })

  it('leaves digits inside strings alone', () => {
    expect(parseJsonExact('{"k":"12345678901234567890 \\" 99999999999999999999","n":99999999999999999999}')).toEqual({
      k: '12345678901234567890 " 99999999999999999999',
      n: 99999999999999999999n,
    })
  })

  it('fails on malformed JSON as JSON.parse does', () => {
    expect(() => parseJsonExact('{"a":')).toThrow(SyntaxError)
  })
})

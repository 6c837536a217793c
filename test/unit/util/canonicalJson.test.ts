import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../../src/util/canonicalJson.js'

describe('canonicalJson', () => {
  it('sorts object keys at every depth', () => {
    expect(canonicalJson([{ toBlock: '0x2', fromBlock: '0x1', address: ['0xab'] }])).toBe('[{"address":["0xab"],"fromBlock":"0x1","toBlock":"0x2"}]')
    expect(canonicalJson([{ b: { d: 1, c: 2 }, a: true }])).toBe('[{"a":true,"b":{"c":2,"d":1}}]')
  })

  it('writes hex in lower case and leaves other strings alone', () => {
    expect(canonicalJson(['0xABCdef', 'Latest', 'latest'])).toBe('["0xabcdef","Latest","latest"]')
  })

  it('drops trailing nulls (an absent optional argument) but keeps inner ones', () => {
    expect(canonicalJson(['0x1', null])).toBe(canonicalJson(['0x1']))
    expect(canonicalJson(['0x1', undefined, undefined])).toBe('["0x1"]')
    expect(canonicalJson(['0x1', null, true])).toBe('["0x1",null,true]')
    expect(canonicalJson([{ a: undefined, b: null }])).toBe('[{"b":null}]')
  })

  it('tells different params apart', () => {
    expect(canonicalJson(['0x1', true])).not.toBe(canonicalJson(['0x1', false]))
    expect(canonicalJson([1])).not.toBe(canonicalJson(['1']))
  })
})

import { describe, expect, it } from 'vitest'
import { RawJson, resultJson } from '../../../src/rpc/rawJson.js'

describe('resultJson', () => {
  it("writes every value as JSON.stringify does, a RawJson's text as it is", () => {
    const strings = ['', '0x', '0xa868', '0x' + 'ab'.repeat(32), 'say "hi"', 'back\\slash', 'tab\there', 'nl\n', '\x00\x1f\x7f', 'é', '😀', '\ud800', 'x'.repeat(129), '~ !']
    for (const s of strings) expect(resultJson(s), JSON.stringify(s)).toBe(JSON.stringify(s))
    for (let c = 0; c < 0x110; c++) expect(resultJson(String.fromCharCode(c))).toBe(JSON.stringify(String.fromCharCode(c)))
    for (const v of [null, true, 0, 1.5, [1, '2'], { a: 'b' }]) expect(resultJson(v)).toBe(JSON.stringify(v))
    expect(resultJson(undefined)).toBeUndefined()
    expect(resultJson(new RawJson('[1,2]'))).toBe('[1,2]')
  })
})

import { describe, expect, it } from 'vitest'
import { acceptedMediaType, gethHttpVerdict } from '../../../src/server/gethHttp.js'

describe("geth's HTTP rules (rpc/http.go)", () => {
  it("acceptedMediaType: geth's three types as Go's mime.ParseMediaType reads them", () => {
    for (const ct of [
      'application/json',
      'APPLICATION/JSON',
      ' application/json ',
      'application/json-rpc',
      'application/jsonrequest',
      'application/json;charset=utf-8',
      'application/json; a=1; b="x;y"',
      'application/json;',
      'application/json; ',
    ]) {
      expect(acceptedMediaType(ct), ct).toBe(true)
    }
    for (const ct of [
      undefined,
      '',
      'text/plain',
      'application/json, text/plain',
      'application/json;;',
      'application/json; a',
      'application/json; a=1; a=2',
      'application/json; a=',
      'application/jsonx',
    ]) {
      expect(acceptedMediaType(ct), String(ct)).toBe(false)
    }
  })

  it('gethHttpVerdict: the health check, then 405, 413, OPTIONS, 415, in that order', () => {
    const json = { 'content-type': 'application/json', 'content-length': '10' }
    expect(gethHttpVerdict('GET', {}, false, 100)).toEqual({ health: true })
    expect(gethHttpVerdict('GET', { 'content-length': '0', 'content-type': 'text/plain' }, false, 100)).toEqual({ health: true })
    expect(gethHttpVerdict('GET', {}, true, 100)).toEqual({ status: 415, text: 'invalid content type, only application/json is supported\n' })
    expect(gethHttpVerdict('GET', { 'transfer-encoding': 'chunked', 'content-type': 'application/json' }, false, 100)).toEqual({ serve: true })
    expect(gethHttpVerdict('GET', json, false, 100)).toEqual({ serve: true })
    expect(gethHttpVerdict('DELETE', { 'content-length': '1000' }, false, 100)).toEqual({ status: 405, text: 'method not allowed\n' })
    expect(gethHttpVerdict('POST', { 'content-length': '1000' }, false, 100)).toEqual({ status: 413, text: 'content length too large (1000>100)\n' })
    expect(gethHttpVerdict('OPTIONS', {}, false, 100)).toEqual({ serve: true })
    expect(gethHttpVerdict('PATCH', json, true, 100)).toEqual({ serve: true })
  })
})

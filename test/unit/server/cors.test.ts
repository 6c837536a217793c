import { describe, expect, it } from 'vitest'
import { createCors, parseHeaderList } from '../../../src/server/cors.js'

describe('parseHeaderList (rs/cors v1.7.0 utils.go)', () => {
  it('splits on commas and spaces and writes each name as Go canonical header keys', () => {
    expect(parseHeaderList('content-type')).toEqual(['Content-Type'])
    expect(parseHeaderList('accept,CONTENT-TYPE, x-requested-with')).toEqual(['Accept', 'Content-Type', 'X-Requested-With'])
    expect(parseHeaderList('x_api.key')).toEqual(['X_Apikey'])
    expect(parseHeaderList(' , ')).toEqual([])
  })
})

describe('createCors', () => {
  const cors = createCors(['https://app.example'])

  it('an actual request: allow-origin and Vary for loopback and configured origins; only Vary for others; nothing without Origin', () => {
    expect(cors.actual('http://localhost:3000', 'POST')).toEqual([
      ['access-control-allow-origin', 'http://localhost:3000'],
      ['vary', 'Origin'],
    ])
    expect(cors.actual('https://app.example', 'GET')[0]).toEqual(['access-control-allow-origin', 'https://app.example'])
    expect(cors.actual('http://evil.example', 'POST')).toEqual([['vary', 'Origin']])
    expect(cors.actual('http://localhost:3000', 'PUT')).toEqual([['vary', 'Origin']])
    expect(cors.actual(undefined, 'POST')).toEqual([])
  })

  it('a preflight: the asked method and headers when allowed, with max-age; only Vary otherwise', () => {
    const vary = ['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers']
    expect(cors.preflight('http://127.0.0.1:5173', 'post', 'content-type')).toEqual([
      vary,
      ['access-control-allow-origin', 'http://127.0.0.1:5173'],
      ['access-control-allow-methods', 'POST'],
      ['access-control-allow-headers', 'Content-Type'],
      ['access-control-max-age', '600'],
    ])
    expect(cors.preflight('http://[::1]:8080', 'GET', undefined)).toEqual([
      vary,
      ['access-control-allow-origin', 'http://[::1]:8080'],
      ['access-control-allow-methods', 'GET'],
      ['access-control-max-age', '600'],
    ])
    expect(cors.preflight('http://localhost:3000', 'DELETE', undefined)).toEqual([vary])
    expect(cors.preflight('http://localhost:3000', 'POST', 'content-type, authorization')).toEqual([vary])
    expect(cors.preflight('null', 'POST', undefined)).toEqual([vary])
    expect(cors.preflight(undefined, 'POST', undefined)).toEqual([vary])
  })

  it('with `*` configured, any origin is answered `*`', () => {
    const any = createCors(['*'])
    expect(any.actual('https://dapp.example', 'POST')[0]).toEqual(['access-control-allow-origin', '*'])
    expect(any.preflight('https://dapp.example', 'POST', undefined)[1]).toEqual(['access-control-allow-origin', '*'])
  })
})

import { once } from 'node:events'
import { type IncomingMessage, createServer } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INCOMPLETE, NOT_PLAIN, PlainRequestReader, readPlainRequest } from '../../../src/server/plainRequest.js'

/*
 * The socket path's reader takes a request only when node:http (llhttp) would read it to the same url
 * and header values: every request it takes is checked against a real node:http server here.
 */

const BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
const head = (lines: string[], body = BODY) => `POST /ext/bc/C/rpc HTTP/1.1\r\n${lines.map((l) => l + '\r\n').join('')}\r\n${body}`
const plain = (extra: string[] = [], body = BODY) => head(['Host: 127.0.0.1:9650', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, ...extra], body)
const read = (text: string, at = 0) => readPlainRequest(Buffer.from(text, 'latin1'), at)

/** node:http's reading of a request: what the fast path reads of it. */
let seen: ((req: IncomingMessage) => void) | undefined
const server = createServer((req, res) => {
  seen?.(req)
  req.resume()
  req.on('end', () => res.end())
})
let port: number
beforeAll(async () => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function nodeReads(text: string): Promise<{ url: string; host?: string; origin?: string; contentType?: string; contentLength?: string }> {
  return new Promise((resolve, reject) => {
    seen = (req) => resolve({ url: req.url!, host: req.headers.host, origin: req.headers.origin, contentType: req.headers['content-type'], contentLength: req.headers['content-length'] })
    const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.from(text, 'latin1')))
    socket.on('data', () => socket.destroy())
    socket.on('error', reject)
  })
}

describe('readPlainRequest', () => {
  it('reads a plain POST: url, Host, Origin, Content-Type, Content-Length and where the body starts', () => {
    const text = plain(['Origin: http://localhost:3000', 'Connection: keep-alive', 'User-Agent: x'])
    expect(read(text)).toEqual({
      url: '/ext/bc/C/rpc',
      host: '127.0.0.1:9650',
      origin: 'http://localhost:3000',
      contentType: 'application/json',
      contentLength: BODY.length,
      bodyStart: text.length - BODY.length,
    })
  })

  it("reads a second request from where the first ends, and says when the buffer ends before a request's head does", () => {
    const one = plain()
    const r = read(one + one, one.length)
    expect(r).toMatchObject({ bodyStart: 2 * one.length - BODY.length })
    expect(read(one.slice(0, 20))).toBe(INCOMPLETE)
    expect(read(one.slice(0, one.length - BODY.length - 1))).toBe(INCOMPLETE)
    // A whole head: read, its body not all there yet.
    expect(read(one.slice(0, -1))).toMatchObject({ contentLength: BODY.length, bodyStart: one.length - BODY.length })
  })

  it('says INCOMPLETE for a head cut short only while what arrived begins a plain one', () => {
    const whole = plain(['Origin: http://localhost:3000'])
    const headEnd = whole.length - BODY.length
    for (let cut = 1; cut < headEnd; cut++) expect(read(whole.slice(0, cut)), JSON.stringify(whole.slice(0, cut))).toBe(INCOMPLETE)
    for (const cut of [
      'XX',
      'POST  ',
      'POST /a HTTP/1.0',
      'POST /a HTTP/1.1\r\nX A',
      'POST /a HTTP/1.1\r\nX-A: \x01',
      'POST /a HTTP/1.1\r\nX-A: 1\rX',
      'POST /a HTTP/1.1\r\nUpgrade:',
      'POST /a HTTP/1.1\r\n\rX',
    ]) {
      expect(read(cut), JSON.stringify(cut)).toBe(NOT_PLAIN)
    }
  })

  it('takes names in any case, optional whitespace before a value, Connection: keep-alive in any case, an empty Origin', () => {
    const r = read(head(['HOST:  127.0.0.1', 'content-TYPE:\tapplication/json', `content-length: ${BODY.length}`, 'CONNECTION: Keep-Alive', 'origin:']))
    expect(r).toMatchObject({ host: '127.0.0.1', contentType: 'application/json', origin: '', contentLength: BODY.length })
  })

  it.each([
    ['another method', plain().replace('POST', 'GET')],
    ['a lower-case method', plain().replace('POST', 'post')],
    ['HTTP/1.0', plain().replace('HTTP/1.1', 'HTTP/1.0')],
    ['a space in the target', plain().replace('/ext/bc/C/rpc', '/ext/bc/C /rpc')],
    ['an absolute target', plain().replace('/ext/bc/C/rpc', 'http://x/ext/bc/C/rpc')],
    ['Transfer-Encoding', plain(['Transfer-Encoding: chunked'])],
    ['Upgrade', plain(['Upgrade: websocket'])],
    ['Expect', plain(['Expect: 100-continue'])],
    ['Proxy-Connection', plain(['Proxy-Connection: close'])],
    ['Connection: close', plain(['Connection: close'])],
    ['Connection: keep-alive, Upgrade', plain(['Connection: keep-alive, Upgrade'])],
    ['two Hosts', plain(['Host: other'])],
    ['two Origins', plain(['Origin: http://a', 'Origin: http://b'])],
    ['two Content-Types', plain(['Content-Type: text/plain'])],
    ['two Content-Lengths', plain([`Content-Length: ${BODY.length}`])],
    ['no Host', head(['Content-Type: application/json', `Content-Length: ${BODY.length}`])],
    ['no Content-Length', head(['Host: 127.0.0.1', 'Content-Type: application/json'])],
    ['a Content-Length not all digits', head(['Host: 127.0.0.1', 'Content-Length: +59'])],
    ['an empty Content-Length', head(['Host: 127.0.0.1', 'Content-Length:'])],
    ['a space before the colon', plain(['X-A : 1'])],
    ['a folded line', plain(['X-A: 1', ' 2'])],
    ['a bare LF', plain(['X-A: 1\nX-B: 2'])],
    ['a control character in a value', plain(['X-A: a\x01b'])],
    ['a byte over 0x7e in a value', plain(['X-A: \xe9'])],
    ['trailing whitespace in a value', plain(['Origin: http://localhost:3000 '])],
    ['a name that is not a token', plain(['X(A): 1'])],
    ['more than 64 header lines', plain(Array.from({ length: 70 }, (_, i) => `X-${i}: 1`))],
    ['a head over 8 KiB', plain([`X-A: ${'a'.repeat(9000)}`])],
    ['no head end within 8 KiB', `POST /ext/bc/C/rpc HTTP/1.1\r\nX-A: ${'a'.repeat(9000)}`],
  ])('leaves %s to node:http', (_, text) => {
    expect(read(text)).toBe(NOT_PLAIN)
  })

  it('reads every request it takes as node:http does', async () => {
    const taken = [
      plain(),
      plain(['Origin: http://localhost:5173', 'Connection: keep-alive']),
      head(['host: [::1]:9650', 'CONTENT-type:   application/json-rpc; charset=utf-8', `Content-LENGTH: ${BODY.length}`, 'origin:\thttp://127.0.0.1:8080', 'X-Long: a b  c\td']),
      head(['Host:', 'Content-Length: 0'], ''),
      head(['Host: localhost', `Content-Length: 000${BODY.length}`]),
      plain(['Origin:']).replace('/ext/bc/C/rpc', '/ext/bc/C/rpc?x=%20&y=[1]'),
    ]
    for (const text of taken) {
      const r = read(text)
      expect(typeof r, text).toBe('object')
      const mine = r as Exclude<typeof r, number>
      const theirs = await nodeReads(text)
      expect({ url: mine.url, host: mine.host, origin: mine.origin, contentType: mine.contentType, contentLength: String(mine.contentLength) }, text).toEqual({
        ...theirs,
        contentLength: String(Number(theirs.contentLength)),
      })
    }
  })
})

describe('PlainRequestReader', () => {
  it('reads a head equal to the last one as readPlainRequest does, and any other head anew', () => {
    const reader = new PlainRequestReader()
    const one = plain(['Origin: http://localhost:3000'])
    const other = plain(['Origin: http://localhost:3000'], BODY + ' ')
    const buf = Buffer.from(one + one + other + one.slice(0, 30), 'latin1')
    const ends = [0, one.length, 2 * one.length, 2 * one.length + other.length]
    for (const at of ends.slice(0, 3)) expect(reader.read(buf, at)).toEqual(readPlainRequest(buf, at))
    expect(reader.read(buf, ends[3]!)).toBe(INCOMPLETE)
    expect(reader.read(buf, 0)).toEqual(readPlainRequest(buf, 0))
    // The same head again, its body not all there yet.
    const cut = Buffer.from(one.slice(0, -1), 'latin1')
    expect(reader.read(cut, 0)).toEqual(readPlainRequest(cut, 0))
    expect(reader.read(Buffer.from(one.replace('POST', 'GET'), 'latin1'), 0)).toBe(NOT_PLAIN)
  })
})

/**
 * The atomic API over plain JSON (coreth: plugin/evm/atomic/vm/api.go; gorilla/rpc v1.2.0; docs/API.md): transport and error
 * shapes of avalanchego's gorilla JSON-RPC, and every parameter's error, at /ext/bc/C/native
 * (`native.`) and /ext/bc/C/avax (`avax.`), which share one handler table.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMPTY_ID, EWOQ_C, EWOQ_P, EWOQ_X, LOCAL_C, LOCAL_X } from '../helpers/constants.js'
import { rawHttp } from '../helpers/rawHttp.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const EWOQ_SHORT_CB58 = '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV'
const ARG_ERROR = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"
/** An ID nobody issued (CB58 of 32 bytes of 0x01). */
const UNKNOWN_ID = 'SeLqn3UAUoRymWmwW7axrzJK7JfNaBR2cHCryA6cFscgkny8'

/** The API's `hex` encoding of hex bytes: 0x + bytes + last 4 bytes of sha256. */
const apiHex = (hex: string): string => '0x' + hex + createHash('sha256').update(Buffer.from(hex, 'hex')).digest().subarray(-4).toString('hex')

let tn: TestNode

beforeAll(async () => {
  tn = await startTestNode()
})
afterAll(() => tn?.close())

const SERVICES = [
  { service: 'native', path: '/ext/bc/C/native' },
  { service: 'avax', path: '/ext/bc/C/avax' },
] as const

async function post(path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return rawHttp(tn.port, { path, headers, body })
}

type Reply = { jsonrpc: string; id: unknown; result?: any; error?: { code: number; message: string; data: unknown } }

for (const { service, path } of SERVICES) {
  /** One call by its bare method name under this service; checks the envelope. */
  const call = async (methodName: string, params: unknown = {}): Promise<Reply> => {
    const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 7, method: `${service}.${methodName}`, params }))
    expect(res.status).toBe(200)
    expect(res.body.endsWith('}\n')).toBe(true)
    const reply = JSON.parse(res.body) as Reply
    expect(reply.jsonrpc).toBe('2.0')
    expect(reply.id).toBe(7)
    if (reply.error !== undefined) {
      expect(reply.error.code).toBe(-32000)
      expect(reply.error.data).toBeNull()
      expect(res.body).toMatch(/^\{"jsonrpc":"2\.0","error":\{"code":-32000,"message":.*,"data":null\},"id":7\}\n$/)
    } else {
      expect(res.body).toMatch(/^\{"jsonrpc":"2\.0","result":.*,"id":7\}\n$/)
    }
    return reply
  }
  const errorOf = async (methodName: string, params: unknown = {}): Promise<string> => {
    const r = await call(methodName, params)
    expect(r.error, JSON.stringify(r)).toBeDefined()
    return r.error!.message
  }
  const utxos = (params: Record<string, unknown>) => ({ addresses: [EWOQ_C], sourceChain: 'X', ...params })

  describe(`${service} transport (${path})`, () => {
    it('answers with application/json; charset=utf-8, nosniff, jsonrpc/result/id order and a trailing newline', async () => {
      const res = await post(path, JSON.stringify({ id: 1, method: `${service}.getAtomicTxStatus`, params: { txID: UNKNOWN_ID }, jsonrpc: '2.0' }))
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.body).toBe('{"jsonrpc":"2.0","result":{"status":"Unknown"},"id":1}\n')
    })

    it('415 text/plain for another or a missing Content-Type; parameters after ; are ignored', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${service}.getAtomicTxStatus`, params: { txID: UNKNOWN_ID } })
      let res = await post(path, body, { 'content-type': 'text/plain' })
      expect(res.status).toBe(415)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.body).toBe('rpc: unrecognized Content-Type: text/plain')
      res = await post(path, body, {})
      expect(res.status).toBe(415)
      expect(res.body).toBe('rpc: unrecognized Content-Type: ')
      res = await post(path, body, { 'content-type': 'application/json-rpc' })
      expect(res.status).toBe(415)
      expect(res.body).toBe('rpc: unrecognized Content-Type: application/json-rpc')
      res = await post(path, body, { 'content-type': 'Application/JSON; charset=UTF-8' })
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body).result).toEqual({ status: 'Unknown' })
    })

    it('405 for GET, PUT and a plain OPTIONS; CORS only for allowed origins, a preflight answered 200 (docs/SECURITY.md, N3)', async () => {
      for (const method of ['GET', 'PUT', 'OPTIONS']) {
        const res = await rawHttp(tn.port, { method, path, headers: { origin: 'http://evil.example' } })
        expect(res.status).toBe(405)
        expect(res.body).toBe(`rpc: POST method required, received ${method}`)
        expect(res.headers['access-control-allow-origin']).toBeUndefined()
      }
      const evil = await rawHttp(tn.port, { method: 'OPTIONS', path, headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } })
      expect(evil.status).toBe(200)
      expect(evil.headers['access-control-allow-origin']).toBeUndefined()
      const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${service}.getAtomicTxStatus`, params: {} }), { 'content-type': 'application/json', origin: 'http://evil.example' })
      expect(res.status).toBe(200)
      expect(res.headers['access-control-allow-origin']).toBeUndefined()
      const local = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${service}.getAtomicTxStatus`, params: {} }), {
        'content-type': 'application/json',
        origin: 'http://localhost:3000',
      })
      expect(local.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    })

    it('refuses a Host that is not allowed (403)', async () => {
      const res = await post(path, '{}', { 'content-type': 'application/json', host: 'evil.example' })
      expect(res.status).toBe(403)
    })

    it("unknown, upper-case and ill-formed method names; the keystore methods under each service's own names", async () => {
      expect(await errorOf('foo')).toBe(`rpc: can't find method "${service}.Foo"`)
      expect(await errorOf('GetUTXOs')).toBe('method must start with a non-uppercase letter')
      const own = service === 'native' ? ['exportNative', 'importNative'] : ['exportAVAX', 'importAVAX']
      const others = service === 'native' ? ['exportAVAX', 'importAVAX'] : ['exportNative', 'importNative']
      for (const m of ['export', 'import', 'exportKey', 'importKey', ...own]) expect(await errorOf(m)).not.toMatch(/can't find method/)
      for (const m of others) {
        const first = m[0]!.toUpperCase() + m.slice(1)
        expect(await errorOf(m)).toBe(`rpc: can't find method "${service}.${first}"`)
      }
      const other = service === 'native' ? 'avax' : 'native'
      const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${other}.getUTXOs`, params: {} }))
      expect(JSON.parse(res.body).error.message).toBe(`rpc: can't find service "${other}.GetUTXOs"`)
      const ill = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getUTXOs', params: {} }))
      expect(JSON.parse(ill.body).error).toEqual({ code: -32000, message: 'rpc: service/method request ill-formed: "getUTXOs"', data: null })
    })

    it('envelope errors keep -32700/-32600; a notification gets no body; params may be [ {…} ]', async () => {
      let res = await post(path, '{"jsonrpc":')
      expect(JSON.parse(res.body).error.code).toBe(-32700)
      res = await post(path, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: `${service}.getAtomicTxStatus`, params: {} }]))
      expect(JSON.parse(res.body).error.code).toBe(-32700)
      res = await post(path, JSON.stringify({ jsonrpc: '1.0', id: 1, method: `${service}.getAtomicTxStatus`, params: {} }))
      expect(JSON.parse(res.body).error).toMatchObject({ code: -32600, message: 'jsonrpc must be 2.0' })
      res = await post(path, JSON.stringify({ jsonrpc: '2.0', method: `${service}.getAtomicTxStatus`, params: { txID: UNKNOWN_ID } }))
      expect(res.status).toBe(200)
      expect(res.body).toBe('')
      expect((await call('getAtomicTxStatus', [{ txID: UNKNOWN_ID }])).result).toEqual({ status: 'Unknown' })
      expect(await errorOf('getAtomicTxStatus', 5)).toBe(ARG_ERROR)
    })
  })

  describe(`${service}.getUTXOs`, () => {
    it('an address without UTXOs: numFetched "0", [] and the end index of the last address', async () => {
      const r = (await call('getUTXOs', utxos({}))).result
      expect(r).toEqual({ numFetched: '0', utxos: [], endIndex: { address: EWOQ_C, utxo: EMPTY_ID }, encoding: 'hex' })
      expect(Object.keys(r)).toEqual(['numFetched', 'utxos', 'endIndex', 'encoding'])
    })

    it('sourceChain by alias or CB58 ID: X, P, avm, platform, C, evm', async () => {
      for (const sourceChain of ['X', 'P', 'avm', 'platform', LOCAL_X, EMPTY_ID, 'C', 'evm', LOCAL_C]) {
        expect((await call('getUTXOs', utxos({ sourceChain }))).result?.numFetched).toBe('0')
      }
      expect(await errorOf('getUTXOs', utxos({ sourceChain: '' }))).toBe('no source chain provided')
      expect(await errorOf('getUTXOs', utxos({ sourceChain: undefined }))).toBe('no source chain provided')
      expect(await errorOf('getUTXOs', utxos({ sourceChain: 'Q' }))).toBe('problem parsing source chainID "Q": there is no ID with alias: Q')
      expect(await errorOf('getUTXOs', utxos({ sourceChain: 'x' }))).toBe('problem parsing source chainID "x": there is no ID with alias: x')
      expect(await errorOf('getUTXOs', utxos({ sourceChain: 5 }))).toBe(ARG_ERROR)
    })

    it('addresses: empty, missing, too many, not an array', async () => {
      expect(await errorOf('getUTXOs', { sourceChain: 'X' })).toBe('no addresses provided')
      expect(await errorOf('getUTXOs', utxos({ addresses: [] }))).toBe('no addresses provided')
      expect(await errorOf('getUTXOs', utxos({ addresses: null }))).toBe('no addresses provided')
      expect(await errorOf('getUTXOs', utxos({ addresses: Array(1025).fill(EWOQ_C) }))).toBe('number of addresses given, 1025, exceeds maximum, 1024')
      expect((await call('getUTXOs', utxos({ addresses: Array(1024).fill(EWOQ_C) }))).result?.numFetched).toBe('0')
      expect(await errorOf('getUTXOs', utxos({ addresses: EWOQ_C }))).toBe(ARG_ERROR)
      expect(await errorOf('getUTXOs', utxos({ addresses: [1] }))).toBe(ARG_ERROR)
      // Checked before the source chain.
      expect(await errorOf('getUTXOs', { addresses: [], sourceChain: 'Q' })).toBe('no addresses provided')
    })

    it('addresses: C-Chain bech32 or a raw CB58 short ID; X-/P- addresses, other HRPs and garbage fail', async () => {
      expect((await call('getUTXOs', utxos({ addresses: [EWOQ_SHORT_CB58] }))).result?.endIndex.address).toBe(EWOQ_C)
      expect((await call('getUTXOs', utxos({ addresses: [`${LOCAL_C}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`] }))).result?.numFetched).toBe('0')
      expect((await call('getUTXOs', utxos({ addresses: ['evm-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] }))).result?.numFetched).toBe('0')
      expect(await errorOf('getUTXOs', utxos({ addresses: [EWOQ_X] }))).toBe(`couldn't parse address "${EWOQ_X}": expected chainID to be "${LOCAL_C}" but was "${LOCAL_X}"`)
      const p = EWOQ_P
      expect(await errorOf('getUTXOs', utxos({ addresses: [p] }))).toBe(`couldn't parse address "${p}": expected chainID to be "${LOCAL_C}" but was "${EMPTY_ID}"`)
      const fuji = 'C-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t'
      expect(await errorOf('getUTXOs', utxos({ addresses: [fuji] }))).toBe(`couldn't parse address "${fuji}": expected hrp "local" but got "fuji"`)
      expect(await errorOf('getUTXOs', utxos({ addresses: ['foo'] }))).toBe('couldn\'t parse address "foo": no separator found in address')
      expect(await errorOf('getUTXOs', utxos({ addresses: ['Q-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] }))).toBe(
        'couldn\'t parse address "Q-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u": there is no ID with alias: Q',
      )
      expect(await errorOf('getUTXOs', utxos({ addresses: [EWOQ_C, 'bad"\n'] }))).toBe('couldn\'t parse address "bad\\"\\n": no separator found in address')
    })

    it('limit: a number or a quoted decimal; 0 or > 1024 is 1024; negative, fractional or text fails', async () => {
      for (const limit of [0, 1, '10', 1024, 1025, 4294967295, null]) {
        expect((await call('getUTXOs', utxos({ limit }))).result?.numFetched, String(limit)).toBe('0')
      }
      for (const limit of [-1, 1.5, 'abc', '-1', '', 4294967296, true, {}]) {
        expect(await errorOf('getUTXOs', utxos({ limit })), String(limit)).toBe(ARG_ERROR)
      }
    })

    it('startIndex: used only when address or utxo is set; both must parse', async () => {
      expect((await call('getUTXOs', utxos({ startIndex: { address: '', utxo: '' } }))).result?.numFetched).toBe('0')
      expect((await call('getUTXOs', utxos({ startIndex: null }))).result?.numFetched).toBe('0')
      expect((await call('getUTXOs', utxos({ startIndex: { address: EWOQ_C, utxo: EMPTY_ID } }))).result?.numFetched).toBe('0')
      expect((await call('getUTXOs', utxos({ startIndex: { Address: EWOQ_C, UTXO: UNKNOWN_ID } }))).result?.numFetched).toBe('0')
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: EWOQ_C, utxo: '' } }))).toBe("couldn't parse start index utxo: base58 decoding error: zero length string")
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: EWOQ_C, utxo: EWOQ_SHORT_CB58 } }))).toBe("couldn't parse start index utxo: invalid hash length: expected 32 bytes but got 20")
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: EWOQ_C, utxo: 'abc' } }))).toBe("couldn't parse start index utxo: input string is smaller than the checksum size")
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: '', utxo: UNKNOWN_ID } }))).toBe('couldn\'t parse start index address "": no separator found in address')
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: EWOQ_X, utxo: UNKNOWN_ID } }))).toBe(
        `couldn't parse start index address "${EWOQ_X}": expected chainID to be "${LOCAL_C}" but was "${LOCAL_X}"`,
      )
      expect(await errorOf('getUTXOs', utxos({ startIndex: 'x' }))).toBe(ARG_ERROR)
      expect(await errorOf('getUTXOs', utxos({ startIndex: { address: 1 } }))).toBe(ARG_ERROR)
    })

    if (service === 'native') {
      it('encoding: only hex (any case, echoed "hex"); hexc, hexnc, json refused as unsupported (API reference); other names are argument errors', async () => {
        for (const encoding of ['hex', 'HEX', 'Hex', null, undefined]) {
          expect((await call('getUTXOs', utxos({ encoding }))).result?.encoding).toBe('hex')
        }
        for (const encoding of ['hexc', 'hexnc', 'json', 'JSON']) {
          expect(await errorOf('getUTXOs', utxos({ encoding }))).toBe('problem encoding utxo: unsupported encoding in method')
        }
        for (const encoding of ['cb58', 'base64', '', 0]) expect(await errorOf('getUTXOs', utxos({ encoding }))).toBe(ARG_ERROR)
      })
    } else {
      it("encoding: coreth's hex, hexc, hexnc and json, any case, echoed lower-case (json fails only with a UTXO to encode); other names are argument errors", async () => {
        for (const [encoding, echoed] of [
          ['hex', 'hex'],
          ['HEX', 'hex'],
          [null, 'hex'],
          [undefined, 'hex'],
          ['hexc', 'hexc'],
          ['HexNC', 'hexnc'],
          ['json', 'json'],
          ['JSON', 'json'],
        ] as const) {
          expect((await call('getUTXOs', utxos({ encoding }))).result, String(encoding)).toEqual({
            numFetched: '0',
            utxos: [],
            endIndex: { address: EWOQ_C, utxo: EMPTY_ID },
            encoding: echoed,
          })
        }
        for (const encoding of ['cb58', 'base64', '', 0]) expect(await errorOf('getUTXOs', utxos({ encoding }))).toBe(ARG_ERROR)
      })
    }

    it('field names match case-insensitively as Go does', async () => {
      expect(await errorOf('getUTXOs', { Addresses: [EWOQ_C], SOURCECHAIN: 'Q' })).toBe('problem parsing source chainID "Q": there is no ID with alias: Q')
      const reply = await call('getUTXOs', { ADDRESSES: [EWOQ_C], sourceChain: 'X', Encoding: 'json' })
      if (service === 'native') expect(reply.error?.message).toBe('problem encoding utxo: unsupported encoding in method')
      else expect(reply.result?.encoding).toBe('json')
    })
  })

  describe(`${service}.issueTx`, () => {
    it('decoding errors are "problem decoding transaction: …"', async () => {
      const cases: [unknown, string][] = [
        ['abc', 'missing 0x prefix to hex encoding'],
        ['0xzz', "encoding/hex: invalid byte: U+007A 'z'"],
        ['0x123', 'encoding/hex: odd length hex string'],
        ['0x00', 'input string is smaller than the checksum size'],
        ['0x00000000', 'invalid input checksum'],
      ]
      for (const [tx, msg] of cases) expect(await errorOf('issueTx', { tx })).toBe(`problem decoding transaction: ${msg}`)
      expect(await errorOf('issueTx', { tx: '0x00', encoding: 'json' })).toBe('problem decoding transaction: unsupported encoding in method')
      if (service === 'native') {
        for (const encoding of ['hexnc', 'hexc']) expect(await errorOf('issueTx', { tx: '0x00', encoding })).toBe('problem decoding transaction: unsupported encoding in method')
      } else {
        // coreth decodes hexnc without a checksum and hexc as hex (formatting.Decode).
        expect(await errorOf('issueTx', { tx: '0x00', encoding: 'hexnc' })).toMatch(/^problem parsing transaction: /)
        expect(await errorOf('issueTx', { tx: '0x00', encoding: 'hexc' })).toBe('problem decoding transaction: input string is smaller than the checksum size')
        expect(await errorOf('issueTx', { tx: '', encoding: 'json' })).toMatch(/^problem parsing transaction: /)
      }
      expect(await errorOf('issueTx', { tx: '0x00', encoding: 'HEX' })).toBe('problem decoding transaction: input string is smaller than the checksum size')
    })

    it('parsing errors are "problem parsing transaction: …"; an empty tx is empty bytes', async () => {
      expect(await errorOf('issueTx', {})).toMatch(/^problem parsing transaction: /)
      expect(await errorOf('issueTx', { tx: '' })).toMatch(/^problem parsing transaction: /)
      // Codec version 0, type ID 3: not an atomic tx type.
      expect(await errorOf('issueTx', { tx: apiHex('000000000003') })).toMatch(/^problem parsing transaction: .*unknown type ID 3/)
      expect(await errorOf('issueTx', { tx: apiHex('0001') })).toMatch(/^problem parsing transaction: /)
      expect(await errorOf('issueTx', { tx: 5 })).toBe(ARG_ERROR)
      expect(await errorOf('issueTx', { tx: '0x00', encoding: 'cb58' })).toBe(ARG_ERROR)
    })
  })

  describe(`${service}.getAtomicTxStatus and getAtomicTx`, () => {
    // Helicon: saevm's answers (vms/saevm/cchain/api.go), a tx not accepted is not found; test/unit/namespaces/native.test.ts has coreth's.
    it('a missing, null or empty-ID txID is not found (Unknown, "fetching tx: not found"); a malformed one an argument error', async () => {
      for (const txID of [undefined, null, EMPTY_ID]) {
        expect((await call('getAtomicTxStatus', { txID })).result).toEqual({ status: 'Unknown' })
        expect(await errorOf('getAtomicTx', { txID })).toBe('fetching tx: not found')
      }
      for (const m of ['getAtomicTxStatus', 'getAtomicTx']) {
        for (const txID of ['', 'abc', EWOQ_SHORT_CB58, 5, [UNKNOWN_ID]]) expect(await errorOf(m, { txID }), `${m} ${String(txID)}`).toBe(ARG_ERROR)
      }
    })

    it('an unknown tx: status Unknown without blockHeight (not an error); getAtomicTx "fetching tx: not found"', async () => {
      expect((await call('getAtomicTxStatus', { txID: UNKNOWN_ID })).result).toEqual({ status: 'Unknown' })
      expect(await errorOf('getAtomicTx', { txID: UNKNOWN_ID })).toBe('fetching tx: not found')
      for (const encoding of ['json', 'hexnc']) expect(await errorOf('getAtomicTx', { txID: UNKNOWN_ID, encoding })).toBe('fetching tx: not found')
      expect(await errorOf('getAtomicTx', { txID: UNKNOWN_ID, encoding: 'nope' })).toBe(ARG_ERROR)
    })
  })
}

describe('routes', () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avax.getAtomicTxStatus', params: { txID: UNKNOWN_ID } })
  const nativeBody = body.replace('avax.', 'native.')

  it("avax and native under each of the C-Chain's bases: /ext/bc/C, /ext/bc/<C-Chain ID>, /ext/bc/evm, /ext/C, /ext/evm", async () => {
    expect(tn.node.blockchainId).toBe(LOCAL_C)
    for (const path of ['/ext/bc/C/avax', `/ext/bc/${LOCAL_C}/avax`, '/ext/bc/evm/avax', '/ext/C/avax', '/ext/evm/avax']) {
      const res = await post(path, body)
      expect(res.status, path).toBe(200)
      expect(JSON.parse(res.body).result).toEqual({ status: 'Unknown' })
    }
    for (const path of ['/ext/bc/C/native', `/ext/bc/${LOCAL_C}/native`, '/ext/bc/evm/native', '/ext/C/native', '/ext/evm/native']) {
      const res = await post(path, nativeBody)
      expect(res.status, path).toBe(200)
      expect(JSON.parse(res.body).result).toEqual({ status: 'Unknown' })
    }
  })

  it('other spellings are 404', async () => {
    for (const path of ['/ext/bc/C/native/', '/ext/bc/C/NATIVE', '/ext/bc/C/%6eative', '//ext/bc/C/native', '/ext/bc/X/avax', '/ext/X/avax', `/ext/${LOCAL_C}/avax`, '/ext/bc/C/avax/']) {
      const res = await post(path, nativeBody)
      expect(res.status, path).toBe(404)
    }
  })
})

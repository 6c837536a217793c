/**
 * avalanchego's routes at the edges: CORS and preflights on every API a browser wallet or dApp calls
 * (rs/cors in front of every route: avalanchego api/server/server.go), and the API aliases
 * avalanchego registers for the primary network's chains (genesis/aliases.go).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { TransferableOutput, addTxSignatures, avm, evm, pvm, secp256k1, utils, type avaxSerial } from '@avalabs/avalanchejs'
import { EWOQ, EWOQ_ETH, EWOQ_KEY, cb58, context, sha256, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { rawHttp, type RawResponse } from '../helpers/rawHttp.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { AVAX, EMPTY_ID, EWOQ_C, EWOQ_P, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from '../helpers/constants.js'

const BROWSER = 'http://localhost:3000'
const EVIL = 'http://evil.example'

let tn: TestNode
beforeAll(async () => {
  tn = await startTestNode({ chain: { 'admin-api-enabled': true } })
})
afterAll(() => tn.close())

/** A call each path serves, and what its answer's result must be. */
type Served = { path: string; method: string; params: unknown; result: (r: unknown) => void }
const evmRpc = (path: string): Served => ({ path, method: 'eth_chainId', params: [], result: (r) => expect(r).toBe('0xa868') })
const avax = (path: string): Served => ({ path, method: 'avax.getAtomicTxStatus', params: { txID: LOCAL_X }, result: (r) => expect(r).toEqual({ status: 'Unknown' }) })
const native = (path: string): Served => ({ ...avax(path), method: 'native.getAtomicTxStatus' })
const avmCall = (path: string): Served => ({ path, method: 'avm.getAssetDescription', params: { assetID: 'AVAX' }, result: (r) => expect(r).toMatchObject({ assetID: AVAX, symbol: 'AVAX' }) })
const platform = (path: string): Served => ({ path, method: 'platform.getHeight', params: {}, result: (r) => expect(r).toMatchObject({ height: expect.any(String) }) })

const C_BASES = ['/ext/bc/C', `/ext/bc/${LOCAL_C}`, '/ext/bc/evm', '/ext/C', '/ext/evm']
const X_PATHS = ['/ext/bc/X', `/ext/bc/${LOCAL_X}`, '/ext/bc/avm', '/ext/X', '/ext/avm']
const P_PATHS = ['/ext/bc/P', `/ext/bc/${LOCAL_P}`, '/ext/bc/platform', '/ext/P', '/ext/platform']

/** Every browser-facing API path with a call it serves. */
const SERVED: Served[] = [
  ...C_BASES.flatMap((b) => [evmRpc(`${b}/rpc`), avax(`${b}/avax`), native(`${b}/native`)]),
  ...X_PATHS.map(avmCall),
  ...P_PATHS.map(platform),
  { path: '/ext/info', method: 'info.getNetworkID', params: {}, result: (r) => expect(r).toEqual({ networkID: '12345' }) },
  { path: '/ext/health', method: 'health.liveness', params: {}, result: (r) => expect(r).toMatchObject({ healthy: true }) },
]

const corsHeaders = (res: RawResponse): string[] => Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawHttp(tn.port, { path, body, headers: { 'content-type': 'application/json', ...headers } })
}

function preflight(path: string, origin: string, method = 'POST'): Promise<RawResponse> {
  return rawHttp(tn.port, { method: 'OPTIONS', path, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } })
}

describe('CORS on every API a browser calls (docs/SECURITY.md, N3)', () => {
  it.each(SERVED.map((s) => [s.path, s] as const))('a preflight from http://localhost:3000 succeeds at %s, and its POST carries the allow-origin header', async (_path, s) => {
    const pre = await preflight(s.path, BROWSER)
    expect(pre.status).toBe(200)
    expect(pre.body).toBe('')
    expect(pre.headers['access-control-allow-origin']).toBe(BROWSER)
    expect(pre.headers['access-control-allow-methods']).toBe('POST')
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type')
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined()
    expect(pre.headers.vary).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
    const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }), { origin: BROWSER })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe(BROWSER)
    expect(res.headers['access-control-allow-credentials']).toBeUndefined()
    expect(res.headers.vary).toBe('Origin')
    s.result(JSON.parse(res.body).result)
  })

  it('an origin that is neither loopback nor configured gets no CORS headers, on a preflight or a call', async () => {
    for (const s of SERVED) {
      const pre = await preflight(s.path, EVIL)
      expect(pre.status, s.path).toBe(200)
      expect(corsHeaders(pre), s.path).toEqual([])
      const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }), { origin: EVIL })
      expect(res.status, s.path).toBe(200)
      expect(corsHeaders(res), s.path).toEqual([])
    }
  })

  it('a preflight asking for a method or a header rs/cors does not allow gets no CORS headers', async () => {
    expect(corsHeaders(await preflight('/ext/bc/X', BROWSER, 'PUT'))).toEqual([])
    const custom = await rawHttp(tn.port, {
      method: 'OPTIONS',
      path: '/ext/bc/C/avax',
      headers: { origin: BROWSER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    })
    expect(custom.status).toBe(200)
    expect(corsHeaders(custom)).toEqual([])
    const accept = await rawHttp(tn.port, {
      method: 'OPTIONS',
      path: '/ext/info',
      headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'post', 'access-control-request-headers': 'accept,Content-Type' },
    })
    expect(accept.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173')
    expect(accept.headers['access-control-allow-methods']).toBe('POST')
    expect(accept.headers['access-control-allow-headers']).toBe('Accept, Content-Type')
  })

  it('the health GETs carry CORS headers and answer preflights', async () => {
    for (const path of ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness']) {
      const res = await rawHttp(tn.port, { method: 'GET', path, headers: { origin: BROWSER } })
      expect(res.status, path).toBe(200)
      expect(res.headers['access-control-allow-origin'], path).toBe(BROWSER)
      expect((await preflight(path, BROWSER, 'GET')).headers['access-control-allow-methods'], path).toBe('GET')
    }
  })

  it('the keystore and admin APIs stay without CORS: a preflight there is 405 with no CORS headers', async () => {
    for (const path of ['/ext/bc/C/admin', '/ext/C/admin']) {
      const pre = await preflight(path, BROWSER)
      expect(pre.status, path).toBe(405)
      expect(corsHeaders(pre), path).toEqual([])
    }
  })
})

describe("avalanchego's API aliases (genesis/aliases.go): each answers as the canonical path", () => {
  it.each(SERVED.map((s) => [s.path, s] as const))('%s answers 200 to a real call', async (_path, s) => {
    const res = await post(s.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: s.method, params: s.params }))
    expect(res.status).toBe(200)
    s.result(JSON.parse(res.body).result)
  })

  it('the WebSocket at /ext/C/ws, /ext/evm/ws and /ext/bc/evm/ws', async () => {
    for (const base of ['/ext/C', '/ext/evm', '/ext/bc/evm']) {
      const ws = new WebSocket(`ws://127.0.0.1:${tn.port}${base}/ws`)
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }))
      const msg = await new Promise<string>((resolve) => ws.once('message', (m) => resolve(m.toString())))
      expect(JSON.parse(msg), base).toEqual({ jsonrpc: '2.0', id: 7, result: '0xa868' })
      ws.close()
    }
  })

  it('the admin API at /ext/bc/evm/admin, /ext/C/admin and /ext/evm/admin', async () => {
    for (const base of ['/ext/bc/C', '/ext/bc/evm', '/ext/C', '/ext/evm']) {
      const res = await post(`${base}/admin`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getVMConfig', params: {} }))
      expect(res.status, base).toBe(200)
      expect(JSON.parse(res.body).result.config['admin-api-enabled'], base).toBe(true)
    }
  })

  it('no alias avalanchego does not register: /ext/<chain ID>, /ext/bc/<X or P alias>/rpc, /ext/X/rpc', async () => {
    for (const path of [`/ext/${LOCAL_X}`, `/ext/${LOCAL_C}/rpc`, '/ext/X/rpc', '/ext/avm/avax', '/ext/platform/rpc', '/ext/info/rpc']) {
      const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))
      expect(res.status, path).toBe(404)
    }
  })
})

/*
 * The `encoding` values avalanchego takes on the X, P and C atomic APIs (utils/formatting/encoding.go;
 * vms/avm/service.go, vms/platformvm/service.go, coreth plugin/evm/atomic/vm/api.go), each answered as it does.
 */
describe("encodings as avalanchego's services take them", () => {
  const SECP256K1FX = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ'
  let xapi: InstanceType<typeof avm.AVMApi>
  let papi: InstanceType<typeof pvm.PVMApi>
  let capi: InstanceType<typeof evm.EVMApi>
  beforeAll(() => {
    const base = `http://127.0.0.1:${tn.port}`
    xapi = new avm.AVMApi(base)
    papi = new pvm.PVMApi(base)
    capi = new evm.EVMApi(base)
  })

  const call = async (path: string, method: string, params: unknown): Promise<{ result?: any; error?: { message: string }; body: string }> => {
    const res = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
    expect(res.status).toBe(200)
    return { ...JSON.parse(res.body), body: res.body }
  }
  const hexOf = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex')
  const withChecksum = (b: Uint8Array): string => hexOf(b) + Buffer.from(sha256(b).subarray(-4)).toString('hex')
  /** UTXOID.InputID of codec UTXO bytes: sha256(u64 outputIndex ‖ txID), CB58. */
  const inputIDOf = (utxoHex: string): string => {
    const b = Buffer.from(utxoHex.slice(2, -8), 'hex')
    const packed = Buffer.alloc(40)
    packed.writeBigUInt64BE(BigInt(b.readUInt32BE(34)), 0)
    b.copy(packed, 8, 2, 34)
    return cb58(sha256(packed))
  }

  /** The JSON avalanchego's getTx answers, built from AvalancheJS's objects of the tx (Go's field order; TransferOutput's keys sorted). */
  function expectedTxJson(chain: 'X' | 'P', signed: avaxSerial.SignedTx, txID: string): string {
    const q = (v: unknown): string => JSON.stringify(v)
    const owners = (t: any): string =>
      `{"addresses":[${(t.getOwners() as Uint8Array[]).map((a) => q(`${chain}-${utils.formatBech32('local', a)}`)).join(',')}],"amount":${t.amount()},"locktime":${t.getLocktime()},"threshold":${t.getThreshold()}}`
    const output = (o: any): string => {
      const out = o.output
      const body = 'transferOut' in out ? `{"locktime":${out.getStakeableLocktime()},"output":${owners(out.transferOut)}}` : owners(out)
      return `{"assetID":${q(o.getAssetId())},"fxID":"${SECP256K1FX}","output":${body}}`
    }
    const input = (i: any): string => {
      const leaf = (t: any): string => `{"amount":${t.amount()},"signatureIndices":[${t.sigIndicies().join(',')}]}`
      const body = 'transferableInput' in i.input ? `{"locktime":${i.input.lockTime.value()},"input":${leaf(i.input.transferableInput)}}` : leaf(i.input)
      return `{"txID":${q(i.utxoID.txID.toString())},"outputIndex":${i.utxoID.outputIdx.value()},"assetID":${q(i.getAssetId())},"fxID":"${SECP256K1FX}","input":${body}}`
    }
    const base = (signed.unsignedTx as any).baseTx
    const unsigned = `{"networkID":${base.NetworkId.value()},"blockchainID":${q(base.BlockchainId.toString())},"outputs":[${base.outputs.map(output).join(',')}],"inputs":[${base.inputs.map(input).join(',')}],"memo":${q(hexOf(base.memo.bytes))}}`
    const sigs = (c: any): string => `{"signatures":[${(c.getSignatures() as string[]).map((s) => q(utils.bufferToHex(utils.hexToBuffer(s)))).join(',')}]}`
    const creds = signed.getCredentials().map((c) => (chain === 'X' ? `{"fxID":"${SECP256K1FX}","credential":${sigs(c)}}` : sigs(c)))
    return `{"unsignedTx":${unsigned},"credentials":[${creds.join(',')}],"id":${q(txID)}}`
  }

  /** The raw `tx` text of a getTx answer (amounts stay exact). */
  const rawTx = (body: string): string => body.slice(body.indexOf('"tx":') + 5, body.lastIndexOf(',"encoding":"json"'))

  it('avm: issueTx in hexnc; getTx in hex, hexc, hexnc and json (the tx as avalanchego marshals it); getUTXOs refuses json per UTXO', async () => {
    const { utxos } = await xapi.getUTXOs({ addresses: [EWOQ_X] })
    const to = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(randomBytes(32)))
    const unsignedTx = avm.newBaseTx(context, [EWOQ], utxos, [TransferableOutput.fromNative(AVAX, 1_234_567_890n, [to])], { memo: Buffer.from('hi <&>') })
    await addTxSignatures({ unsignedTx, privateKeys: [EWOQ_KEY] })
    const signed = unsignedTx.getSignedTx()
    const bytes = signed.toBytes()
    expect((await call('/ext/X', 'avm.issueTx', { tx: hexOf(bytes), encoding: 'json' })).error?.message).toBe('problem decoding transaction: unsupported encoding in method')
    const issued = await call('/ext/bc/X', 'avm.issueTx', { tx: hexOf(bytes), encoding: 'hexnc' })
    const txID = cb58(sha256(bytes))
    expect(issued.result).toEqual({ txID })
    for (const [encoding, tx] of [
      ['hex', withChecksum(bytes)],
      ['hexc', withChecksum(bytes)],
      ['hexnc', hexOf(bytes)],
    ] as const) {
      expect((await call('/ext/bc/X', 'avm.getTx', { txID, encoding })).result).toEqual({ tx, encoding })
    }
    const json = await call('/ext/bc/X', 'avm.getTx', { txID, encoding: 'JSON' })
    expect(json.body.endsWith(',"encoding":"json"},"id":1}\n')).toBe(true)
    expect(rawTx(json.body)).toBe(expectedTxJson('X', signed, txID))
    expect(json.result.tx.unsignedTx.outputs.map((o: any) => o.output.addresses[0])).toContain(`X-${utils.formatBech32('local', to)}`)
    expect(((await xapi.getTxJson({ txID })) as any).tx.id).toBe(txID)
    expect((await call('/ext/bc/X', 'avm.getTx', { txID: EMPTY_ID })).error?.message).toBe('nil transaction ID')
    expect((await call('/ext/bc/X', 'avm.getTx', { txID: LOCAL_C })).error?.message).toBe('not found')

    const page = await call('/ext/bc/X', 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'hexc' })
    expect(page.result.encoding).toBe('hexc')
    const first: string = page.result.utxos[0]
    expect((await call('/ext/bc/X', 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'hexnc' })).result.utxos[0]).toBe(first.slice(0, -8))
    expect((await call('/ext/bc/X', 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'json' })).error?.message).toBe(
      `couldn't encode UTXO ${inputIDOf(first)} as string: unsupported encoding in method`,
    )
    const none = await call('/ext/bc/X', 'avm.getUTXOs', { addresses: [EWOQ_X], sourceChain: 'P', encoding: 'json' })
    expect(none.result).toMatchObject({ numFetched: '0', utxos: [], encoding: 'json' })
  })

  it('platform: issueTx in hexnc; getTx in hexnc and json; getUTXOs refuses json per UTXO naming the encoding', async () => {
    const to = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(randomBytes(32)))
    const feeState = await papi.getFeeState()
    const { utxos } = await papi.getUTXOs({ addresses: [EWOQ_P] })
    const unsignedTx = pvm.newBaseTx({ feeState, fromAddressesBytes: [EWOQ], utxos, outputs: [TransferableOutput.fromNative(AVAX, 2_000_000_000n, [to])] }, context)
    await addTxSignatures({ unsignedTx, privateKeys: [EWOQ_KEY] })
    const signed = unsignedTx.getSignedTx()
    const bytes = signed.toBytes()
    const txID = cb58(sha256(bytes))
    expect((await call('/ext/P', 'platform.issueTx', { tx: hexOf(bytes), encoding: 'hexnc' })).result).toEqual({ txID })
    expect((await call('/ext/platform', 'platform.getTx', { txID, encoding: 'hexnc' })).result).toEqual({ tx: hexOf(bytes), encoding: 'hexnc' })
    const json = await call('/ext/bc/P', 'platform.getTx', { txID, encoding: 'json' })
    expect(rawTx(json.body)).toBe(expectedTxJson('P', signed, txID))
    expect(((await papi.getTxJson({ txID })) as any).tx.id).toBe(txID)
    for (const id of [EMPTY_ID, LOCAL_C]) expect((await call('/ext/bc/P', 'platform.getTx', { txID: id })).error?.message).toBe("couldn't get tx: not found")

    const first: string = (await call('/ext/bc/P', 'platform.getUTXOs', { addresses: [EWOQ_P] })).result.utxos[0]
    expect((await call('/ext/bc/P', 'platform.getUTXOs', { addresses: [EWOQ_P], encoding: 'Json' })).error?.message).toBe(
      `couldn't encode UTXO ${inputIDOf(first)} as json: unsupported encoding in method`,
    )
  })

  it('avax (C-Chain atomic API): getUTXOs in hexc, hexnc, json refused per UTXO; issueTx in hexnc; getAtomicTx in hexnc, json refused', async () => {
    const exportTx = avm.newExportTx(context, LOCAL_C, [EWOQ], (await xapi.getUTXOs({ addresses: [EWOQ_X] })).utxos, [TransferableOutput.fromNative(AVAX, 3n * NANO, [EWOQ])])
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] })
    await xapi.issueSignedTx(exportTx.getSignedTx())
    const args = { addresses: [EWOQ_C], sourceChain: 'X' }
    const hexc = await call('/ext/C/avax', 'avax.getUTXOs', { ...args, encoding: 'hexc' })
    expect(hexc.result).toMatchObject({ numFetched: '1', encoding: 'hexc' })
    const utxo: string = hexc.result.utxos[0]
    expect((await call('/ext/bc/C/avax', 'avax.getUTXOs', args)).result.utxos).toEqual([utxo])
    expect((await call('/ext/bc/C/avax', 'avax.getUTXOs', { ...args, encoding: 'hexnc' })).result.utxos).toEqual([utxo.slice(0, -8)])
    expect((await call('/ext/bc/C/avax', 'avax.getUTXOs', { ...args, encoding: 'json' })).error?.message).toBe('problem encoding utxo: unsupported encoding in method')
    // The API reference's native.* takes hex only.
    expect((await call('/ext/bc/C/native', 'native.getUTXOs', { ...args, encoding: 'hexnc' })).error?.message).toBe('problem encoding utxo: unsupported encoding in method')

    const { utxos } = await capi.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' })
    const baseFee = ((await capi.getBaseFee()) + NANO - 1n) / NANO
    const importTx = evm.newImportTxFromBaseFee(context, EWOQ_ETH, [EWOQ], utxos, LOCAL_X, baseFee)
    await addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] })
    const bytes = importTx.getSignedTx().toBytes()
    const txID = cb58(sha256(bytes))
    expect((await call('/ext/bc/C/avax', 'avax.issueTx', { tx: hexOf(bytes), encoding: 'json' })).error?.message).toBe('problem decoding transaction: unsupported encoding in method')
    expect((await call('/ext/evm/avax', 'avax.issueTx', { tx: hexOf(bytes), encoding: 'hexnc' })).result).toEqual({ txID })
    await waitAtomicAccepted(capi, txID)
    const got = await call('/ext/bc/C/avax', 'avax.getAtomicTx', { txID, encoding: 'hexnc' })
    expect(got.result).toEqual({ tx: hexOf(bytes), encoding: 'hexnc', blockHeight: expect.any(String) })
    expect((await call('/ext/bc/C/avax', 'avax.getAtomicTx', { txID, encoding: 'hexc' })).result.tx).toBe(withChecksum(bytes))
    expect((await call('/ext/bc/C/avax', 'avax.getAtomicTx', { txID, encoding: 'json' })).error?.message).toBe('unsupported encoding in method')
  })
})

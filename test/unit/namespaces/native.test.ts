/**
 * The native/avax handler table over a fake AtomicService: what the handlers hand the service
 * (parsed addresses, clamped limit, cursor) and how they render its answers (coreth: plugin/evm/atomic/vm/api.go).
 */
import { describe, expect, it } from 'vitest'
import pino from 'pino'
import { readFileSync } from 'node:fs'
import { avaxMethods, nativeHandlers, nativeMethods } from '../../../src/namespaces/native.js'
import { goQuote } from '../../../src/util/goQuote.js'
import { GorillaDispatcher } from '../../../src/rpc/gorilla.js'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { AlreadyKnownError } from '../../../src/atomic/errors.js'
import { VerifyError } from '../../../src/avalanche/errors.js'
import type { AtomicService, GetExportedUTXOsQuery, GetUTXOsQuery, AtomicStatus } from '../../../src/atomic/service.js'
import { EWOQ_C, EWOQ_SHORT } from '../../helpers/constants.js'

const local = NETWORKS.local
const EWOQ = Buffer.from(EWOQ_SHORT, 'hex')
const vectors = JSON.parse(readFileSync(new URL('../../fixtures/avalanche/atomic-txs.json', import.meta.url), 'utf8'))

class FakeService implements AtomicService {
  queries: GetUTXOsQuery[] = []
  issued: Uint8Array[] = []
  txs = new Map<string, { tx: Uint8Array; status: AtomicStatus; blockHeight?: bigint }>()
  utxos: Uint8Array[] = []
  issueError: Error | undefined
  async issueTx(bytes: Uint8Array): Promise<Uint8Array> {
    this.issued.push(bytes)
    if (this.issueError) throw this.issueError
    return new Uint8Array(32).fill(9)
  }
  status(txID: Uint8Array) {
    const t = this.txs.get(Buffer.from(txID).toString('hex'))
    return t === undefined ? { status: 'Unknown' as const } : { status: t.status, ...(t.blockHeight !== undefined && { blockHeight: t.blockHeight }) }
  }
  getTx(txID: Uint8Array) {
    return this.txs.get(Buffer.from(txID).toString('hex'))
  }
  async getUTXOs(q: GetUTXOsQuery) {
    this.queries.push(q)
    return { utxos: this.utxos.slice(0, q.limit), endIndex: { address: q.addresses.at(-1)!, utxoID: new Uint8Array(32).fill(3) } }
  }
  getExportedUTXOs(q: GetExportedUTXOsQuery) {
    return { utxos: [], endIndex: { address: q.addresses.at(-1)!, utxoID: new Uint8Array(32) } }
  }
  async putInbound(): Promise<void> {}
}

function setup(saevm = false) {
  const svc = new FakeService()
  const ctx = { atomic: svc, networkID: local.networkID, chains: { xChainID: local.xChainID, pChainID: local.pChainID, cChainID: local.cChainID }, saevm }
  const log = pino({ level: 'silent' })
  const native = new GorillaDispatcher(nativeMethods(nativeHandlers(ctx, 'native')), { log })
  const avax = new GorillaDispatcher(avaxMethods(nativeHandlers(ctx, 'avax')), { log })
  const call = async (d: GorillaDispatcher, method: string, params: unknown) => JSON.parse(await d.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))
  return { svc, native, avax, call }
}

describe('native handler table', () => {
  it('native.X and avax.X: one table served under each name', () => {
    const handlers = nativeHandlers({ atomic: new FakeService(), networkID: local.networkID, chains: local })
    const n = nativeMethods(handlers)
    const a = avaxMethods(handlers)
    expect(Object.keys(n)).toEqual(['native.getUTXOs', 'native.issueTx', 'native.getAtomicTx', 'native.getAtomicTxStatus'])
    for (const name of ['getUTXOs', 'issueTx', 'getAtomicTx', 'getAtomicTxStatus']) expect(a[`avax.${name}`]).toBe(n[`native.${name}`])
  })

  it("avax's table takes coreth's encodings: hexnc and hexc UTXOs; json fails only with a UTXO to encode", async () => {
    const { svc, avax, call } = setup()
    svc.utxos = [Uint8Array.of(0, 0, 1, 2)]
    const utxosIn = async (encoding: string) => (await call(avax, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding })).result.utxos
    expect(await utxosIn('hexnc')).toEqual(['0x00000102'])
    expect(await utxosIn('hexc')).toEqual(['0x00000102994af299'])
    expect((await call(avax, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding: 'json' })).error.message).toBe('problem encoding utxo: unsupported encoding in method')
    svc.utxos = []
    expect((await call(avax, 'avax.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding: 'json' })).result.encoding).toBe('json')
  })

  it('getUTXOs hands the service parsed, de-duplicated addresses, the chain ID, the clamped limit and the cursor', async () => {
    const { svc, native, call } = setup()
    svc.utxos = [Uint8Array.of(0, 0, 1, 2)]
    const r = await call(native, 'native.getUTXOs', {
      addresses: [EWOQ_C, '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV'],
      sourceChain: 'avm',
      limit: '5000',
      startIndex: { address: EWOQ_C, utxo: cb58Encode(new Uint8Array(32).fill(2)) },
    })
    expect(r.result).toMatchObject({ numFetched: '1', endIndex: { address: EWOQ_C, utxo: cb58Encode(new Uint8Array(32).fill(3)) }, encoding: 'hex' })
    expect(r.result.utxos[0]).toMatch(/^0x00000102[0-9a-f]{8}$/)
    const q = svc.queries[0]!
    expect(q.addresses.map((a) => Buffer.from(a).toString('hex'))).toEqual([EWOQ.toString('hex')])
    expect(Buffer.from(q.sourceChain).equals(local.xChainID)).toBe(true)
    expect(q.limit).toBe(1024)
    expect(Buffer.from(q.startIndex!.utxoID).equals(new Uint8Array(32).fill(2))).toBe(true)
    await call(native, 'native.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'P', limit: 7 })
    expect(svc.queries[1]!.limit).toBe(7)
    expect(svc.queries[1]!.startIndex).toBeUndefined()
    expect(Buffer.from(svc.queries[1]!.sourceChain).equals(new Uint8Array(32))).toBe(true)
  })

  it('getUTXOs: hex carries the checksum; other encodings are refused before the service is asked (API reference: only hex)', async () => {
    const { svc, native, call } = setup()
    svc.utxos = [Uint8Array.of(0, 0, 1, 2)]
    expect((await call(native, 'native.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X' })).result.utxos).toEqual(['0x00000102994af299'])
    for (const encoding of ['hexnc', 'hexc', 'json']) {
      expect((await call(native, 'native.getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X', encoding })).error).toEqual({
        code: -32000,
        message: 'problem encoding utxo: unsupported encoding in method',
        data: null,
      })
    }
    expect(svc.queries).toHaveLength(1)
  })

  it('getAtomicTxStatus: blockHeight as a decimal string only when Accepted', async () => {
    const { svc, avax, call } = setup()
    const id = new Uint8Array(32).fill(4)
    const key = Buffer.from(id).toString('hex')
    svc.txs.set(key, { tx: Uint8Array.of(1), status: 'Accepted', blockHeight: 12n })
    expect((await call(avax, 'avax.getAtomicTxStatus', { txID: cb58Encode(id) })).result).toEqual({ status: 'Accepted', blockHeight: '12' })
    for (const status of ['Processing', 'Dropped'] as const) {
      svc.txs.set(key, { tx: Uint8Array.of(1), status })
      expect((await call(avax, 'avax.getAtomicTxStatus', { txID: cb58Encode(id) })).result).toEqual({ status })
    }
  })

  it('getAtomicTx: the signed bytes in the encoding, blockHeight only when Accepted; json unsupported (native: only hex)', async () => {
    const { svc, native, avax, call } = setup()
    const id = new Uint8Array(32).fill(5)
    const key = Buffer.from(id).toString('hex')
    svc.txs.set(key, { tx: Uint8Array.of(0xab), status: 'Accepted', blockHeight: 3n })
    const r = (await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id) })).result
    expect(Object.keys(r)).toEqual(['tx', 'encoding', 'blockHeight'])
    expect(r).toMatchObject({ encoding: 'hex', blockHeight: '3' })
    expect(r.tx).toMatch(/^0xab[0-9a-f]{8}$/)
    expect((await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id), encoding: 'hexnc' })).result).toEqual({ tx: '0xab', encoding: 'hexnc', blockHeight: '3' })
    expect((await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id), encoding: 'hexc' })).result).toEqual({ tx: r.tx, encoding: 'hexc', blockHeight: '3' })
    expect((await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id), encoding: 'json' })).error.message).toBe('unsupported encoding in method')
    for (const encoding of ['hexnc', 'hexc', 'json']) {
      expect((await call(native, 'native.getAtomicTx', { txID: cb58Encode(id), encoding })).error.message).toBe('unsupported encoding in method')
    }
    svc.txs.set(key, { tx: Uint8Array.of(0xab), status: 'Dropped' })
    expect((await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id), encoding: 'HEX' })).result).toEqual({ tx: r.tx, encoding: 'hex' })
    svc.txs.set(key, { tx: Uint8Array.of(0xab), status: 'Processing' })
    expect((await call(avax, 'avax.getAtomicTx', { txID: cb58Encode(id) })).result).toEqual({ tx: r.tx, encoding: 'hex' })
  })

  it('under Helicon, saevm\'s answers: Accepted with blockHeight, else Unknown and getAtomicTx\'s "fetching tx: not found"', async () => {
    const { svc, avax, call } = setup(true)
    const id = new Uint8Array(32).fill(6)
    const key = Buffer.from(id).toString('hex')
    const txID = cb58Encode(id)
    svc.txs.set(key, { tx: Uint8Array.of(0xab), status: 'Accepted', blockHeight: 7n })
    expect((await call(avax, 'avax.getAtomicTxStatus', { txID })).result).toEqual({ status: 'Accepted', blockHeight: '7' })
    expect((await call(avax, 'avax.getAtomicTx', { txID, encoding: 'hexnc' })).result).toEqual({ tx: '0xab', encoding: 'hexnc', blockHeight: '7' })
    for (const status of ['Processing', 'Dropped'] as const) {
      svc.txs.set(key, { tx: Uint8Array.of(0xab), status })
      expect((await call(avax, 'avax.getAtomicTxStatus', { txID })).result).toEqual({ status: 'Unknown' })
      expect((await call(avax, 'avax.getAtomicTx', { txID })).error.message).toBe('fetching tx: not found')
    }
    // No nil-ID check: the empty ID is looked up like any other.
    expect((await call(avax, 'avax.getAtomicTxStatus', {})).result).toEqual({ status: 'Unknown' })
  })

  it('issueTx: a vector tx goes to the service; its errors pass verbatim; already known is success', async () => {
    const { svc, native, call } = setup()
    const v = vectors.importTxs[0]
    let r = await call(native, 'native.issueTx', { tx: v.expected.signedTxApiHex })
    expect(r.result).toEqual({ txID: cb58Encode(new Uint8Array(32).fill(9)) })
    expect(Buffer.from(svc.issued[0]!).toString('hex')).toBe(v.expected.signedTxHex)
    svc.issueError = new VerifyError('tx has no imported inputs')
    r = await call(native, 'native.issueTx', { tx: v.expected.signedTxApiHex })
    expect(r.error).toEqual({ code: -32000, message: 'tx has no imported inputs', data: null })
    svc.issueError = new AlreadyKnownError(`already known: tx ${v.expected.txID} was issued previously`)
    r = await call(native, 'native.issueTx', { tx: v.expected.signedTxApiHex })
    expect(r.result).toEqual({ txID: v.expected.txID })
    svc.issueError = new TypeError('boom')
    r = await call(native, 'native.issueTx', { tx: v.expected.signedTxApiHex })
    expect(r.error.message).toBe('internal error')
  })

  it('goQuote is Go %q', () => {
    expect(goQuote('a"b\\c\n\t\x01\x7f é')).toBe('"a\\"b\\\\c\\n\\t\\x01\\x7f é"')
  })
})

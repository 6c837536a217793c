/**
 * AvalancheJS 5.2.0 against the running node, as an Avalanche developer would use it (issue 5,
 * "How it is judged"): ExportTx C->X and C->P and ImportTx X->C built with `evm.newExportTxFromBaseFee`
 * / `evm.newImportTxFromBaseFee`, signed with `addTxSignatures`, issued with `EVMApi.issueSignedTx`,
 * polled to Accepted, fetched and decoded with `getAtomicTx`; balances and nonces; a double spend;
 * getUTXOs paging over 3,000 UTXOs. Every step runs over `/ext/bc/C/avax` (EVMApi as shipped) and
 * `/ext/bc/C/native` (EVMApi with its path and service name overridden).
 *
 * The Context is built by hand (avalanchejs: src/vms/context/context.ts): `Context.getContextFromURI` needs the X- and
 * P-Chain APIs, which this C-only node does not serve.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BigIntPr, Id, Int, OutputOwners, TransferOutput, Utxo, addTxSignatures, avaxSerial, evm, evmSerial, utils, type Context } from '@avalabs/avalanchejs'

const { EVMApi } = evm
type EVMApi = InstanceType<typeof EVMApi>
import { EWOQ as ewoqShort, EWOQ_ETH as ewoqEth, EWOQ_KEY as privateKey, cb58, sha256 } from '../helpers/avalanchejs.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_C, EWOQ_P, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import type { AtomicService, GetUTXOsResult } from '../../src/atomic/service.js'

/** What a developer would get from getContextFromURI on a local network, written out (avalanchego: genesis/genesis_local.json). */
const context = Object.freeze({
  networkID: 12345,
  hrp: 'local',
  xBlockchainID: LOCAL_X,
  pBlockchainID: LOCAL_P,
  cBlockchainID: LOCAL_C,
  avaxAssetID: AVAX,
  baseTxFee: 1_000_000n,
  createAssetTxFee: 10_000_000n,
  platformFeeConfig: {} as Context.Context['platformFeeConfig'],
}) as Context.Context

/** EVMApi pointed at /ext/bc/C/native with the `native.` service name; everything else as shipped. */
class NativeEVMApi extends EVMApi {
  constructor(baseURL: string) {
    super(baseURL)
    this.base = 'native'
    const Provider = this.rpcProvider.constructor as new (url: string) => EVMApi['rpcProvider']
    this.rpcProvider = new Provider(baseURL + '/ext/bc/C/native')
  }
}

/** The service the node exposes for tests and the X/P counterparts (putInbound; the outbound listing). */
type NodeAtomic = AtomicService & {
  getExportedUTXOs?(q: { addresses: Uint8Array[]; destinationChain: Uint8Array; limit: number }): GetUTXOsResult
}

const manager = utils.getManagerForVM('EVM')

let tn: TestNode
let baseURL: string
let atomic: NodeAtomic

beforeAll(async () => {
  tn = await startTestNode()
  baseURL = `http://127.0.0.1:${tn.port}`
  atomic = (tn.node as unknown as { atomic: NodeAtomic }).atomic
})
afterAll(() => tn?.close())

const balance = async (): Promise<bigint> => BigInt(await tn.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
const nonce = async (): Promise<bigint> => BigInt(await tn.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))

/** eth_baseFee (wei) -> nAVAX per gas for the AvalancheJS builders, rounded up (they take whole nAVAX per gas: avalanchejs src/vms/evm/builder.ts). */
async function baseFeeNAVAX(api: EVMApi): Promise<bigint> {
  const wei = await api.getBaseFee()
  return (wei + NANO - 1n) / NANO
}

/** Codec bytes (with the version) of a UTXO built by AvalancheJS. */
function utxoBytes(utxo: Utxo): Uint8Array {
  return new Uint8Array([0, 0, ...utxo.toBytes(manager.getDefaultCodec())])
}

/** A UTXO of `amount` nAVAX for `owner`, as the X-Chain (or P-Chain) would have exported it. */
function fakeUTXO(amount: bigint, owner: Uint8Array = ewoqShort, outputIndex = 0): Utxo {
  return new Utxo(
    new avaxSerial.UTXOID(Id.fromHex(randomBytes(32).toString('hex')), new Int(outputIndex)),
    Id.fromString(AVAX),
    new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative([owner])),
  )
}

async function waitAccepted(api: EVMApi, txID: string): Promise<{ status: string; blockHeight?: string }> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const st = await api.getAtomicTxStatus(txID)
    if (st.status === 'Accepted') return st
    expect(['Processing', 'Unknown']).toContain(st.status)
    if (Date.now() > deadline) throw new Error(`tx ${txID} still ${st.status}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const CLIENTS = [
  { name: 'avax (/ext/bc/C/avax)', make: (url: string) => new EVMApi(url) },
  { name: 'native (/ext/bc/C/native)', make: (url: string) => new NativeEVMApi(url) },
] as const

describe.each(CLIENTS)('AvalancheJS EVMApi over $name', ({ make }) => {
  let api: EVMApi
  beforeAll(() => {
    api = make(baseURL)
  })

  for (const dest of [
    { alias: 'X', chainID: LOCAL_X, to: EWOQ_X },
    { alias: 'P', chainID: LOCAL_P, to: EWOQ_P },
  ]) {
    it(`exports C -> ${dest.alias}: accepted, fetched and decoded; balance falls by amount + fee, nonce + 1; the exported UTXO is in shared memory`, async () => {
      const amount = 250_000_000n // 0.25 AVAX in nAVAX
      const [balBefore, nonceBefore] = [await balance(), await nonce()]
      const fee = await baseFeeNAVAX(api)
      const unsignedTx = evm.newExportTxFromBaseFee(context, fee, amount, dest.chainID, ewoqEth, [utils.bech32ToBytes(dest.to)], nonceBefore)
      await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
      expect(unsignedTx.hasAllSignatures()).toBe(true)
      const signed = unsignedTx.getSignedTx()
      const { txID } = await api.issueSignedTx(signed)
      expect(txID).toBe(cb58(sha256(signed.toBytes())))

      const st = await waitAccepted(api, txID)
      expect(st.blockHeight).toMatch(/^[1-9][0-9]*$/)

      const got = await api.getAtomicTx({ txID })
      expect(got.encoding).toBe('hex')
      expect(got.blockHeight).toBe(BigInt(st.blockHeight!))
      expect(utils.bufferToHex(got.tx.toBytes())).toBe(utils.bufferToHex(signed.toBytes()))
      const exportTx = got.tx.unsignedTx as evmSerial.ExportTx
      expect(evmSerial.isExportTx(exportTx)).toBe(true)
      expect(exportTx.destinationChain.toString()).toBe(dest.chainID)
      expect(exportTx.blockchainId.toString()).toBe(LOCAL_C)
      expect((exportTx.exportedOutputs[0]!.output as TransferOutput).amount()).toBe(amount)
      const debit = exportTx.ins[0]!.amount.value()
      expect(debit).toBeGreaterThan(amount)

      expect(await balance()).toBe(balBefore - debit * NANO)
      expect(await nonce()).toBe(nonceBefore + 1n)
      // The block holding it shows the tx in blockExtraData only.
      const block = await tn.call('eth_getBlockByNumber', ['0x' + BigInt(st.blockHeight!).toString(16), false])
      expect(block.transactions).toEqual([])
      expect(block.blockExtraData).toContain(utils.bufferToHex(signed.toBytes()).slice(6))

      // The exported UTXO: what X/P's getUTXOs (issue 7) will list with sourceChain C, checked in shared memory.
      const expected = new Utxo(new avaxSerial.UTXOID(Id.fromString(txID), new Int(0)), exportTx.exportedOutputs[0]!.assetId, exportTx.exportedOutputs[0]!.output)
      expect(atomic.getExportedUTXOs, 'the atomic service lists outbound UTXOs').toBeTypeOf('function')
      const out = atomic.getExportedUTXOs!({ addresses: [ewoqShort], destinationChain: Id.fromString(dest.chainID).toBytes(), limit: 1024 })
      expect(out.utxos.map((b) => utils.bufferToHex(b))).toContain(utils.bufferToHex(utxoBytes(expected)))
      // ...and nothing for the C-Chain's own inbound listing from that chain.
      const listed = await api.getUTXOs({ addresses: [EWOQ_C], sourceChain: dest.alias })
      expect(listed.utxos.map((u) => u.ID())).not.toContain(expected.ID())
    })
  }

  it('imports UTXOs X put in shared memory: listed by getUTXOs, accepted, balance credited, UTXOs consumed; a double spend is refused', async () => {
    const utxos = [fakeUTXO(700_000_000n), fakeUTXO(300_000_000n, ewoqShort, 2)]
    for (const u of utxos) await atomic.putInbound(Id.fromString(LOCAL_X).toBytes(), utxoBytes(u))

    const listed = await api.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' })
    expect(listed.encoding).toBe('hex')
    expect(listed.numFetched).toBe(String(listed.utxos.length))
    const ids = listed.utxos.map((u) => u.ID())
    for (const u of utxos) expect(ids).toContain(u.ID())
    expect(listed.endIndex.address).toBe(EWOQ_C)

    const [balBefore, nonceBefore] = [await balance(), await nonce()]
    const fee = await baseFeeNAVAX(api)
    const mine = listed.utxos.filter((u) => utxos.some((x) => x.ID() === u.ID()))
    const unsignedTx = evm.newImportTxFromBaseFee(context, ewoqEth, [ewoqShort], mine, LOCAL_X, fee)
    await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
    const signed = unsignedTx.getSignedTx()
    const { txID } = await api.issueSignedTx(signed)
    expect(txID).toBe(cb58(sha256(signed.toBytes())))
    const st = await waitAccepted(api, txID)
    // Re-issuing the accepted tx: its UTXOs are gone from shared memory.
    await expect(api.issueSignedTx(signed)).rejects.toThrow(`failed to fetch import UTXOs from ${LOCAL_X} due to: not found`)

    const got = await api.getAtomicTx({ txID })
    expect(got.blockHeight).toBe(BigInt(st.blockHeight!))
    const importTx = got.tx.unsignedTx as evmSerial.ImportTx
    expect(evmSerial.isImportTx(importTx)).toBe(true)
    expect(importTx.sourceChain.toString()).toBe(LOCAL_X)
    const credit = importTx.Outs[0]!.amount.value()
    expect(credit).toBeLessThan(1_000_000_000n)
    expect(credit).toBeGreaterThan(900_000_000n)
    expect(await balance()).toBe(balBefore + credit * NANO)
    expect(await nonce()).toBe(nonceBefore)

    // Consumed: no longer listed.
    const after = await api.getUTXOs({ addresses: [EWOQ_C], sourceChain: 'X' })
    for (const u of utxos) expect(after.utxos.map((x) => x.ID())).not.toContain(u.ID())

    // A second tx spending the same UTXOs (another fee, so another txID) is refused with coreth's text.
    const again = evm.newImportTxFromBaseFee(context, ewoqEth, [ewoqShort], mine, LOCAL_X, fee + 1n)
    await addTxSignatures({ unsignedTx: again, privateKeys: [privateKey] })
    await expect(api.issueSignedTx(again.getSignedTx())).rejects.toThrow(`failed to fetch import UTXOs from ${LOCAL_X} due to: not found`)
  })

  it('an export reusing a spent nonce is refused; an unknown tx stays Unknown', async () => {
    const n = await nonce()
    expect(n).toBeGreaterThan(0n)
    const fee = await baseFeeNAVAX(api)
    const unsignedTx = evm.newExportTxFromBaseFee(context, fee, 1_000_000n, LOCAL_X, ewoqEth, [ewoqShort], n - 1n)
    await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
    await expect(api.issueSignedTx(unsignedTx.getSignedTx())).rejects.toThrow(/^invalid nonce$/)
    const txID = cb58(sha256(unsignedTx.getSignedTx().toBytes()))
    expect(await api.getAtomicTxStatus(txID)).toEqual({ status: 'Unknown' })
    await expect(api.getAtomicTx({ txID })).rejects.toThrow('fetching tx: not found')
  })

  it('a double spend of one UTXO by two txs in the same mempool: the second is refused', async () => {
    const u = fakeUTXO(500_000_000n)
    await atomic.putInbound(Id.fromString(LOCAL_X).toBytes(), utxoBytes(u))
    const fee = await baseFeeNAVAX(api)
    const first = evm.newImportTxFromBaseFee(context, ewoqEth, [ewoqShort], [u], LOCAL_X, fee + 10n)
    const second = evm.newImportTxFromBaseFee(context, ewoqEth, [ewoqShort], [u], LOCAL_X, fee + 5n)
    await addTxSignatures({ unsignedTx: first, privateKeys: [privateKey] })
    await addTxSignatures({ unsignedTx: second, privateKeys: [privateKey] })
    const results = await Promise.allSettled([api.issueSignedTx(first.getSignedTx()), api.issueSignedTx(second.getSignedTx())])
    expect(results[0]!.status).toBe('fulfilled')
    const { txID } = (results[0] as PromiseFulfilledResult<{ txID: string }>).value
    await waitAccepted(api, txID)
    const secondID = cb58(sha256(second.getSignedTx().toBytes()))
    if (results[1]!.status === 'rejected') {
      // Either still in the mempool beside the first (conflict) or after the first's block (UTXO gone).
      expect(String((results[1] as PromiseRejectedResult).reason.message)).toMatch(
        /^(conflict present: issued tx \(\w+\) gas price \d+ <= conflict tx \(\w+\) gas price \d+ \(1 total conflicts in mempool\)|failed to fetch import UTXOs from .* due to: not found)$/,
      )
    } else {
      // Admitted before the first was built: it can never be accepted.
      expect(['Dropped', 'Unknown', 'Processing']).toContain((await api.getAtomicTxStatus(secondID)).status)
    }
    expect((await api.getAtomicTxStatus(secondID)).status).not.toBe('Accepted')
    await expect(api.issueSignedTx(second.getSignedTx())).rejects.toThrow(`failed to fetch import UTXOs from ${LOCAL_X} due to: not found`)
  })
})

describe('getUTXOs paging over 3,000 UTXOs', () => {
  const alice = new Uint8Array(20).fill(0x11)
  const bob = new Uint8Array(20).fill(0x22)
  const aliceC = utils.format('C', 'local', alice)
  const bobC = utils.format('C', 'local', bob)
  const seeded = new Set<string>()

  beforeAll(async () => {
    const xID = Id.fromString(LOCAL_X).toBytes()
    const all = [...Array.from({ length: 1800 }, () => fakeUTXO(1_000n, alice)), ...Array.from({ length: 1200 }, () => fakeUTXO(1_000n, bob))]
    for (let i = 0; i < all.length; i += 200) {
      await Promise.all(all.slice(i, i + 200).map((u) => atomic.putInbound(xID, utxoBytes(u))))
    }
    for (const u of all) seeded.add(u.ID())
  }, 120_000)

  it.each(CLIENTS)('returns each UTXO at least once in pages of at most 1,024 with a cursor that continues ($name)', async ({ make }) => {
    const api = make(baseURL)
    for (const limit of [undefined, 5000, 700]) {
      const seen = new Set<string>()
      let startIndex: { address: string; utxo: string } | undefined
      let pages = 0
      for (;;) {
        const page = await api.getUTXOs({ addresses: [bobC, aliceC], sourceChain: 'X', ...(limit !== undefined && { limit }), ...(startIndex && { startIndex }) })
        pages++
        const max = limit === 700 ? 700 : 1024
        expect(page.utxos.length).toBeLessThanOrEqual(max)
        expect(page.numFetched).toBe(String(page.utxos.length))
        expect(typeof page.numFetched).toBe('string')
        expect([aliceC, bobC]).toContain(page.endIndex.address)
        const before = seen.size
        for (const u of page.utxos) seen.add(u.ID())
        if (page.utxos.length < max) break
        expect(seen.size, 'each full page brings new UTXOs').toBeGreaterThan(before)
        // The cursor continues: resuming at endIndex returns endIndex's UTXO again first (inclusive).
        startIndex = page.endIndex
        expect(pages).toBeLessThan(20)
      }
      expect(seen.size).toBe(seeded.size)
      for (const id of seeded) expect(seen.has(id)).toBe(true)
      expect(pages).toBeGreaterThanOrEqual(limit === 700 ? 5 : 3)
    }
  })

  it('the same pages over plain JSON: quoted numFetched, hex UTXOs with checksum, the raw cursor', async () => {
    const post = async (path: string, method: string, params: unknown) => {
      const res = await fetch(baseURL + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await res.json()) as { result: { numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string }; encoding: string } }
    }
    const a = await post('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [aliceC], sourceChain: 'X', limit: 10 })
    const n = await post('/ext/bc/C/native', 'native.getUTXOs', { addresses: [aliceC], sourceChain: 'X', limit: 10 })
    expect(n.result).toEqual(a.result)
    expect(a.result.numFetched).toBe('10')
    expect(a.result.endIndex.address).toBe(aliceC)
    for (const hex of a.result.utxos) {
      const bytes = utils.hexToBuffer(hex)
      const body = bytes.slice(0, -4)
      expect(utils.bufferToHex(bytes.slice(-4))).toBe(utils.bufferToHex(sha256(body).slice(-4)))
      const u = manager.unpack(body, Utxo)
      expect(seeded.has(u.ID())).toBe(true)
    }
    // The next page starts with the last UTXO of this one.
    const next = await post('/ext/bc/C/native', 'native.getUTXOs', { addresses: [aliceC], sourceChain: 'X', limit: 10, startIndex: a.result.endIndex })
    expect(next.result.utxos[0]).toBe(a.result.utxos[9])
  })
})

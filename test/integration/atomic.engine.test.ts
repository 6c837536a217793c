import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { encodeUTXO, utxoInputID } from '../../src/avalanche/avax.js'
import { cb58Encode } from '../../src/avalanche/cb58.js'
import { TYPE_ID } from '../../src/avalanche/codec.js'
import { X2C_RATE, calculateDynamicFee, gasUsed } from '../../src/atomic/fees.js'
import { NETWORKS } from '../../src/avalanche/networks.js'
import { credential } from '../../src/avalanche/secp256k1fx.js'
import { ethAddress, publicKeyOf, shortAddress, signHash } from '../../src/avalanche/signature.js'
import { blockAtomicTxs } from '../../src/atomic/blockAtomicTxs.js'
import { type AtomicTx, encodeAtomicTxBatch, encodeUnsignedTx, signingHash, toAtomicTx } from '../../src/atomic/tx.js'
import type { UnsignedAtomicTx, UnsignedExportTx, UnsignedImportTx } from '../../src/atomic/types.js'
import type { UTXO } from '../../src/avalanche/types.js'
import { keccak256 } from '../../src/util/crypto.js'
import { EWOQ_KEY, startTestNode, type TestNode } from '../helpers/testNode.js'

const local = NETWORKS.local
const AVAX = local.avaxAssetID
const KEY = new Uint8Array(Buffer.from(EWOQ_KEY.slice(2), 'hex'))
const PUB = publicKeyOf(KEY)
const SHORT = shortAddress(PUB)
const ETH = ethAddress(PUB)
const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex')

function sign(utx: UnsignedAtomicTx, signers: Uint8Array[][]): AtomicTx {
  const hash = signingHash(encodeUnsignedTx(utx))
  return toAtomicTx({ unsignedTx: utx, creds: signers.map((keys) => credential(keys.map((k) => signHash(k, hash)))) })
}

function gasOf(utx: UnsignedAtomicTx): bigint {
  return gasUsed(utx, encodeUnsignedTx(utx).length)
}

/** ewoq exports `amount` nAVAX to its own X (or P) address, burning `fee` nAVAX more. */
function exportTx(o: { amount: bigint; fee: bigint; nonce: bigint; dest?: Uint8Array }): AtomicTx {
  const utx: UnsignedExportTx = {
    typeID: TYPE_ID.ExportTx,
    networkID: local.networkID,
    blockchainID: local.cChainID,
    destinationChain: o.dest ?? local.xChainID,
    ins: [{ address: ETH, amount: o.amount + o.fee, assetID: AVAX, nonce: o.nonce }],
    exportedOutputs: [{ assetID: AVAX, out: { amount: o.amount, locktime: 0n, threshold: 1, addrs: [SHORT] } }],
  }
  return sign(utx, [[KEY]])
}

function newUTXO(amount: bigint): UTXO {
  return { utxoID: { txID: new Uint8Array(randomBytes(32)), outputIndex: 0 }, assetID: AVAX, out: { amount, locktime: 0n, threshold: 1, addrs: [SHORT] } }
}

/** Imports `utxos` (owned by ewoq's short address) to `to`, minus `fee`. */
function importTx(utxos: UTXO[], to: Uint8Array, fee: bigint): AtomicTx {
  const sorted = [...utxos].sort((a, b) => Buffer.compare(a.utxoID.txID, b.utxoID.txID))
  const total = sorted.reduce((n, u) => n + u.out.amount, 0n)
  const utx: UnsignedImportTx = {
    typeID: TYPE_ID.ImportTx,
    networkID: local.networkID,
    blockchainID: local.cChainID,
    sourceChain: local.xChainID,
    importedInputs: sorted.map((u) => ({ utxoID: u.utxoID, assetID: AVAX, in: { amount: u.out.amount, sigIndices: [0] } })),
    outs: [{ address: to, amount: total - fee, assetID: AVAX }],
  }
  return sign(
    utx,
    sorted.map(() => [KEY]),
  )
}

async function until<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (ok(v) || Date.now() > end) return v
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function issueError(node: TestNode, tx: AtomicTx): Promise<string> {
  try {
    await node.node.atomic.issueTx(tx.signedBytes)
  } catch (err) {
    return (err as Error).message
  }
  return 'ok'
}

/** A fee comfortably above the next base fee's requirement. */
function feeFor(node: TestNode, draft: AtomicTx): bigint {
  return calculateDynamicFee(gasOf(draft.tx.unsignedTx), node.node.engine.fees.nextBaseFee() * 2n) + 1n
}

describe('atomic txs through the engine (blocks built at once)', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('accepts an export: balance falls by amount + fee, nonce + 1, the outbound UTXO exists, block JSON carries it', async () => {
    const engine = node.node.engine
    const balance0 = await engine.balance(ETH, 'latest')
    const nonce0 = await engine.nonce(ETH, 'latest')
    const amount = 1_000_000_000n
    const fee = feeFor(node, exportTx({ amount, fee: 0n, nonce: nonce0 }))
    const tx = exportTx({ amount, fee, nonce: nonce0 })
    const id = await node.node.atomic.issueTx(tx.signedBytes)
    expect(cb58Encode(id)).toBe(cb58Encode(tx.id))
    const st = await until(
      () => node.node.atomic.status(id),
      (s) => s.status === 'Accepted',
    )
    expect(st.status).toBe('Accepted')
    const height = st.blockHeight!
    expect(await engine.balance(ETH, 'latest')).toBe(balance0 - (amount + fee) * X2C_RATE)
    expect(await engine.nonce(ETH, 'latest')).toBe(nonce0 + 1n)
    expect(node.node.atomic.getTx(id)).toEqual({ tx: tx.signedBytes, status: 'Accepted', blockHeight: height })

    const exported = node.node.atomic.getExportedUTXOs({ addresses: [SHORT], destinationChain: local.xChainID, limit: 1024 })
    const expectedUTXO = encodeUTXO({ utxoID: { txID: tx.id, outputIndex: 0 }, assetID: AVAX, out: { amount, locktime: 0n, threshold: 1, addrs: [SHORT] } })
    expect(exported.utxos.map(hex)).toContain(hex(expectedUTXO))
    // Nothing for P, and nothing inbound.
    expect(node.node.atomic.getExportedUTXOs({ addresses: [SHORT], destinationChain: local.pChainID, limit: 10 }).utxos).toEqual([])

    const block = await node.call('eth_getBlockByNumber', ['0x' + height.toString(16), false])
    const extData = encodeAtomicTxBatch([tx.tx])
    expect(block.blockExtraData).toBe(hex(extData))
    expect(block.extDataHash).toBe(hex(keccak256(RLP.encode(extData))))
    // Helicon: the atomic txs' gas is in the header's gasUsed, extDataGasUsed 0 (saevm cchain/hooks.go).
    expect([BigInt(block.extDataGasUsed), BigInt(block.gasUsed)]).toEqual([0n, gasOf(tx.tx.unsignedTx)])
    expect(block.transactions).toEqual([])
    const full = await node.call('eth_getBlockByHash', [block.hash, true])
    expect(full.transactions).toEqual([])
    expect(full.blockExtraData).toBe(hex(extData))
    // The block as read back from the store decodes its atomic txs.
    const stored = engine.findBlock(height)!
    expect(blockAtomicTxs(stored).map((t) => cb58Encode(t.id))).toEqual([cb58Encode(tx.id)])
  })

  it('refuses a stale nonce and an over-spend with coreth texts; such a tx stays Unknown', async () => {
    const nonce = await node.node.engine.nonce(ETH, 'latest')
    const stale = exportTx({ amount: 1n, fee: 10_000_000n, nonce: nonce - 1n })
    expect(await issueError(node, stale)).toBe('invalid nonce')
    expect(node.node.atomic.status(stale.id)).toEqual({ status: 'Unknown' })
    const huge = exportTx({ amount: 10n ** 18n, fee: 10_000_000n, nonce })
    expect(await issueError(node, huge)).toBe('insufficient funds')
    const cheap = exportTx({ amount: 1n, fee: 0n, nonce })
    expect(await issueError(node, cheap)).toBe('export tx flow check failed due to: insufficient funds')
    expect(await issueError(node, { ...cheap, signedBytes: Uint8Array.of(0, 0, 0, 0, 0, 3) })).toBe("problem parsing transaction: couldn't unmarshal interface: unknown type ID 3")
  })

  it('imports UTXOs put in shared memory, credits the balance, and refuses a double spend', async () => {
    const engine = node.node.engine
    const to = new Uint8Array(randomBytes(20))
    const u1 = newUTXO(3_000_000_000n)
    const u2 = newUTXO(2_000_000_000n)
    await node.node.atomic.putInbound(local.xChainID, encodeUTXO(u1))
    await node.node.atomic.putInbound(local.xChainID, encodeUTXO(u2))
    const listed = await node.node.atomic.getUTXOs({ addresses: [SHORT], sourceChain: local.xChainID, limit: 1024 })
    // Newest first.
    expect(listed.utxos.map(hex).slice(0, 2)).toEqual([hex(encodeUTXO(u2)), hex(encodeUTXO(u1))])
    const fee = feeFor(node, importTx([u1, u2], to, 0n))
    const tx = importTx([u1, u2], to, fee)
    await node.node.atomic.issueTx(tx.signedBytes)
    const st = await until(
      () => node.node.atomic.status(tx.id),
      (s) => s.status === 'Accepted',
    )
    expect(st.status).toBe('Accepted')
    expect(await engine.balance(to, 'latest')).toBe((5_000_000_000n - fee) * X2C_RATE)
    expect(await engine.nonce(to, 'latest')).toBe(0n)
    // Consumed exactly once.
    const after = await node.node.atomic.getUTXOs({ addresses: [SHORT], sourceChain: local.xChainID, limit: 1024 })
    expect(after.utxos.map(hex)).not.toContain(hex(encodeUTXO(u1)))
    const again = importTx([u1], to, fee)
    expect(await issueError(node, again)).toBe(`failed to fetch import UTXOs from ${cb58Encode(local.xChainID)} due to: not found`)
    await expect(node.node.atomic.putInbound(local.xChainID, encodeUTXO(u1))).rejects.toThrow(/duplicated operation/)
  })

  it("keeps a block with EVM txs and atomic txs consistent (the header's gasUsed counts the atomic gas)", async () => {
    const nonce = await node.node.engine.nonce(ETH, 'latest')
    const tx = exportTx({ amount: 5n, fee: feeFor(node, exportTx({ amount: 5n, fee: 0n, nonce })), nonce })
    await node.node.atomic.issueTx(tx.signedBytes)
    const st = await until(
      () => node.node.atomic.status(tx.id),
      (s) => s.status === 'Accepted',
    )
    const block = node.node.engine.findBlock(st.blockHeight!)!
    const limits = block.txs.reduce((n, t) => n + t.gasLimit, 0n)
    expect([block.header.extDataGasUsed, block.header.gasUsed]).toEqual([0n, limits + gasOf(tx.tx.unsignedTx)])
  })
})

describe('the atomic mempool between blocks (fixed block interval)', () => {
  let node: TestNode
  beforeEach(async () => {
    node = await startTestNode({ config: { blockInterval: 3_600_000 } })
  })
  afterEach(() => node.close())

  it('replaces a conflict only for a higher gas price, drops the loser, treats a re-issue as success', async () => {
    const atomic = node.node.atomic
    const nonce = await node.node.engine.nonce(ETH, 'latest')
    const base = feeFor(node, exportTx({ amount: 1n, fee: 0n, nonce }))
    const a = exportTx({ amount: 1_000n, fee: base, nonce })
    const b = exportTx({ amount: 1_000n, fee: base * 2n, nonce })
    const c = exportTx({ amount: 2_000n, fee: base, nonce })
    await atomic.issueTx(a.signedBytes)
    expect(atomic.status(a.id)).toEqual({ status: 'Processing' })
    expect(cb58Encode(await atomic.issueTx(a.signedBytes))).toBe(cb58Encode(a.id))
    await atomic.issueTx(b.signedBytes)
    expect(atomic.status(a.id)).toEqual({ status: 'Dropped' })
    expect(atomic.getTx(a.id)).toEqual({ tx: a.signedBytes, status: 'Dropped' })
    expect(atomic.status(b.id)).toEqual({ status: 'Processing' })
    const msg = await issueError(node, c)
    expect(msg).toMatch(new RegExp(`^conflict present: issued tx \\(${cb58Encode(c.id)}\\) gas price \\d+ <= conflict tx \\(${cb58Encode(b.id)}\\) gas price \\d+ \\(1 total conflicts in mempool\\)$`))
    expect(atomic.status(c.id)).toEqual({ status: 'Unknown' })
    const block = await node.node.engine.buildBlock()
    expect(blockAtomicTxs(block!).map((t) => cb58Encode(t.id))).toEqual([cb58Encode(b.id)])
    expect(atomic.status(b.id)).toEqual({ status: 'Accepted', blockHeight: block!.header.number })
    expect(atomic.status(a.id)).toEqual({ status: 'Dropped' })
  })

  it('lets one of two imports of the same UTXO in: the second conflicts, the block holds one', async () => {
    const atomic = node.node.atomic
    const u = newUTXO(1_000_000_000n)
    await atomic.putInbound(local.pChainID, encodeUTXO(u))
    const make = (fee: bigint, to: Uint8Array) => {
      const tx = importTx([u], to, fee)
      const utx = tx.tx.unsignedTx as UnsignedImportTx
      utx.sourceChain = local.pChainID
      return sign(utx, [[KEY]])
    }
    const fee = feeFor(node, make(0n, ETH))
    const first = make(fee, ETH)
    const second = make(fee, new Uint8Array(20).fill(1))
    await atomic.issueTx(first.signedBytes)
    expect(await issueError(node, second)).toMatch(/^conflict present/)
    const block = await node.node.engine.buildBlock()
    expect(blockAtomicTxs(block!)).toHaveLength(1)
    expect(block!.txs).toHaveLength(0)
    expect((await atomic.getUTXOs({ addresses: [SHORT], sourceChain: local.pChainID, limit: 10 })).utxos).toEqual([])
    expect(await issueError(node, second)).toBe(`failed to fetch import UTXOs from ${cb58Encode(local.pChainID)} due to: not found`)
  })

  it('fills a block up to 40 KiB of signed atomic txs, best price first, and leaves the rest Pending', async () => {
    const atomic = node.node.atomic
    const txs: AtomicTx[] = []
    for (let i = 0; i < 150; i++) {
      const u = newUTXO(1_000_000_000n)
      await atomic.putInbound(local.xChainID, encodeUTXO(u))
      const to = new Uint8Array(20).fill(i + 1)
      const tx = importTx([u], to, feeFor(node, importTx([u], to, 0n)) + BigInt(i))
      await atomic.issueTx(tx.signedBytes)
      txs.push(tx)
    }
    const first = await node.node.engine.buildBlock()
    const size = blockAtomicTxs(first!).reduce((n, t) => n + t.signedBytes.length, 0)
    expect(size).toBeLessThanOrEqual(40 * 1024)
    expect(size + txs[0]!.signedBytes.length).toBeGreaterThan(40 * 1024)
    // The highest fees (the last issued) went first.
    expect(cb58Encode(blockAtomicTxs(first!)[0]!.id)).toBe(cb58Encode(txs[149]!.id))
    expect(first!.header.gasUsed).toBe(blockAtomicTxs(first!).reduce((n, t) => n + gasOf(t.tx.unsignedTx), 0n))
    const left = txs.filter((t) => atomic.status(t.id).status === 'Processing')
    expect(left.length).toBe(150 - blockAtomicTxs(first!).length)
    const second = await node.node.engine.buildBlock()
    expect(blockAtomicTxs(second!).length).toBe(left.length)
    expect(txs.every((t) => atomic.status(t.id).status === 'Accepted')).toBe(true)
  })

  it('keeps statuses, accepted txs and UTXOs across a restart', async () => {
    const atomic = node.node.atomic
    const nonce = await node.node.engine.nonce(ETH, 'latest')
    const exp = exportTx({ amount: 7_000n, fee: feeFor(node, exportTx({ amount: 1n, fee: 0n, nonce })), nonce, dest: local.pChainID })
    const kept = newUTXO(4_000n)
    const spent = newUTXO(9_000_000_000n)
    await atomic.putInbound(local.xChainID, encodeUTXO(kept))
    await atomic.putInbound(local.xChainID, encodeUTXO(spent))
    const imp = importTx([spent], ETH, feeFor(node, importTx([spent], ETH, 0n)))
    await atomic.issueTx(exp.signedBytes)
    await atomic.issueTx(imp.signedBytes)
    const block = await node.node.engine.buildBlock()
    expect(blockAtomicTxs(block!)).toHaveLength(2)
    const height = block!.header.number
    const dataDir = node.dataDir
    await node.stop()
    node = await startTestNode({ dataDir, config: { blockInterval: 3_600_000 } })
    const again = node.node.atomic
    expect(again.status(exp.id)).toEqual({ status: 'Accepted', blockHeight: height })
    expect(again.status(imp.id)).toEqual({ status: 'Accepted', blockHeight: height })
    const inbound = await again.getUTXOs({ addresses: [SHORT], sourceChain: local.xChainID, limit: 10 })
    expect(inbound.utxos.map(hex)).toEqual([hex(encodeUTXO(kept))])
    expect(inbound.endIndex.utxoID).toEqual(utxoInputID(kept.utxoID))
    const outbound = again.getExportedUTXOs({ addresses: [SHORT], destinationChain: local.pChainID, limit: 10 })
    expect(outbound.utxos).toHaveLength(1)
    expect(again.getTx(imp.id)!.tx).toEqual(imp.signedBytes)
    expect(await issueError(node, imp)).toBe(`failed to fetch import UTXOs from ${cb58Encode(local.xChainID)} due to: not found`)
    await node.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })
})

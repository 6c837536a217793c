import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { Wallet, decodeRlp, encodeRlp, keccak256, toBeHex } from 'ethers'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Header, encodeBlock, hashHeader, headerFields, headerFromFields, makeBlock } from '../../../../src/engine/chain/block.js'
import { Chain } from '../../../../src/engine/chain/chain.js'
import { loadGenesis } from '../../../../src/engine/rules/genesis.js'
import { encodeReceipts } from '../../../../src/engine/chain/receipt.js'
import { packSenders, txSender } from '../../../../src/engine/chain/txMemo.js'
import { openDatabase, type Database } from '../../../../src/store/db.js'

/*
 * The C-Chain header: coreth's 24-field RLP (docs/notes-fees-header.md (a)), hashed as
 * keccak256(rlp(header)). Expected encodings are computed here with ethers' RLP and keccak,
 * independently of the node's @ethereumjs/rlp and native keccak.
 */

const b = (hex: string) => hexToBytes(hex as `0x${string}`)
const fill = (n: number, byte: number) => new Uint8Array(n).fill(byte)

/** A Granite header with a distinct value in every field. */
const header: Header = {
  parentHash: fill(32, 0x01),
  uncleHash: fill(32, 0x02),
  coinbase: fill(20, 0x03),
  stateRoot: fill(32, 0x04),
  txRoot: fill(32, 0x05),
  receiptRoot: fill(32, 0x06),
  bloom: fill(256, 0x07),
  difficulty: 1n,
  number: 0x1234n,
  gasLimit: 200_000_000n,
  gasUsed: 21_000n,
  timestamp: 1_700_000_123n,
  extraData: fill(30, 0x08),
  mixHash: fill(32, 0x09),
  nonce: fill(8, 0x0a),
  extDataHash: fill(32, 0x0b),
  baseFee: 25_000_000_000n,
  extDataGasUsed: 7n,
  blockGasCost: 11n,
  blobGasUsed: 13n,
  excessBlobGas: 17n,
  parentBeaconRoot: fill(32, 0x0c),
  timeMilliseconds: 1_700_000_123_456n,
  minDelayExcess: 7_970_124n,
}

/** RLP integer as ethers expects it: minimal big-endian bytes, empty for 0. */
const q = (n: bigint) => (n === 0n ? '0x' : toBeHex(n))
const h = bytesToHex
/** A header with byte fields as hex (LevelDB hands back Buffers, which toEqual tells from Uint8Arrays). */
const norm = (x: Header) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v instanceof Uint8Array ? bytesToHex(v) : v]))

/** coreth's HeaderSerializable order, written out by hand from docs/notes-fees-header.md (a). */
function expectedFields(x: Header): string[] {
  return [
    h(x.parentHash),
    h(x.uncleHash),
    h(x.coinbase),
    h(x.stateRoot),
    h(x.txRoot),
    h(x.receiptRoot),
    h(x.bloom), // 0-6
    q(x.difficulty),
    q(x.number), // 7-8
    q(x.gasLimit),
    q(x.gasUsed),
    q(x.timestamp), // 9-11
    h(x.extraData),
    h(x.mixHash),
    h(x.nonce), // 12-14
    h(x.extDataHash), // 15
    q(x.baseFee),
    q(x.extDataGasUsed),
    q(x.blockGasCost), // 16-18
    q(x.blobGasUsed),
    q(x.excessBlobGas),
    h(x.parentBeaconRoot), // 19-21
    q(x.timeMilliseconds),
    q(x.minDelayExcess), // 22-23
  ]
}

describe('header RLP', () => {
  it("has 24 fields in coreth's order", () => {
    const fields = headerFields(header)
    expect(fields).toHaveLength(24)
    expect(fields.map((f) => bytesToHex(f))).toEqual(expectedFields(header))
  })

  it('writes integer zeros as empty strings (0x80), not as 0x00', () => {
    const zeros: Header = { ...header, difficulty: 0n, number: 0n, gasUsed: 0n, extDataGasUsed: 0n, blockGasCost: 0n, blobGasUsed: 0n, excessBlobGas: 0n, minDelayExcess: 0n }
    const decoded = decodeRlp(encodeRlp(expectedFields(zeros))) as string[]
    const fields = headerFields(zeros)
    for (const i of [7, 8, 10, 17, 18, 19, 20, 23]) {
      expect(bytesToHex(fields[i]!), `field ${i}`).toBe('0x')
      expect(decoded[i]).toBe('0x')
    }
  })

  it('hash = keccak256(rlp(header)), computed independently with ethers', () => {
    const expected = keccak256(encodeRlp(expectedFields(header)))
    expect(bytesToHex(hashHeader(header))).toBe(expected)
    expect(bytesToHex(makeBlock(header, [], new Uint8Array()).hash)).toBe(expected)
  })

  it('every field takes part in the hash', () => {
    const base = bytesToHex(hashHeader(header))
    const fields = headerFields(header)
    for (let i = 0; i < fields.length; i++) {
      const changed = fields.map((f) => f.slice())
      changed[i] = changed[i]!.length === 0 ? Uint8Array.of(1) : changed[i]!.map((x, j) => (j === 0 ? x ^ 0xff : x))
      expect(bytesToHex(hashHeader(headerFromFields(changed))), `field ${i}`).not.toBe(base)
    }
  })

  it("under Helicon: 30 fields, the six new ones last in coreth's order (header_ext.go), and back", () => {
    const helicon = { targetExponent: 1n, minPriceExponent: 2n, settledHeight: 3n, settledGasUnix: 4n, settledGasNumerator: 5n, settledExcess: 6n }
    const fields = headerFields({ ...header, helicon })
    expect(fields).toHaveLength(30)
    expect(fields.slice(24).map((f) => bytesToHex(f))).toEqual(['0x01', '0x02', '0x03', '0x04', '0x05', '0x06'])
    expect(headerFromFields(fields)).toEqual({ ...header, helicon })
  })

  it('headerFromFields(headerFields(h)) is h', () => {
    expect(headerFromFields(headerFields(header))).toEqual(header)
    // ...also after a trip through RLP bytes, decoded by ethers.
    const decoded = (decodeRlp(encodeRlp(expectedFields(header))) as string[]).map(b)
    expect(headerFromFields(decoded)).toEqual(header)
  })
})

describe("block RLP through the chain's decode path", () => {
  let dir: string
  let db: Database
  let chain: Chain
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cchain-block-'))
    db = await openDatabase(dir)
    chain = await Chain.open(db, { genesis: loadGenesis(), log: pino({ level: 'silent' }), stateHistory: undefined, gasTarget: undefined, minDelayTarget: 0, helicon: false })
  })
  afterAll(async () => {
    await db?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('encodeBlock lays out [header, txs, uncles, version, extData] as coreth does', async () => {
    const wallet = new Wallet('0x' + '42'.repeat(32))
    const to = '0x' + '99'.repeat(20)
    const base = { chainId: 43112n, to, gasLimit: 21_000n, value: 5n }
    const raws = [
      await wallet.signTransaction({ ...base, nonce: 0, type: 0, gasPrice: 30n * 10n ** 9n }),
      await wallet.signTransaction({ ...base, nonce: 1, type: 1, gasPrice: 30n * 10n ** 9n, accessList: [{ address: to, storageKeys: ['0x' + '00'.repeat(31) + '01'] }] }),
      await wallet.signTransaction({ ...base, nonce: 2, type: 2, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }),
    ]
    const txs = raws.map((r) => createTxFromRLP(b(r), { common: chain.txCommon }))
    const extData = Uint8Array.of(0xde, 0xad)
    const encoded = encodeBlock(header, txs, extData)
    const [hdr, body, uncles, version, ext] = decodeRlp(encoded) as [string[], (string | string[])[], unknown[], string, string]
    expect(hdr).toEqual(expectedFields(header))
    // Legacy transactions are nested lists, typed ones are their EIP-2718 bytes (as in a block body).
    expect(body[0]).toEqual(decodeRlp(raws[0]!))
    expect(body[1]).toBe(raws[1])
    expect(body[2]).toBe(raws[2])
    expect(uncles).toEqual([])
    expect(version).toBe('0x')
    expect(ext).toBe('0xdead')
    expect(makeBlock(header, txs, extData).size).toBe(encoded.length)

    // Stored and read back by the chain: same header, hash, transactions and extData.
    const block = makeBlock(header, txs, extData)
    await chain.store.writeBlock({
      hash: block.hash,
      number: header.number,
      encodedBlock: encoded,
      encodedReceipts: encodeReceipts([]),
      bloom: header.bloom,
      txHashes: txs.map((t) => t.hash()),
      stateOps: [],
    } as Parameters<typeof chain.store.writeBlock>[0])
    const back = chain.blockByHash(block.hash)!
    expect(back).toBeDefined()
    expect(norm(back.header)).toEqual(norm(header))
    expect(bytesToHex(back.hash)).toBe(keccak256(encodeRlp(expectedFields(header))))
    expect(back.txs.map((t) => bytesToHex(t.hash()))).toEqual(raws.map((r) => keccak256(r)))
    expect(back.txs.map((t) => t.type)).toEqual([0, 1, 2])
    expect(bytesToHex(back.extData)).toBe('0xdead')
    expect(back.size).toBe(encoded.length)
  })

  it('a block read back takes its senders from the stored record, recovering no signature', async () => {
    const wallet = new Wallet('0x' + '43'.repeat(32))
    const raw = await wallet.signTransaction({
      chainId: 43112n,
      to: '0x' + '99'.repeat(20),
      gasLimit: 21_000n,
      value: 5n,
      nonce: 0,
      type: 2,
      maxFeePerGas: 30n * 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 9n,
    })
    const txs = [createTxFromRLP(b(raw), { common: chain.txCommon })]
    const written = async (number: bigint, senders: Uint8Array | undefined) => {
      const block = makeBlock({ ...header, number }, txs, new Uint8Array())
      await chain.store.writeBlock({
        hash: block.hash,
        number,
        encodedBlock: encodeBlock(block.header, txs, new Uint8Array()),
        encodedReceipts: encodeReceipts([]),
        bloom: header.bloom,
        txHashes: [],
        senders,
        stateOps: [],
      })
      return chain.blockByHash(block.hash)!.txs[0]!
    }
    expect((await written(7001n, packSenders(txs))).getSenderAddress().toString()).toBe(wallet.address.toLowerCase())
    // The record is what answers: a different address stored is the one read back.
    const stored = fill(20, 0xab)
    const back = await written(7002n, stored)
    expect(bytesToHex(back.getSenderAddress().bytes)).toBe(bytesToHex(stored))
    expect(bytesToHex(txSender(back).bytes)).toBe(bytesToHex(stored))
    expect(Object.isFrozen(back)).toBe(true)
    expect(bytesToHex(back.hash())).toBe(keccak256(raw))
    // Without the record (a block written before it existed) the signature is recovered.
    expect((await written(7003n, undefined)).getSenderAddress().toString()).toBe(wallet.address.toLowerCase())
  })

  it('the stored genesis decodes to a 24-field header whose hash is recomputed independently', () => {
    const g = chain.genesisBlock
    const encoded = chain.store.readBlock(g.hash)!
    const [hdr, txs, , , ext] = decodeRlp(encoded) as [string[], unknown[], unknown, string, string]
    expect(hdr).toHaveLength(24)
    expect(txs).toEqual([])
    expect(ext).toBe('0x')
    expect(keccak256(encodeRlp(hdr))).toBe(bytesToHex(g.hash))
    expect(hdr).toEqual(expectedFields(g.header))
  })
})

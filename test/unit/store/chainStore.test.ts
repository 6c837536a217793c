import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChainStore, type BlockWrite } from '../../../src/store/chainStore.js'
import { DataDirLockedError, openDatabase, type Database } from '../../../src/store/db.js'
import { PREFIX, prefixed } from '../../../src/store/keys.js'
import { TrieDB } from '../../../src/store/trieDb.js'

/*
 * ChainStore on a real ClassicLevel in a temporary directory: what one block write puts on disk,
 * what a reopened database reads back, and the one-process-per-directory lock.
 */

let dataDir: string
let db: Database
let store: ChainStore

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cchain-store-'))
  db = await openDatabase(dataDir)
  store = new ChainStore(db)
})
afterEach(async () => {
  if (db.status === 'open') await db.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : bytesToHex(b))
const hash32 = (seed: number) => new Uint8Array(32).fill(seed)

function blockWrite(number: bigint, over: Partial<BlockWrite> = {}): BlockWrite {
  return {
    hash: hash32(0x10 + Number(number)),
    number,
    encodedBlock: utf8ToBytes(`block ${number}`),
    encodedReceipts: utf8ToBytes(`receipts ${number}`),
    bloom: new Uint8Array(256),
    txHashes: [],
    stateOps: [],
    ...over,
  } as BlockWrite
}

async function reopen(): Promise<void> {
  await db.close()
  db = await openDatabase(dataDir)
  store = new ChainStore(db)
}

describe('ChainStore', () => {
  it('a new database has no head and no genesis', () => {
    expect(store.readHeadHash()).toBeUndefined()
    expect(store.readGenesisHash()).toBeUndefined()
    expect(store.readCanonicalHash(0n)).toBeUndefined()
    expect(store.readBlock(hash32(1))).toBeUndefined()
    expect(store.readTxLocation(hash32(1))).toBeUndefined()
  })

  it('writeBlock stores block, receipts, canonical hash, tx locations, state and the head; reopen reads them all', async () => {
    const trie = new TrieDB(db)
    const root = hash32(0xee)
    await trie.put(bytesToHex(root).slice(2), utf8ToBytes('root node'))
    const genesis = blockWrite(0n, { stateOps: trie.drain() })
    await store.writeBlock(genesis, { genesis: true })
    trie.commitDrained(genesis.stateOps as never)

    const txs = [hash32(0xa1), hash32(0xa2), hash32(0xa3)]
    const one = blockWrite(1n, { txHashes: txs })
    await store.writeBlock(one)
    const two = blockWrite(2n, { txHashes: [hash32(0xb1)] })
    await store.writeBlock(two)

    const check = () => {
      expect(hex(store.readGenesisHash())).toBe(bytesToHex(genesis.hash))
      expect(hex(store.readHeadHash())).toBe(bytesToHex(two.hash))
      for (const w of [genesis, one, two]) {
        expect(hex(store.readCanonicalHash(w.number))).toBe(bytesToHex(w.hash))
        expect(hex(store.readBlock(w.hash))).toBe(bytesToHex(w.encodedBlock))
        expect(hex(store.readReceipts(w.hash))).toBe(bytesToHex(w.encodedReceipts))
      }
      expect(store.readCanonicalHash(3n)).toBeUndefined()
      txs.forEach((t, index) => expect(store.readTxLocation(t)).toEqual({ blockNumber: 1n, index }))
      expect(store.readTxLocation(hash32(0xb1))).toEqual({ blockNumber: 2n, index: 0 })
      expect(store.readTxLocation(hash32(0xc1))).toBeUndefined()
      expect(store.hasStateNode(root)).toBe(true)
      expect(store.hasStateNode(hash32(0xef))).toBe(false)
    }
    check()
    await reopen()
    check()
  })

  it('tx locations hold block numbers above 2^32', async () => {
    const big = 2n ** 40n + 5n
    await store.writeBlock(blockWrite(big, { hash: hash32(0x77), txHashes: [hash32(0x01), hash32(0x02)] }))
    await reopen()
    expect(store.readTxLocation(hash32(0x02))).toEqual({ blockNumber: big, index: 1 })
    expect(hex(store.readCanonicalHash(big))).toBe(bytesToHex(hash32(0x77)))
  })

  it('only the genesis write sets the genesis pointer', async () => {
    await store.writeBlock(blockWrite(0n), { genesis: true })
    await store.writeBlock(blockWrite(1n))
    expect(hex(store.readGenesisHash())).toBe(bytesToHex(blockWrite(0n).hash))
    expect(hex(store.readHeadHash())).toBe(bytesToHex(blockWrite(1n).hash))
  })

  it('writeHead moves the head back durably and leaves the blocks', async () => {
    await store.writeBlock(blockWrite(0n), { genesis: true })
    await store.writeBlock(blockWrite(1n))
    await store.writeHead(blockWrite(0n).hash)
    await reopen()
    expect(hex(store.readHeadHash())).toBe(bytesToHex(blockWrite(0n).hash))
    expect(hex(store.readBlock(blockWrite(1n).hash))).toBe(bytesToHex(blockWrite(1n).encodedBlock))
  })

  it('a failed batch writes nothing: no block, no state, no head', async () => {
    await store.writeBlock(blockWrite(0n), { genesis: true })
    const bad = blockWrite(1n, {
      stateOps: [{ type: 'put', key: prefixed(PREFIX.state, hash32(0x55)), value: utf8ToBytes('node') }],
      // A value LevelDB refuses makes the whole batch fail.
      encodedReceipts: undefined as never,
    })
    await expect(store.writeBlock(bad)).rejects.toThrow()
    expect(store.readBlock(bad.hash)).toBeUndefined()
    expect(store.hasStateNode(hash32(0x55))).toBe(false)
    expect(hex(store.readHeadHash())).toBe(bytesToHex(blockWrite(0n).hash))
  })
})

describe('openDatabase', () => {
  it('creates <data-dir>/chain', () => {
    expect(existsSync(join(dataDir, 'chain'))).toBe(true)
  })

  it('a second open of the same directory fails with DataDirLockedError naming the directory', async () => {
    const err = await openDatabase(dataDir).then(
      async (second) => {
        await second.close()
        return undefined
      },
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(DataDirLockedError)
    expect((err as Error).message).toBe(`data directory ${dataDir} is in use by another cchain-node process`)
    // The first handle is untouched.
    await store.writeBlock(blockWrite(0n), { genesis: true })
    expect(hex(store.readHeadHash())).toBe(bytesToHex(blockWrite(0n).hash))
  })

  it('the directory opens again once the first handle is closed', async () => {
    await store.writeBlock(blockWrite(0n), { genesis: true })
    await reopen()
    expect(hex(store.readGenesisHash())).toBe(bytesToHex(blockWrite(0n).hash))
  })
})

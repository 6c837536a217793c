import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { bytesToHex, bytesToUnprefixedHex, hexToBytes, utf8ToBytes } from '@ethereumjs/util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChainStore, type BlockWrite } from '../../../src/store/chainStore.js'
import { openDatabase, type BatchOp, type Database } from '../../../src/store/db.js'
import { META_HEAD, PREFIX, metaKey, prefixed } from '../../../src/store/keys.js'
import { TrieDB } from '../../../src/store/trieDb.js'
import { recordBatches } from '../../helpers/batchRecorder.js'

/*
 * TrieDB on a real ClassicLevel in a temporary directory: trie writes stay in memory until the
 * batch that commits their block (docs/SECURITY.md, D-a), then they are on disk with it.
 */

let dataDir: string
let db: Database

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cchain-triedb-'))
  db = await openDatabase(dataDir)
})
afterEach(async () => {
  if (db.status === 'open') await db.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const KEY_A = 'aa'.repeat(32)
const KEY_B = 'bb'.repeat(32)
/** Hex of a value (LevelDB hands back Buffers), undefined when absent. */
const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : bytesToHex(b))
const onDisk = (key: string) => hex(db.getSync(prefixed(PREFIX.state, hexToBytes(`0x${key}`))) ?? undefined)

/** A block write carrying `stateOps`; block and receipts bytes are opaque to the store. */
function blockWrite(number: bigint, stateOps: readonly BatchOp[]): BlockWrite {
  const hash = new Uint8Array(32).fill(Number(number) + 1)
  return { hash, number, encodedBlock: utf8ToBytes(`block ${number}`), encodedReceipts: utf8ToBytes(`receipts ${number}`), bloom: new Uint8Array(256), txHashes: [], stateOps } as BlockWrite
}

async function reopen(): Promise<void> {
  await db.close()
  db = await openDatabase(dataDir)
}

describe('TrieDB pending writes', () => {
  it('are readable before drain, in both key forms the trie uses (hex string and bytes)', async () => {
    const t = new TrieDB(db)
    await t.put(KEY_A, Uint8Array.of(1, 2, 3))
    await t.put(KEY_B, 'c0ffee')
    expect(await t.get(KEY_A)).toEqual(Uint8Array.of(1, 2, 3))
    expect(await t.get(KEY_B)).toEqual(hexToBytes('0xc0ffee'))
    expect(await t.get('cc'.repeat(32))).toBeUndefined()
  })

  it('are not on disk, and survive no reopen, until their block batch is written', async () => {
    const t = new TrieDB(db)
    await t.batch([
      { type: 'put', key: KEY_A, value: Uint8Array.of(1) },
      { type: 'put', key: KEY_B, value: Uint8Array.of(2) },
    ])
    const ops = t.drain()
    expect(ops).toHaveLength(2)
    // drain() hands them out but they are still pending (readable) and still not on disk.
    expect(onDisk(KEY_A)).toBeUndefined()
    expect(hex(await t.get(KEY_A))).toBe('0x01')
    await reopen()
    expect(onDisk(KEY_A)).toBeUndefined()
    expect(await new TrieDB(db).get(KEY_A)).toBeUndefined()
  })

  it('drain + writeBlock puts them on disk in the same atomic write as the block and the head', async () => {
    const t = new TrieDB(db)
    await t.put(KEY_A, Uint8Array.of(1))
    await t.put(KEY_B, Uint8Array.of(2))
    const store = new ChainStore(db)
    const recorder = recordBatches(db)
    const ops = t.drain()
    const w = blockWrite(1n, ops)
    await store.writeBlock(w)
    recorder.stop()
    expect(recorder.batches).toHaveLength(1)
    const keys = recorder.batches[0]!.keys.map((key) => bytesToHex(key))
    for (const op of ops) expect(keys).toContain(bytesToHex(op.key))
    expect(keys).toContain(bytesToHex(prefixed(PREFIX.block, w.hash)))
    expect(keys).toContain(bytesToHex(prefixed(PREFIX.receipts, w.hash)))
    expect(keys).toContain(bytesToHex(metaKey(META_HEAD)))
    t.commitDrained(ops)
    expect(onDisk(KEY_A)).toBe('0x01')
    expect(onDisk(KEY_B)).toBe('0x02')
    // Read back from disk by the same TrieDB (pending is now empty) and after a reopen.
    expect(hex(await t.get(KEY_A))).toBe('0x01')
    await reopen()
    expect(hex(await new TrieDB(db).get(KEY_B))).toBe('0x02')
    expect(hex(new ChainStore(db).readHeadHash())).toBe(bytesToHex(w.hash))
  })

  it('commitDrained forgets only what was drained: later writes stay pending for the next block', async () => {
    const t = new TrieDB(db)
    await t.put(KEY_A, Uint8Array.of(1))
    const ops = t.drain()
    await t.put(KEY_B, Uint8Array.of(2)) // arrives while the block is being written
    await new ChainStore(db).writeBlock(blockWrite(1n, ops))
    t.commitDrained(ops)
    expect(onDisk(KEY_B)).toBeUndefined()
    expect(hex(await t.get(KEY_B))).toBe('0x02')
    const next = t.drain()
    expect(next.map((op) => bytesToHex(op.key))).toEqual([bytesToHex(prefixed(PREFIX.state, hexToBytes(`0x${KEY_B}`)))])
    await new ChainStore(db).writeBlock(blockWrite(2n, next))
    t.commitDrained(next)
    expect(t.drain()).toEqual([])
    expect(onDisk(KEY_B)).toBe('0x02')
  })

  it('a pending delete hides the disk value and is written as a delete', async () => {
    const t = new TrieDB(db)
    await t.put(KEY_A, Uint8Array.of(9))
    let ops = t.drain()
    await new ChainStore(db).writeBlock(blockWrite(1n, ops))
    t.commitDrained(ops)
    await t.del(KEY_A)
    expect(await t.get(KEY_A)).toBeUndefined()
    expect(onDisk(KEY_A)).toBe('0x09')
    ops = t.drain()
    expect(ops).toEqual([{ type: 'del', key: prefixed(PREFIX.state, hexToBytes(`0x${KEY_A}`)) }])
    await new ChainStore(db).writeBlock(blockWrite(2n, ops))
    t.commitDrained(ops)
    expect(onDisk(KEY_A)).toBeUndefined()
  })
})

describe('TrieDB under a Merkle Patricia trie', () => {
  it('a trie written through it is whole after its block is written and the database reopened', async () => {
    const t = new TrieDB(db)
    const trie = new MerklePatriciaTrie({ db: t, useKeyHashing: true })
    const entries = Array.from({ length: 50 }, (_, i) => [utf8ToBytes(`key-${i}`), utf8ToBytes(`value-${i}`.repeat(3))] as const)
    for (const [k, v] of entries) await trie.put(k, v)
    const root = trie.root()
    // Before the block is written the root node is only in memory.
    const store = new ChainStore(db)
    expect(store.hasStateNode(root)).toBe(false)
    expect(await trie.get(entries[7]![0])).toEqual(entries[7]![1])
    const ops = t.drain()
    await store.writeBlock(blockWrite(1n, ops))
    t.commitDrained(ops)
    expect(store.hasStateNode(root)).toBe(true)
    await reopen()
    const fresh = new MerklePatriciaTrie({ db: new TrieDB(db), useKeyHashing: true, root })
    for (const [k, v] of entries) expect(await fresh.get(k)).toEqual(v)
    expect(await fresh.get(utf8ToBytes('absent'))).toBeNull()
  })

  it('an unwritten trie is gone after a reopen (no state without its block)', async () => {
    const t = new TrieDB(db)
    const trie = new MerklePatriciaTrie({ db: t, useKeyHashing: true })
    await trie.put(utf8ToBytes('k'), utf8ToBytes('v'.repeat(40)))
    const root = trie.root()
    await reopen()
    expect(new ChainStore(db).hasStateNode(root)).toBe(false)
    const fresh = new MerklePatriciaTrie({ db: new TrieDB(db), useKeyHashing: true, root })
    // ethereumjs reads a missing root as an empty trie.
    expect(await fresh.get(utf8ToBytes('k'))).toBeNull()
  })
})

describe('TrieDB read cache memory (soak finding)', () => {
  it('keeps a flat copy of each key, not the chain of two-digit pieces the trie builds it from', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const N = 20_000
    const keyOf = (i: number) => i.toString(16).padStart(64, '0')
    // The trie's keys come from @ethereumjs/util (noble's bytesToHex): built two digits at a time.
    const consKey = (i: number) => bytesToUnprefixedHex(hexToBytes(`0x${keyOf(i)}`))
    const trie = new TrieDB(db)
    for (let i = 0; i < N; i++) await trie.put(keyOf(i), Uint8Array.of(1, 2, 3))
    const ops = trie.drain()
    await db.batch(ops, { sync: true })
    trie.commitDrained(ops)
    gc()
    const before = process.memoryUsage().heapUsed
    for (let i = 0; i < N; i++) expect(trie.getSync(consKey(i))).toBeDefined()
    gc()
    const perEntry = (process.memoryUsage().heapUsed - before) / N
    expect(trie.getSync(consKey(0))).toBeDefined() // the cache is still alive when measured
    // A flat 64-character key, a Map slot and a small Uint8Array: a few hundred bytes at most, not ~1 KB of string pieces.
    expect(perEntry).toBeLessThan(400)
  })
})

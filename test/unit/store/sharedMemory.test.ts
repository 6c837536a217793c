import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AtomicTxStore } from '../../../src/store/atomicTxStore.js'
import { ChainStore } from '../../../src/store/chainStore.js'
import { openDatabase, type Database } from '../../../src/store/db.js'
import { SharedMemory, SharedMemoryError, type SharedElement } from '../../../src/store/sharedMemory.js'

/*
 * Shared memory on a real ClassicLevel: avalanchego's Indexed order (addresses ascending, newest
 * first per address, inclusive resume, values under two addresses once), consume-once, reopen.
 */

let dataDir: string
let db: Database
let sm: SharedMemory

const X = new Uint8Array(32).fill(0xaa)
const P = new Uint8Array(32)
const addr = (n: number): Uint8Array => new Uint8Array(20).fill(n)
const key = (n: number): Uint8Array => {
  const k = new Uint8Array(32)
  new DataView(k.buffer).setUint32(28, n)
  return k
}
const el = (n: number, ...owners: number[]): SharedElement => ({ key: key(n), value: Uint8Array.of(n >> 8, n & 0xff), traits: owners.map(addr) })
const val = (n: number): string => Buffer.from([n >> 8, n & 0xff]).toString('hex')
const vals = (vs: Uint8Array[]): string[] => vs.map((v) => Buffer.from(v).toString('hex'))
const ZERO20 = new Uint8Array(20)
const ZERO32 = new Uint8Array(32)

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cchain-sm-'))
  db = await openDatabase(dataDir)
  sm = await SharedMemory.open(db)
})
afterEach(async () => {
  if (db.status === 'open') await db.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('SharedMemory.indexed', () => {
  it('lists addresses ascending, newest first under each, a shared value once', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 2), el(2, 1), el(3, 1, 2)] }])
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(4, 2)] }])
    const page = sm.indexed('inbound', X, [addr(2), addr(1), addr(2)], ZERO20, ZERO32, 100)
    // address 1: 3 then 2; address 2: 4, (3 already returned), 1.
    expect(vals(page.values)).toEqual([val(3), val(2), val(4), val(1)])
    expect(page.lastTrait).toEqual(addr(2))
    expect(page.lastKey).toEqual(key(1))
  })

  it('pages with an inclusive resume and reaches every value', async () => {
    const puts = Array.from({ length: 3000 }, (_, i) => el(i + 1, 1 + (i % 3)))
    await sm.apply([{ direction: 'inbound', peerChain: X, puts }])
    const seen = new Set<string>()
    let start: { address: Uint8Array; key: Uint8Array | undefined } = { address: ZERO20, key: ZERO32 }
    let previousLast: string | undefined
    let pages = 0
    for (;;) {
      const page = sm.indexed('inbound', X, [addr(1), addr(2), addr(3)], start.address, start.key, 1024)
      pages++
      const got = vals(page.values)
      expect(got.length).toBeLessThanOrEqual(1024)
      // Inclusive resume: a page starts with the previous page's last value.
      if (previousLast !== undefined) expect(got[0]).toBe(previousLast)
      for (const v of got) seen.add(v)
      if (got.length < 1024) break
      previousLast = got[got.length - 1]
      start = { address: page.lastTrait, key: page.lastKey }
    }
    expect(seen.size).toBe(3000)
    expect(pages).toBeGreaterThanOrEqual(3)
  })

  it('restarts an address from its newest value when the start UTXO is gone, and echoes an empty address', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 5), el(2, 5)] }])
    const page = sm.indexed('inbound', X, [addr(5)], addr(5), key(99), 10)
    expect(vals(page.values)).toEqual([val(2), val(1)])
    const empty = sm.indexed('inbound', X, [addr(9)], ZERO20, ZERO32, 10)
    expect(empty.values).toEqual([])
    expect(empty.lastTrait).toEqual(addr(9))
    expect(empty.lastKey).toBeUndefined()
    // Addresses below the start address are skipped.
    expect(sm.indexed('inbound', X, [addr(5)], addr(6), undefined, 10).values).toEqual([])
  })

  it('keeps directions and peer chains apart', async () => {
    await sm.apply([
      { direction: 'inbound', peerChain: X, puts: [el(1, 1)] },
      { direction: 'outbound', peerChain: P, puts: [el(2, 1)] },
    ])
    expect(vals(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(1)])
    expect(sm.indexed('inbound', P, [addr(1)], ZERO20, ZERO32, 10).values).toEqual([])
    expect(vals(sm.indexed('outbound', P, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(2)])
  })
})

describe('SharedMemory writes', () => {
  it('consumes a value exactly once and never takes it back', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 1)] }])
    expect(sm.get('inbound', X, [key(1), key(2)]).map((v) => v && Buffer.from(v).toString('hex'))).toEqual([val(1), undefined])
    await sm.apply([{ direction: 'inbound', peerChain: X, removes: [key(1)] }])
    expect(sm.get('inbound', X, [key(1)])).toEqual([undefined])
    expect(() => sm.prepare([{ direction: 'inbound', peerChain: X, removes: [key(1)] }])).toThrow(SharedMemoryError)
    expect(() => sm.prepare([{ direction: 'inbound', peerChain: X, puts: [el(1, 1)] }])).toThrow(/duplicated operation/)
    expect(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 10).values).toEqual([])
  })

  it('refuses a double remove or a double put inside one batch', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 1)] }])
    expect(() =>
      sm.prepare([
        { direction: 'inbound', peerChain: X, removes: [key(1)] },
        { direction: 'inbound', peerChain: X, removes: [key(1)] },
      ]),
    ).toThrow(SharedMemoryError)
    expect(() => sm.prepare([{ direction: 'outbound', peerChain: X, puts: [el(7, 1), el(7, 2)] }])).toThrow(/duplicated operation/)
  })

  it('changes nothing in memory until the batch is applied', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 1)] }])
    const write = sm.prepare([
      { direction: 'inbound', peerChain: X, removes: [key(1)] },
      { direction: 'outbound', peerChain: P, puts: [el(2, 1)] },
    ])
    expect(sm.has('inbound', X, key(1))).toBe(true)
    expect(sm.has('outbound', P, key(2))).toBe(false)
    await db.batch(write.ops, { sync: true })
    write.applied()
    expect(sm.has('inbound', X, key(1))).toBe(false)
    expect(sm.has('outbound', P, key(2))).toBe(true)
  })

  it('survives a reopen, with the block batch that carried it', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 1), el(2, 1)] }])
    const write = sm.prepare([
      { direction: 'inbound', peerChain: X, removes: [key(1)] },
      { direction: 'outbound', peerChain: P, puts: [el(3, 4, 1)] },
    ])
    const txs = new AtomicTxStore(db)
    const txID = new Uint8Array(32).fill(9)
    await new ChainStore(db).writeBlock({
      hash: new Uint8Array(32).fill(1),
      number: 1n,
      encodedBlock: Uint8Array.of(0xc0),
      encodedReceipts: Uint8Array.of(0xc0),
      bloom: new Uint8Array(256),
      txHashes: [],
      stateOps: [],
      extraOps: [...write.ops, txs.putOp(txID, 1n, Uint8Array.of(0, 0, 7))],
    })
    write.applied()
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(4, 1)] }])
    await db.close()
    db = await openDatabase(dataDir)
    sm = await SharedMemory.open(db)
    expect(vals(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(4), val(2)])
    expect(vals(sm.indexed('outbound', P, [addr(1), addr(4)], ZERO20, ZERO32, 10).values)).toEqual([val(3)])
    expect(() => sm.prepare([{ direction: 'inbound', peerChain: X, puts: [el(1, 1)] }])).toThrow(/duplicated operation/)
    expect(new AtomicTxStore(db).get(txID)).toEqual({ height: 1n, signedBytes: Uint8Array.of(0, 0, 7) })
    expect(new AtomicTxStore(db).get(new Uint8Array(32))).toBeUndefined()
    // New values are still newer than everything loaded.
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(5, 1)] }])
    expect(vals(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 1).values)).toEqual([val(5)])
  })
})

describe('one shared memory between chains', () => {
  const C = new Uint8Array(Buffer.from('ee488204088eaba3d3c0c5e26d7a2892677f8d6181ef31848708b4e55ead7667', 'hex'))

  it("keys by (source, destination): C's inbound from X is X -> C, its outbound to X is C -> X; X -> P is apart", async () => {
    await sm.apply([
      { sourceChain: X, destinationChain: C, puts: [el(1, 1)] },
      { sourceChain: C, destinationChain: X, puts: [el(2, 1)] },
    ])
    await sm.apply([{ sourceChain: X, destinationChain: P, puts: [el(3, 1)] }])
    expect(vals(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(1)])
    expect(vals(sm.indexed('outbound', X, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(2)])
    expect(vals(sm.indexedIn({ sourceChain: X, destinationChain: P }, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual([val(3)])
    expect(sm.getIn({ sourceChain: P, destinationChain: X }, [key(3)])).toEqual([undefined])
    // Importable exactly once, whichever view removes it.
    await sm.apply([{ sourceChain: C, destinationChain: X, removes: [key(2)] }])
    expect(() => sm.prepare([{ direction: 'outbound', peerChain: X, removes: [key(2)] }])).toThrow(SharedMemoryError)
    expect(() => sm.prepare([{ sourceChain: C, destinationChain: X, puts: [el(2, 1)] }])).toThrow(/duplicated operation/)
  })

  it('migrates records of the retired C-relative layout at open, tombstones included', async () => {
    const legacy = (dir: number, peer: Uint8Array, k: Uint8Array, v: Uint8Array): { type: 'put'; key: Uint8Array; value: Uint8Array } => ({
      type: 'put',
      key: Uint8Array.from([0x55, dir, ...peer, ...k]),
      value: v,
    })
    const record = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 9, 0, 1, ...addr(1), 0xab])
    await db.batch([legacy(0x69, X, key(1), record), legacy(0x6f, P, key(2), Uint8Array.of(0))])
    sm = await SharedMemory.open(db, { cChainID: C })
    expect(vals(sm.indexedIn({ sourceChain: X, destinationChain: C }, [addr(1)], ZERO20, ZERO32, 10).values)).toEqual(['ab'])
    expect(() => sm.prepare([{ sourceChain: C, destinationChain: P, puts: [el(2, 1)] }])).toThrow(/duplicated operation/)
    expect(db.getSync(Uint8Array.from([0x55, 0x69, ...X, ...key(1)]))).toBeUndefined()
  })
})

describe('SharedMemory.prepareNew', () => {
  it('puts only the values the space never held: a live one stays as it is, an imported one is not brought back', async () => {
    await sm.apply([{ direction: 'inbound', peerChain: X, puts: [el(1, 1), el(2, 1)] }])
    await sm.apply([{ direction: 'inbound', peerChain: X, removes: [key(2)] }])
    const write = sm.prepareNew({ direction: 'inbound', peerChain: X }, [el(1, 1), el(2, 1), el(3, 1), el(3, 1)])
    expect(write.ops).toHaveLength(1)
    write.applied()
    expect(vals(sm.indexed('inbound', X, [addr(1)], ZERO20, ZERO32, 100).values)).toEqual([val(3), val(1)])
    // Another space holds its own values.
    expect(sm.prepareNew({ direction: 'inbound', peerChain: P }, [el(2, 1)]).ops).toHaveLength(1)
  })
})

import { bytesToHex } from '@ethereumjs/util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, writeSynced, type Database } from '../../../src/store/db.js'
import { FlatState, type FlatChanges } from '../../../src/store/flatState.js'
import { tempDirs } from '../../helpers/tempDirs.js'

/*
 * The flat state on a real ClassicLevel: what a block's staged writes show at once, what readers
 * pinned to older blocks keep seeing through the undo layers, what survives a reopen, and what
 * a cleared account leaves.
 */

const tempDir = tempDirs('cchain-flat-')
let dir: string
let db: Database

beforeEach(async () => {
  dir = tempDir()
  db = await openDatabase(dir)
})
afterEach(async () => {
  if (db.status === 'open') await db.close()
  tempDir.removeAll()
})

const A = 'aa'.repeat(32)
const B = 'bb'.repeat(32)
const S1 = '01'.repeat(32)
const S2 = '02'.repeat(32)
const root = (n: number) => new Uint8Array(32).fill(n)
const hex = (v: Uint8Array | null | undefined) => (v === undefined ? undefined : v === null ? null : bytesToHex(v))

function changes(c: Partial<FlatChanges>): FlatChanges {
  return { accounts: c.accounts ?? new Map(), storage: c.storage ?? new Map(), cleared: c.cleared ?? new Set() }
}

async function commit(flat: FlatState, c: FlatChanges, number: bigint): Promise<void> {
  const staged = await flat.stage(c, number, root(Number(number)))
  await writeSynced(db, staged.ops)
}

async function genesis(flat: FlatState): Promise<void> {
  async function* entries() {
    yield { addrHash: Uint8Array.from(Buffer.from(A, 'hex')), account: Uint8Array.of(1), slots: [[Uint8Array.from(Buffer.from(S1, 'hex')), Uint8Array.of(7)] as [Uint8Array, Uint8Array]] }
  }
  expect(await flat.rebuild(root(0), 0n, entries())).toBe(1)
}

describe('FlatState', () => {
  it('reads what a rebuild wrote, and its root, after a reopen', async () => {
    await genesis(new FlatState(db))
    await db.close()
    db = await openDatabase(dir)
    const flat = new FlatState(db)
    expect(bytesToHex(flat.storedRoot()!)).toBe(bytesToHex(root(0)))
    expect(hex(flat.account(A))).toBe('0x01')
    expect(hex(flat.account(B))).toBeNull()
    expect(bytesToHex(flat.slot(A, S1)!)).toBe('0x07')
    expect(flat.slot(A, S2)!.length).toBe(0)
  })

  it('keeps each pinned block exact while later blocks change the same keys', async () => {
    const flat = new FlatState(db)
    await genesis(flat)
    await commit(
      flat,
      changes({
        accounts: new Map([
          [A, Uint8Array.of(2)],
          [B, Uint8Array.of(9)],
        ]),
        storage: new Map([[A + S1, Uint8Array.of(8)]]),
      }),
      1n,
    )
    await commit(flat, changes({ accounts: new Map([[A, Uint8Array.of(3)]]), storage: new Map([[A + S1, new Uint8Array(0)]]) }), 2n)
    expect([hex(flat.account(A, 0n)), hex(flat.account(A, 1n)), hex(flat.account(A, 2n)), hex(flat.account(A))]).toEqual(['0x01', '0x02', '0x03', '0x03'])
    expect([hex(flat.account(B, 0n)), hex(flat.account(B, 1n)), hex(flat.account(B, 2n))]).toEqual([null, '0x09', '0x09'])
    expect([bytesToHex(flat.slot(A, S1, 0n)!), bytesToHex(flat.slot(A, S1, 1n)!), bytesToHex(flat.slot(A, S1, 2n)!)]).toEqual(['0x07', '0x08', '0x'])
    expect([flat.covers(0n), flat.covers(2n), flat.covers(3n)]).toEqual([true, true, false])
    // What block 2 wrote is on disk: a fresh instance (no caches, no layers) reads it.
    const reopened = new FlatState(db)
    expect(hex(reopened.account(A))).toBe('0x03')
    expect(reopened.slot(A, S1)!.length).toBe(0)
  })

  it('a cleared account loses every stored slot, and a reader of the block before still sees them', async () => {
    const flat = new FlatState(db)
    await genesis(flat)
    await commit(flat, changes({ storage: new Map([[A + S2, Uint8Array.of(5)]]) }), 1n)
    await commit(flat, changes({ cleared: new Set([A]), accounts: new Map([[A, null]]) }), 2n)
    expect([flat.slot(A, S1)!.length, flat.slot(A, S2)!.length, hex(flat.account(A))]).toEqual([0, 0, null])
    expect([bytesToHex(flat.slot(A, S1, 1n)!), bytesToHex(flat.slot(A, S2, 1n)!)]).toEqual(['0x07', '0x05'])
    const reopened = new FlatState(db)
    expect([reopened.slot(A, S1)!.length, reopened.slot(A, S2)!.length]).toEqual([0, 0])
  })

  it('unstage forgets a block whose batch was not written', async () => {
    const flat = new FlatState(db)
    await genesis(flat)
    const staged = await flat.stage(changes({ accounts: new Map([[A, Uint8Array.of(2)]]) }), 1n, root(1))
    expect(hex(flat.account(A))).toBe('0x02')
    flat.unstage(staged)
    expect(hex(flat.account(A))).toBe('0x01')
    expect(flat.covers(0n)).toBe(true)
    expect(flat.covers(1n)).toBe(false)
    expect(bytesToHex(flat.storedRoot()!)).toBe(bytesToHex(root(0)))
  })

  it('drops the oldest undo layers past its window: those blocks are no longer covered', async () => {
    const flat = new FlatState(db)
    await genesis(flat)
    for (let n = 1n; n <= 130n; n++) await commit(flat, changes({ accounts: new Map([[A, Uint8Array.of(Number(n))]]) }), n)
    expect(flat.covers(0n)).toBe(false)
    expect(flat.covers(1n)).toBe(false)
    expect(flat.covers(2n)).toBe(true)
    expect(hex(flat.account(A, 2n))).toBe('0x02')
  })
})

describe('FlatState: preimages and entries (anvil_dumpState)', () => {
  const ADDR = Uint8Array.of(...new Array(20).fill(0xab))
  const SLOT = new Uint8Array(32).fill(0x02)

  it('records the preimage of an account or slot that comes into being, in its batch; entries() walks accounts with their slots', async () => {
    const flat = new FlatState(db)
    await genesis(flat)
    const preimages = new Map([
      [A, ADDR],
      [B, ADDR],
      [S2, SLOT],
    ])
    // A exists (the rebuild wrote it, with no preimage): a change to it records none; B and A's new slot S2 are new.
    const staged = await flat.stage(
      {
        ...changes({
          accounts: new Map([
            [A, Uint8Array.of(2)],
            [B, Uint8Array.of(3)],
          ]),
          storage: new Map([[A + S2, Uint8Array.of(9)]]),
        }),
        preimages,
      },
      1n,
      root(1),
    )
    expect(flat.preimage(B)).toBeUndefined()
    await writeSynced(db, staged.ops)
    expect(flat.preimage(A)).toBeUndefined()
    expect(hex(flat.preimage(B) ?? null)).toBe(bytesToHex(ADDR))
    expect(hex(flat.preimage(S2) ?? null)).toBe(bytesToHex(SLOT))

    const all = []
    for await (const e of flat.entries()) all.push({ addrHash: e.addrHash, account: hex(e.account), slots: e.slots.map(([s, v]) => [s, hex(v)]) })
    expect(all).toEqual([
      {
        addrHash: A,
        account: '0x02',
        slots: [
          [S1, '0x07'],
          [S2, '0x09'],
        ],
      },
      { addrHash: B, account: '0x03', slots: [] },
    ])
  })
})

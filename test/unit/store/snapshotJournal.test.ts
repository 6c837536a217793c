import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { afterEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase, writeSynced } from '../../../src/store/db.js'
import { META_SNAPSHOTS, metaKey } from '../../../src/store/keys.js'
import { SnapshotJournal } from '../../../src/store/snapshotJournal.js'

const key = (i: number) => Uint8Array.of(0x41, i)
const extra = (i: number) => new TextEncoder().encode(`{"clock":${i},"pools":"${'x'.repeat(200)}"}`)

describe('SnapshotJournal', () => {
  const dirs: string[] = []
  const dbs: Database[] = []
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.close().catch(() => {})
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const open = async (dir: string) => {
    const db = await openDatabase(dir)
    dbs.push(db)
    return db
  }
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cchain-journal-'))
    dirs.push(dir)
    return dir
  }

  it('keeps hundreds of live snapshots across restarts, and what a block writes does not grow with them', async () => {
    const dir = fresh()
    let db = await open(dir)
    let journal = await SnapshotJournal.of(db)
    await writeSynced(db, [{ type: 'put', key: key(0), value: Uint8Array.of(0) }])
    for (let i = 0; i < 300; i++) {
      expect(await journal.take(extra(i))).toBe(BigInt(i))
      await writeSynced(db, [{ type: 'put', key: key(0), value: Uint8Array.of(i + 1) }])
    }
    // The table holds the counters only (a loadFixture suite leaves one snapshot per fixture live).
    expect(db.getSync(metaKey(META_SNAPSHOTS))!.length).toBeLessThan(16)
    await db.close()

    db = await open(dir)
    journal = await SnapshotJournal.of(db)
    expect(journal.live().map((s) => Number(s.id))).toEqual(Array.from({ length: 300 }, (_, i) => i))
    expect(new TextDecoder().decode(journal.live()[120]!.extra)).toBe(new TextDecoder().decode(extra(120)))

    const back = await journal.revert(120n)
    expect(back?.id).toBe(120n)
    expect([...db.getSync(key(0))!]).toEqual([120])
    expect(journal.live().length).toBe(120)
    expect(await journal.revert(200n)).toBeUndefined()
    await db.close()

    db = await open(dir)
    journal = await SnapshotJournal.of(db)
    expect(journal.live().map((s) => Number(s.id))).toEqual(Array.from({ length: 120 }, (_, i) => i))
    expect([...db.getSync(key(0))!]).toEqual([120])
    expect(await journal.take(extra(0))).toBe(300n)
    expect((await journal.revert(5n))?.id).toBe(5n)
    expect([...db.getSync(key(0))!]).toEqual([5])
  })

  it('reads a data dir whose table held every snapshot (before each had its own key) and moves them out', async () => {
    const dir = fresh()
    let db = await open(dir)
    await writeSynced(db, [{ type: 'put', key: key(1), value: Uint8Array.of(7) }])
    // As the journal wrote it before: [next id, next seq, [[id, first seq, extra]...]], and record 0 undoing key(1).
    await db.write([
      {
        type: 'put',
        key: metaKey(META_SNAPSHOTS),
        value: RLP.encode([
          3n,
          1n,
          [
            [1n, 0n, extra(1)],
            [2n, 1n, extra(2)],
          ],
        ]),
      },
      { type: 'put', key: Uint8Array.of(0x6a, 0, 0, 0, 0, 0, 0, 0, 0), value: RLP.encode([[key(1), Uint8Array.of(6)]]) },
    ])
    await db.close()

    for (let round = 0; round < 2; round++) {
      db = await open(dir)
      const journal = await SnapshotJournal.of(db)
      expect(journal.live().map((s) => [Number(s.id), Number(s.seq)])).toEqual([
        [1, 0],
        [2, 1],
      ])
      expect(new TextDecoder().decode(journal.live()[1]!.extra)).toBe(new TextDecoder().decode(extra(2)))
      await db.close()
    }
    db = await open(dir)
    const journal = await SnapshotJournal.of(db)
    expect(await journal.take(extra(3))).toBe(3n)
    expect((await journal.revert(1n))?.id).toBe(1n)
    expect([...db.getSync(key(1))!]).toEqual([6])
    expect(journal.live()).toEqual([])
  })
})

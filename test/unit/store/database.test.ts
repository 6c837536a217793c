import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ClassicLevel } from 'classic-level'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../../src/store/db.js'
import { WAL_SEQ_KEY } from '../../../src/store/keys.js'
import { assertBuilt } from '../../helpers/childNode.js'
import { tempDirs } from '../../helpers/tempDirs.js'

/*
 * The write-behind database (src/store/database.ts) on a real LevelDB and a real write-ahead log:
 * a write is read at once and reaches LevelDB after; range reads see every earlier write; a process
 * killed (SIGKILL) right after its writes returned loses none of them; a torn tail and a gap in the
 * log are recognised at the next open.
 */

const tempDir = tempDirs('cchain-wal-')
const DIST_DB = fileURLToPath(new URL('../../../dist/src/store/db.js', import.meta.url))
const key = (i: number) => Uint8Array.of(0x01, i >> 8, i & 0xff)
const val = (i: number) => Uint8Array.of(i & 0xff, 0xee)
let open: Database[] = []

async function openAt(dir: string): Promise<Database> {
  const db = await openDatabase(dir)
  open.push(db)
  return db
}

/** What LevelDB itself holds under `dir`, bypassing the log (the database must be closed). */
async function levelHas(dir: string, k: Uint8Array): Promise<Uint8Array | undefined> {
  const level = new ClassicLevel<Uint8Array, Uint8Array>(join(dir, 'chain'), { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  try {
    return level.getSync(k) ?? undefined
  } finally {
    await level.close()
  }
}

/** Runs, in a child process, writes of keys `from`..`to` (one write each) and then kills itself with SIGKILL before any flush can run. */
function writeAndKill(dir: string, from: number, to: number): void {
  const script = `
    const { openDatabase } = await import(${JSON.stringify(DIST_DB)})
    const db = await openDatabase(${JSON.stringify(dir)})
    for (let i = ${from}; i < ${to}; i++) await db.write([{ type: 'put', key: Uint8Array.of(1, i >> 8, i & 255), value: Uint8Array.of(i & 255, 0xee) }])
    process.kill(process.pid, 'SIGKILL')
  `
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' })
  } catch (err) {
    // Killed by its own SIGKILL, as intended.
    expect((err as { signal?: string }).signal).toBe('SIGKILL')
    return
  }
  throw new Error('the child was not killed')
}

beforeAll(assertBuilt)
afterEach(async () => {
  for (const db of open) if (db.status === 'open') await db.close()
  open = []
  tempDir.removeAll()
})

describe('Database (write-ahead log, LevelDB written behind)', () => {
  it('reads a write at once, deletes included, and puts it into LevelDB after', async () => {
    const dir = tempDir()
    const db = await openAt(dir)
    await db.write([
      { type: 'put', key: key(1), value: val(1) },
      { type: 'put', key: key(2), value: val(2) },
    ])
    await db.write([{ type: 'del', key: key(1) }])
    expect(db.getSync(key(1))).toBeUndefined()
    expect([...db.getSync(key(2))!]).toEqual([...val(2)])
    await db.flushed()
    await db.close()
    expect(await levelHas(dir, key(1))).toBeUndefined()
    expect([...(await levelHas(dir, key(2)))!]).toEqual([...val(2)])
    // A clean close leaves no log behind.
    expect(readdirSync(join(dir, 'chain-wal'))).toEqual([])
  })

  it('hands out copies: a reader changing what it got changes nothing stored', async () => {
    const db = await openAt(tempDir())
    const value = val(7)
    await db.write([{ type: 'put', key: key(7), value }])
    value[0] = 0
    const read = db.getSync(key(7))!
    expect(read[0]).toBe(7)
    read[0] = 9
    expect(db.getSync(key(7))![0]).toBe(7)
  })

  it('range reads see every write made before them, in key order', async () => {
    const db = await openAt(tempDir())
    for (let i = 0; i < 50; i++) await db.write([{ type: 'put', key: key(i), value: val(i) }])
    await db.write([{ type: 'del', key: key(10) }])
    const keys = await db.keys({ gte: key(0), lt: key(256) }).all()
    expect(keys.map((k) => k[2])).toEqual([...Array(50).keys()].filter((i) => i !== 10))
    const entries: number[] = []
    for await (const [k, v] of db.iterator({ gte: key(40), lt: key(45) })) entries.push(k[2]! * 1000 + v[0]!)
    expect(entries).toEqual([40040, 41041, 42042, 43043, 44044])
  })

  it('a write that returned outlives a SIGKILL of the process before LevelDB had it', async () => {
    const dir = tempDir()
    writeAndKill(dir, 0, 300)
    // The log holds what LevelDB may not: the open replays it.
    expect(readdirSync(join(dir, 'chain-wal')).length).toBeGreaterThan(0)
    const db = await openAt(dir)
    expect(db.recovery.lost).toBe(0)
    for (const i of [0, 1, 150, 299]) expect([...db.getSync(key(i))!]).toEqual([...val(i)])
    // And the writes go on from there, numbered after the replayed ones.
    await db.write([{ type: 'put', key: key(300), value: val(300) }])
    await db.close()
    writeAndKill(dir, 301, 310)
    const again = await openAt(dir)
    for (const i of [299, 300, 301, 309]) expect([...again.getSync(key(i))!]).toEqual([...val(i)])
  })

  it('drops a torn last record (its write never returned) and keeps everything before it', async () => {
    const dir = tempDir()
    writeAndKill(dir, 0, 20)
    const segments = readdirSync(join(dir, 'chain-wal')).sort()
    // Half a record's header and payload at the end of the newest segment, as a kill in the middle of an append leaves.
    appendFileSync(join(dir, 'chain-wal', segments[segments.length - 1]!), Buffer.from('0000002a1234', 'hex'))
    const db = await openAt(dir)
    expect(db.recovery.lost).toBe(0)
    for (const i of [0, 19]) expect([...db.getSync(key(i))!]).toEqual([...val(i)])
    expect(readdirSync(join(dir, 'chain-wal')).every((name) => existsSync(join(dir, 'chain-wal', name)))).toBe(true)
  })

  it('stops at a gap: writes the log holds after ones LevelDB lost (a power loss) are left out', async () => {
    const dir = tempDir()
    const db = await openAt(dir)
    for (let i = 0; i < 5; i++) await db.write([{ type: 'put', key: key(i), value: val(i) }])
    await db.close()
    // LevelDB holds the log's writes 1 to 5; the next run logs 6 to 10 and is killed before LevelDB has them.
    writeAndKill(dir, 5, 10)
    // A power loss that LevelDB's own unsynced tail did not survive: it says it holds only up to write 3.
    const level = new ClassicLevel<Uint8Array, Uint8Array>(join(dir, 'chain'), { keyEncoding: 'view', valueEncoding: 'view' })
    await level.open()
    await level.put(WAL_SEQ_KEY, Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 3))
    await level.close()
    // Writes 4 and 5 are in neither: 6 to 10 cannot apply on top of what LevelDB has.
    const after = await openAt(dir)
    expect(after.recovery).toEqual({ replayed: 0, lost: 5 })
    expect(after.getSync(key(7))).toBeUndefined()
    expect([...after.getSync(key(2))!]).toEqual([...val(2)])
  })
})

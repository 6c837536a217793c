import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type BatchOp, openDatabase, writeSynced } from '../../../src/store/db.js'

describe('openDatabase', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })

  it('creates a new data directory and its database readable by the owner only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cchain-db-'))
    dirs.push(root)
    const dataDir = join(root, 'fresh', 'node')
    const db = await openDatabase(dataDir)
    await db.close()
    for (const dir of [join(root, 'fresh'), dataDir, join(dataDir, 'chain')]) expect(statSync(dir).mode & 0o777).toBe(0o700)
  })
})

describe('writeSynced', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const key = (i: number) => Uint8Array.of(1, i >> 8, i & 0xff)
  const open = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cchain-db-'))
    dirs.push(dir)
    return openDatabase(dir)
  }

  it('builds a big batch in slices with pauses between them and writes it whole', async () => {
    const db = await open()
    await db.put(key(1000), Uint8Array.of(9))
    const ops: BatchOp[] = Array.from({ length: 1000 }, (_, i) => ({ type: 'put', key: key(i), value: Uint8Array.of(i & 0xff) }))
    ops.push({ type: 'del', key: key(1000) })
    let pauses = 0
    let seenDuringPauses = 0
    await writeSynced(db, ops, async () => {
      pauses++
      // Nothing is visible before the one atomic write.
      if (db.getSync(key(0)) !== undefined) seenDuringPauses++
    })
    expect(pauses).toBe(3)
    expect(seenDuringPauses).toBe(0)
    for (const i of [0, 255, 999]) expect([...db.getSync(key(i))!]).toEqual([i & 0xff])
    expect(db.getSync(key(1000))).toBeUndefined()
    await db.close()
  })

  it('writes nothing when a pause fails', async () => {
    const db = await open()
    const ops: BatchOp[] = Array.from({ length: 600 }, (_, i) => ({ type: 'put', key: key(i), value: Uint8Array.of(1) }))
    await expect(
      writeSynced(db, ops, async () => {
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(db.getSync(key(0))).toBeUndefined()
    await db.close()
  })
})

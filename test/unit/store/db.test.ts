import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/store/db.js'

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

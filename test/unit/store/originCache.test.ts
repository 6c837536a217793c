import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/store/db.js'
import { OriginCache } from '../../../src/store/originCache.js'
import { resetDatabase } from '../../../src/store/resetDatabase.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'origin-cache-'))
  dirs.push(dir)
  return dir
}

const pointA = new Uint8Array(32).fill(0xaa)
const pointB = new Uint8Array(32).fill(0xbb)
const block = '{"number":"0x5","hash":"0x01"}'

describe('OriginCache', () => {
  it('answers an entry by method and params with the same meaning (hex case, key order, an absent trailing argument)', async () => {
    const db = await openDatabase(tempDir())
    const cache = new OriginCache(db)
    await cache.put(pointA, 'eth_getBlockByHash', ['0xABCD', false], block)
    expect(cache.get(pointA, 'eth_getBlockByHash', ['0xabcd', false])).toBe(block)
    expect(cache.get(pointA, 'eth_getBlockByHash', ['0xabcd', true])).toBeUndefined()
    expect(cache.get(pointA, 'eth_getBlockByNumber', ['0xabcd', false])).toBeUndefined()
    await cache.put(pointA, 'eth_getLogs', [{ toBlock: '0x5', fromBlock: '0x1' }, null], '[]')
    expect(cache.get(pointA, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5' }])).toBe('[]')
    await db.close()
  })

  it("keeps entries across a restart and a fork's reset, apart per fork point", async () => {
    const dir = tempDir()
    let db = await openDatabase(dir)
    await new OriginCache(db).put(pointA, 'eth_getBlockByNumber', ['0x5', true], block)
    await resetDatabase(db, true)
    await db.close()
    db = await openDatabase(dir)
    expect(new OriginCache(db).get(pointA, 'eth_getBlockByNumber', ['0x5', true])).toBe(block)
    expect(new OriginCache(db).get(pointB, 'eth_getBlockByNumber', ['0x5', true])).toBeUndefined()
    await db.close()
  })
})

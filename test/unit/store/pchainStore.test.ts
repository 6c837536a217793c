import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, writeSynced } from '../../../src/store/db.js'
import { META_P_FEE_STATE, metaKey } from '../../../src/store/keys.js'
import { PChainStore } from '../../../src/store/pchainStore.js'

describe('PChainStore', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })

  it('has no fee state before the first accepted tx, then reads back the one saved with it across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cchain-pstore-'))
    dirs.push(dir)
    let db = await openDatabase(dir)
    const store = await PChainStore.open(db, [])
    expect(store.ledger.height).toBe(0n)
    expect(store.readFeeState()).toBeUndefined()
    const state = { capacity: 1_000_000n, excess: 2n ** 63n + 5n, time: 1_700_000_000n }
    const op = store.feeStateOp(state)
    // capacity ‖ excess ‖ time, u64 big-endian each, under the p-fee-state meta key.
    expect(op).toEqual({ type: 'put', key: metaKey(META_P_FEE_STATE), value: Uint8Array.from(Buffer.from('00000000000f42408000000000000005000000006553f100', 'hex')) })
    await writeSynced(db, [op])
    await db.close()
    db = await openDatabase(dir)
    expect((await PChainStore.open(db, [])).readFeeState()).toEqual(state)
    await db.close()
  })
})

import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { TYPE_ID } from '../../../src/avalanche/codec.js'
import { AlreadyKnownError, AtomicError } from '../../../src/atomic/errors.js'
import { effectiveGasPrice, gasUsed } from '../../../src/atomic/fees.js'
import { AtomicMempool, MempoolFullError } from '../../../src/atomic/mempool.js'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { credential } from '../../../src/avalanche/secp256k1fx.js'
import { ethAddress, publicKeyOf, signHash } from '../../../src/avalanche/signature.js'
import { type AtomicTx, encodeUnsignedTx, signingHash, toAtomicTx } from '../../../src/atomic/tx.js'
import type { UnsignedExportTx } from '../../../src/atomic/types.js'

/* coreth's atomic mempool rules (txpool/mempool.go, txs.go): states, duplicates, conflicts, capacity. */

const local = NETWORKS.local
const AVAX = local.avaxAssetID
const KEY = new Uint8Array(32).fill(1)
const ETH = ethAddress(publicKeyOf(KEY))

/** An export from `ETH` at `nonce` (the conflict key) burning `fee` nAVAX; `salt` changes the tx ID only. */
function tx(nonce: bigint, fee: bigint, salt = 1n): AtomicTx {
  const utx: UnsignedExportTx = {
    typeID: TYPE_ID.ExportTx,
    networkID: local.networkID,
    blockchainID: local.cChainID,
    destinationChain: local.xChainID,
    ins: [{ address: ETH, amount: salt + fee, assetID: AVAX, nonce }],
    exportedOutputs: [{ assetID: AVAX, out: { amount: salt, locktime: 0n, threshold: 1, addrs: [new Uint8Array(20).fill(2)] } }],
  }
  const hash = signingHash(encodeUnsignedTx(utx))
  return toAtomicTx({ unsignedTx: utx, creds: [credential([signHash(KEY, hash)])] })
}

const priceOf = (t: AtomicTx, fee: bigint): bigint => effectiveGasPrice(fee, gasUsed(t.tx.unsignedTx, t.unsignedBytes.length))
const id = (t: AtomicTx): string => cb58Encode(t.id)

async function message(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (err) {
    return (err as Error).message
  }
  return 'ok'
}

describe('AtomicMempool', () => {
  it('moves a tx Pending -> Current -> Issued and forgets it on accept', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const a = tx(0n, 1000n)
    await m.addLocalTx(a)
    expect(m.stateOf(a.id)).toBe('pending')
    expect(m.nextTx()).toBe(a)
    expect(m.stateOf(a.id)).toBe('current')
    m.issueCurrentTxs()
    expect(m.stateOf(a.id)).toBe('issued')
    expect(m.has(a.id)).toBe(true)
    m.removeTx(a.id)
    expect(m.getTx(a.id)).toBeUndefined()
    expect(m.length).toBe(0)
  })

  it('hands out the highest effective gas price first; cancel puts a tx back', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const cheap = tx(0n, 100_000n)
    const rich = tx(1n, 900_000n)
    const mid = tx(2n, 500_000n)
    for (const t of [cheap, rich, mid]) await m.addLocalTx(t)
    expect(m.nextTx()).toBe(rich)
    m.cancelCurrentTx(rich.id)
    expect(m.nextTx()).toBe(rich)
    expect(m.nextTx()).toBe(mid)
    m.cancelCurrentTxs()
    expect(m.pendingLength).toBe(3)
  })

  it('answers duplicates with coreth texts, as AlreadyKnownError', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const a = tx(0n, 1000n)
    await m.addLocalTx(a)
    const dup = m.addLocalTx(a)
    await expect(dup).rejects.toBeInstanceOf(AlreadyKnownError)
    expect(await message(m.addLocalTx(a))).toBe(`already known: tx ${id(a)} is pending`)
    m.nextTx()
    expect(await message(m.addLocalTx(a))).toBe(`already known: tx ${id(a)} is being built into a block`)
    m.issueCurrentTxs()
    expect(await message(m.addLocalTx(a))).toBe(`already known: tx ${id(a)} was issued previously`)
  })

  it('replaces a conflict only for a strictly higher gas price; the loser is Discarded', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const a = tx(5n, 100_000n, 1n)
    const same = tx(5n, 100_000n, 2n)
    const better = tx(5n, 200_000n, 3n)
    await m.addLocalTx(a)
    const pa = priceOf(a, 100_000n)
    expect(await message(m.addLocalTx(same))).toBe(
      `conflict present: issued tx (${id(same)}) gas price ${priceOf(same, 100_000n)} <= conflict tx (${id(a)}) gas price ${pa} (1 total conflicts in mempool)`,
    )
    expect(m.getTx(same.id)).toBeUndefined()
    await m.addLocalTx(better)
    expect(m.getTx(a.id)).toEqual({ tx: a, discarded: true })
    expect(m.stateOf(better.id)).toBe('pending')
    expect(m.length).toBe(1)
  })

  it('evicts the cheapest Pending tx when full, else refuses with the fee or "mempool full"', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX, maxSize: 2 })
    const low = tx(0n, 100_000n)
    const high = tx(1n, 300_000n)
    await m.addLocalTx(low)
    await m.addLocalTx(high)
    const lower = tx(2n, 50_000n)
    expect(await message(m.addLocalTx(lower))).toBe(`insufficient fee currentMin=${priceOf(low, 100_000n)} provided=${priceOf(lower, 50_000n)}`)
    const higher = tx(3n, 200_000n)
    await m.addLocalTx(higher)
    expect(m.stateOf(low.id)).toBe('discarded')
    expect(m.length).toBe(2)
    m.nextTx()
    m.nextTx()
    const err = m.addLocalTx(tx(4n, 900_000n))
    await expect(err).rejects.toBeInstanceOf(MempoolFullError)
    expect(await message(m.addLocalTx(tx(4n, 900_000n)))).toBe('mempool full')
  })

  it('does not remember a local tx that fails verification; a remote one becomes Discarded', async () => {
    const bad = tx(0n, 1000n)
    const m = new AtomicMempool({
      avaxAssetID: AVAX,
      verify: (t) => {
        if (t === bad) throw new AtomicError('invalid nonce')
      },
    })
    expect(await message(m.addLocalTx(bad))).toBe('invalid nonce')
    expect(m.getTx(bad.id)).toBeUndefined()
    expect(await message(m.addRemoteTx(bad))).toBe('invalid nonce')
    expect(m.getTx(bad.id)).toEqual({ tx: bad, discarded: true })
    expect(await message(m.addRemoteTx(bad))).toBe(`already known: tx ${id(bad)} was discarded`)
    // A local re-issue is verified again (and fails again here, keeping the Discarded record).
    expect(await message(m.addLocalTx(bad))).toBe('invalid nonce')
  })

  it('lets a discarded tx back in locally, and keeps only the last 50 discarded', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const a = tx(0n, 1000n)
    await m.addLocalTx(a)
    m.nextTx()
    m.discardCurrentTx(a.id)
    expect(m.stateOf(a.id)).toBe('discarded')
    await m.addLocalTx(a)
    expect(m.stateOf(a.id)).toBe('pending')
    m.nextTx()
    m.discardCurrentTx(a.id)
    for (let i = 1; i <= 50; i++) {
      const t = tx(BigInt(i), 1000n)
      await m.addLocalTx(t)
      m.nextTx()
      m.discardCurrentTx(t.id)
    }
    expect(m.getTx(a.id)).toBeUndefined()
    expect(m.stateOf(tx(1n, 1000n).id)).toBe('discarded')
  })

  it('frees the conflict key of a discarded tx', async () => {
    const m = new AtomicMempool({ avaxAssetID: AVAX })
    const a = tx(0n, 1000n, 1n)
    await m.addLocalTx(a)
    m.nextTx()
    m.discardCurrentTx(a.id)
    const b = tx(0n, 1000n, 2n)
    await m.addLocalTx(b)
    expect(m.stateOf(b.id)).toBe('pending')
  })
})

import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { type Address, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { Wallet, type TransactionRequest } from 'ethers'
import { beforeEach, describe, expect, it } from 'vitest'
import { customCrypto } from '../../../../src/util/crypto.js'
import { TxRejectedError } from '../../../../src/engine/base/errors.js'
import { TxPool, type PoolTx, type TxPoolOptions } from '../../../../src/engine/pool/txPool.js'
import { admitRawTransaction, type AdmissionRules } from '../../../../src/engine/pool/txValidation.js'

/*
 * The pool with real signed transactions: ethers signs, the node's own admission path parses
 * (admitRawTransaction, with a Common built as src/engine/chain/chain.ts builds it), and account
 * nonces come from a Map standing in for the head state.
 */

const CHAIN_ID = 43112n
const GWEI = 1_000_000_000n
const common = createCustomCommon({ chainId: Number(CHAIN_ID), name: 'avalanche-43112' }, Mainnet, { hardfork: 'cancun', customCrypto })
const rules: AdmissionRules = {
  common,
  chainId: CHAIN_ID,
  allowUnprotected: false,
  txFeeCap: 100,
  blockGasLimit: 200_000_000n,
  minTip: 1n,
  nextBaseFee: 1n,
  maxSize: 128 * 1024,
  warp: true,
}
const DEFAULTS: TxPoolOptions = { priceBump: 10n, accountSlots: 16, globalSlots: 5120, accountQueue: 64, globalQueue: 1024 }

const alice = new Wallet('0x' + '11'.repeat(32))
const bob = new Wallet('0x' + '22'.repeat(32))
const carol = new Wallet('0x' + '33'.repeat(32))
const TO = '0x' + '77'.repeat(20)

let arrival = 0
let nonces: Map<string, bigint>
let pool: TxPool

/** Signs with ethers and admits through the node's parser; EIP-1559 unless `gasPrice` is given. */
async function ptx(wallet: Wallet, nonce: number, fees: { feeCap?: bigint; tip?: bigint; gasPrice?: bigint; value?: bigint } = {}): Promise<PoolTx> {
  const tx: TransactionRequest = { chainId: CHAIN_ID, nonce, to: TO, gasLimit: 21_000n, value: fees.value ?? 0n }
  if (fees.gasPrice !== undefined) Object.assign(tx, { type: 0, gasPrice: fees.gasPrice })
  else Object.assign(tx, { type: 2, maxFeePerGas: fees.feeCap ?? 100n * GWEI, maxPriorityFeePerGas: fees.tip ?? GWEI })
  const raw = await wallet.signTransaction(tx)
  return admitRawTransaction(hexToBytes(raw as `0x${string}`), rules, arrival++)
}

function newPool(opts: Partial<TxPoolOptions> = {}): TxPool {
  return new TxPool({ ...DEFAULTS, ...opts }, async (sender: Address) => nonces.get(sender.toString()) ?? 0n)
}

function setNonce(wallet: Wallet, n: bigint): void {
  nonces.set(wallet.address.toLowerCase(), n)
}

async function rejection(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, 'expected a rejection').toBeInstanceOf(TxRejectedError)
  return (err as Error).message
}

/** A pool's pending and queued (sender, nonce) pairs, sorted, for comparisons. */
function contents(p: TxPool): { pending: string[]; queued: string[] } {
  const names = new Map(
    [
      [alice, 'alice'],
      [bob, 'bob'],
      [carol, 'carol'],
    ].map(([w, n]) => [(w as Wallet).address.toLowerCase(), n as string]),
  )
  const show = (xs: PoolTx[]) => xs.map((x) => `${names.get(x.senderHex)}:${x.nonce}`).sort()
  const all = p.all()
  return { pending: show(all.pending), queued: show(all.queued) }
}

beforeEach(() => {
  nonces = new Map()
  pool = newPool()
})

describe('TxPool: pending and queued', () => {
  it('admission computes sender, nonce, fee caps and hash from the signed bytes', async () => {
    const p = await ptx(alice, 3, { feeCap: 50n * GWEI, tip: 2n * GWEI })
    expect(p.senderHex).toBe(alice.address.toLowerCase())
    expect(p.nonce).toBe(3n)
    expect(p.feeCap).toBe(50n * GWEI)
    expect(p.tipCap).toBe(2n * GWEI)
    expect(p.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const legacy = await ptx(alice, 0, { gasPrice: 7n * GWEI })
    expect([legacy.feeCap, legacy.tipCap]).toEqual([7n * GWEI, 7n * GWEI])
  })

  it('the account nonce is pending, a future nonce is queued', async () => {
    setNonce(alice, 5n)
    expect(await pool.add(await ptx(alice, 5))).toBe(true)
    expect(await pool.add(await ptx(alice, 7))).toBe(false)
    expect(pool.size).toEqual({ pending: 1, queued: 1 })
    expect(contents(pool)).toEqual({ pending: ['alice:5'], queued: ['alice:7'] })
    expect(await pool.nextNonce(addr(alice))).toBe(6n)
  })

  it('nextNonce is the state nonce for a sender with nothing pending', async () => {
    setNonce(bob, 9n)
    expect(await pool.nextNonce(addr(bob))).toBe(9n)
    await pool.add(await ptx(bob, 11)) // queued only
    expect(await pool.nextNonce(addr(bob))).toBe(9n)
  })

  it('filling the gap promotes the queued run behind it', async () => {
    for (const n of [3, 1, 2]) expect(await pool.add(await ptx(alice, n))).toBe(false)
    await pool.add(await ptx(alice, 5))
    expect(pool.size).toEqual({ pending: 0, queued: 4 })
    expect(await pool.add(await ptx(alice, 0))).toBe(true)
    expect(contents(pool)).toEqual({ pending: ['alice:0', 'alice:1', 'alice:2', 'alice:3'], queued: ['alice:5'] })
    expect(pool.size).toEqual({ pending: 4, queued: 1 })
    expect(await pool.nextNonce(addr(alice))).toBe(4n)
    expect(await pool.add(await ptx(alice, 4))).toBe(true)
    expect(pool.size).toEqual({ pending: 6, queued: 0 })
    expect(await pool.nextNonce(addr(alice))).toBe(6n)
  })

  it('senders are independent', async () => {
    await pool.add(await ptx(alice, 0))
    expect(await pool.add(await ptx(bob, 1))).toBe(false)
    expect(contents(pool)).toEqual({ pending: ['alice:0'], queued: ['bob:1'] })
  })

  it('has() and get() find a transaction by hash', async () => {
    const p = await ptx(alice, 0)
    expect(pool.has(p.hash)).toBe(false)
    await pool.add(p)
    expect(pool.has(p.hash)).toBe(true)
    expect(pool.get(p.hash)).toBe(p)
  })
})

describe("TxPool: geth's rejections", () => {
  it('the same transaction twice is `already known`', async () => {
    const p = await ptx(alice, 0)
    await pool.add(p)
    expect(await rejection(pool.add(p))).toBe('already known')
    const q = await ptx(alice, 4)
    await pool.add(q)
    expect(await rejection(pool.add(q))).toBe('already known')
    expect(pool.size).toEqual({ pending: 1, queued: 1 })
  })

  it('a nonce below the account nonce is `nonce too low`', async () => {
    setNonce(alice, 5n)
    expect(await rejection(pool.add(await ptx(alice, 3)))).toBe('nonce too low: next nonce 5, tx nonce 3')
    expect(pool.size).toEqual({ pending: 0, queued: 0 })
  })

  it('a full account queue is `txpool is full`', async () => {
    pool = newPool({ accountQueue: 2 })
    await pool.add(await ptx(alice, 1))
    await pool.add(await ptx(alice, 2))
    expect(await rejection(pool.add(await ptx(alice, 3)))).toBe('txpool is full')
    // Another sender has its own queue.
    expect(await pool.add(await ptx(bob, 1))).toBe(false)
  })
})

describe('TxPool: replacement needs +10% on both fee cap and tip', () => {
  const FEE = 100n * GWEI
  const TIP = 10n * GWEI

  it.each([
    ['pending', 0],
    ['queued', 3],
  ])('exactly +10%% on both replaces a %s transaction', async (_, nonce) => {
    const old = await ptx(alice, nonce, { feeCap: FEE, tip: TIP })
    await pool.add(old)
    const sizeBefore = pool.size
    const next = await ptx(alice, nonce, { feeCap: 110n * GWEI, tip: 11n * GWEI })
    await pool.add(next)
    expect(pool.has(old.hash)).toBe(false)
    expect(pool.get(next.hash)).toBe(next)
    expect(pool.size).toEqual(sizeBefore)
  })

  it.each([
    ['fee cap +9%, tip +10%', 109n * GWEI, 11n * GWEI],
    ['fee cap +10%, tip +9%', 110n * GWEI, 10_900_000_000n],
    ['fee cap +10% minus 1 wei', 110n * GWEI - 1n, 11n * GWEI],
    ['tip +10% minus 1 wei', 110n * GWEI, 11n * GWEI - 1n],
    ['fee cap +50%, tip unchanged', 150n * GWEI, 10n * GWEI],
    ['same fees, different value', 100n * GWEI, 10n * GWEI],
  ])('%s is `replacement transaction underpriced` and keeps the old one', async (_, feeCap, tip) => {
    const old = await ptx(alice, 0, { feeCap: FEE, tip: TIP })
    await pool.add(old)
    const next = await ptx(alice, 0, { feeCap, tip, value: 1n })
    expect(await rejection(pool.add(next))).toBe('replacement transaction underpriced')
    expect(pool.get(old.hash)).toBe(old)
    expect(pool.has(next.hash)).toBe(false)
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
  })

  it('a legacy transaction is bumped by its gas price (fee cap and tip alike)', async () => {
    await pool.add(await ptx(alice, 0, { gasPrice: 100n * GWEI }))
    expect(await rejection(pool.add(await ptx(alice, 0, { gasPrice: 109n * GWEI })))).toBe('replacement transaction underpriced')
    await pool.add(await ptx(alice, 0, { gasPrice: 110n * GWEI }))
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
  })

  it('tx-pool-price-bump sets the percentage', async () => {
    pool = newPool({ priceBump: 25n })
    await pool.add(await ptx(alice, 0, { feeCap: FEE, tip: TIP }))
    expect(await rejection(pool.add(await ptx(alice, 0, { feeCap: 124n * GWEI, tip: 13n * GWEI })))).toBe('replacement transaction underpriced')
    await pool.add(await ptx(alice, 0, { feeCap: 125n * GWEI, tip: 12_500_000_000n }))
  })
})

describe('TxPool.executable', () => {
  const order = (xs: PoolTx[]) => xs.map((x) => `${x.senderHex === addr(alice).toString() ? 'alice' : x.senderHex === addr(bob).toString() ? 'bob' : 'carol'}:${x.nonce}`)

  it('per sender in nonce order whatever the arrival order; queued transactions are not executable', async () => {
    for (const n of [2, 1, 0, 5]) await pool.add(await ptx(alice, n))
    expect(order(pool.executable(1n))).toEqual(['alice:0', 'alice:1', 'alice:2'])
  })

  it('senders interleave by effective tip, highest first, each still in nonce order', async () => {
    // alice: tips 3, 3; bob: tips 2, 5 (bob:1 waits behind bob:0 despite its higher tip).
    await pool.add(await ptx(alice, 0, { tip: 3n * GWEI }))
    await pool.add(await ptx(alice, 1, { tip: 3n * GWEI }))
    await pool.add(await ptx(bob, 0, { tip: 2n * GWEI }))
    await pool.add(await ptx(bob, 1, { tip: 5n * GWEI }))
    await pool.add(await ptx(carol, 0, { tip: 4n * GWEI }))
    expect(order(pool.executable(1n))).toEqual(['carol:0', 'alice:0', 'alice:1', 'bob:0', 'bob:1'])
  })

  it('the effective tip is capped by fee cap minus base fee', async () => {
    // alice tips 8 gwei but can pay only 10 - 5 = 5 above the base fee; bob tips 6.
    await pool.add(await ptx(alice, 0, { feeCap: 10n * GWEI, tip: 8n * GWEI }))
    await pool.add(await ptx(bob, 0, { feeCap: 100n * GWEI, tip: 6n * GWEI }))
    expect(order(pool.executable(5n * GWEI))).toEqual(['bob:0', 'alice:0'])
    // With a base fee of 1 gwei alice's 8 gwei counts in full.
    expect(order(pool.executable(GWEI))).toEqual(['alice:0', 'bob:0'])
  })

  it('equal tips go by arrival', async () => {
    await pool.add(await ptx(bob, 0))
    await pool.add(await ptx(carol, 0))
    await pool.add(await ptx(alice, 0))
    expect(order(pool.executable(1n))).toEqual(['bob:0', 'carol:0', 'alice:0'])
  })

  it('is empty for an empty pool', () => {
    expect(pool.executable(1n)).toEqual([])
  })
})

describe('TxPool.onNewHead', () => {
  it('removes included transactions and keeps the rest pending', async () => {
    const txs = [await ptx(alice, 0), await ptx(alice, 1), await ptx(alice, 2)]
    for (const t of txs) await pool.add(t)
    setNonce(alice, 2n)
    await pool.onNewHead(txs.slice(0, 2), [])
    expect(pool.has(txs[0]!.hash)).toBe(false)
    expect(pool.has(txs[1]!.hash)).toBe(false)
    expect(contents(pool)).toEqual({ pending: ['alice:2'], queued: [] })
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
    expect(await pool.nextNonce(addr(alice))).toBe(3n)
  })

  it('removes transactions the new account nonce made stale', async () => {
    for (const n of [0, 1, 2, 3]) await pool.add(await ptx(alice, n))
    const included = pool.executable(1n).slice(0, 1)
    setNonce(alice, 3n) // the block moved alice past nonce 2
    await pool.onNewHead(included, [])
    expect(contents(pool)).toEqual({ pending: ['alice:3'], queued: [] })
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
    expect(await pool.nextNonce(addr(alice))).toBe(4n)
  })

  it('a dropped transaction leaves a gap: the run behind it goes back to queued, and filling it promotes again', async () => {
    const txs = []
    for (const n of [0, 1, 2, 3]) {
      const t = await ptx(alice, n)
      txs.push(t)
      await pool.add(t)
    }
    setNonce(alice, 1n)
    await pool.onNewHead([txs[0]!], [txs[2]!])
    expect(pool.has(txs[2]!.hash)).toBe(false)
    expect(contents(pool)).toEqual({ pending: ['alice:1'], queued: ['alice:3'] })
    expect(pool.size).toEqual({ pending: 1, queued: 1 })
    expect(await pool.nextNonce(addr(alice))).toBe(2n)
    expect(await pool.add(await ptx(alice, 2, { feeCap: 200n * GWEI }))).toBe(true)
    expect(contents(pool)).toEqual({ pending: ['alice:1', 'alice:2', 'alice:3'], queued: [] })
    expect(await pool.nextNonce(addr(alice))).toBe(4n)
  })

  it('a queued transaction the new nonce reaches becomes pending', async () => {
    const first = await ptx(bob, 0)
    await pool.add(first)
    await pool.add(await ptx(bob, 2)) // queued behind a gap at 1
    setNonce(bob, 2n) // nonce 1 was mined elsewhere (another node's block)
    await pool.onNewHead([first], [])
    expect(contents(pool)).toEqual({ pending: ['bob:2'], queued: [] })
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
    expect(await pool.nextNonce(addr(bob))).toBe(3n)
  })

  it('a sender with nothing left falls back to the state nonce', async () => {
    const t = await ptx(alice, 0)
    await pool.add(t)
    setNonce(alice, 1n)
    await pool.onNewHead([t], [])
    expect(pool.size).toEqual({ pending: 0, queued: 0 })
    setNonce(alice, 7n)
    expect(await pool.nextNonce(addr(alice))).toBe(7n)
  })

  it('leaves senders the block did not touch alone', async () => {
    const a = await ptx(alice, 0)
    await pool.add(a)
    await pool.add(await ptx(bob, 0))
    await pool.add(await ptx(bob, 2))
    setNonce(alice, 1n)
    await pool.onNewHead([a], [])
    expect(contents(pool)).toEqual({ pending: ['bob:0'], queued: ['bob:2'] })
  })

  it('a transaction replaced while its block was being built does not linger by hash', async () => {
    const original = await ptx(alice, 0, { feeCap: 100n * GWEI, tip: 10n * GWEI })
    await pool.add(original)
    const building = pool.executable(1n) // the builder took the original...
    const replacement = await ptx(alice, 0, { feeCap: 200n * GWEI, tip: 20n * GWEI })
    await pool.add(replacement) // ...and the replacement arrived during the build
    setNonce(alice, 1n)
    await pool.onNewHead(building, [])
    expect(pool.size).toEqual({ pending: 0, queued: 0 })
    expect(pool.has(replacement.hash)).toBe(false)
  })
})

describe('TxPool: drop (anvil_dropTransaction)', () => {
  it('a queued transaction goes alone; an unknown hash is undefined', async () => {
    await pool.add(await ptx(alice, 0))
    const q = await ptx(alice, 3)
    await pool.add(q)
    expect(pool.drop(q.hash)).toBe(q)
    expect(pool.drop(q.hash)).toBeUndefined()
    expect(contents(pool)).toEqual({ pending: ['alice:0'], queued: [] })
    expect(pool.size).toEqual({ pending: 1, queued: 0 })
    expect(await pool.nextNonce(addr(alice))).toBe(1n)
  })

  it('a pending one sends the later pending ones back to queued; filling the gap again promotes them', async () => {
    for (const n of [0, 1, 2, 3]) await pool.add(await ptx(alice, n))
    await pool.add(await ptx(bob, 0))
    const one = pool.all().pending.find((p) => p.senderHex === alice.address.toLowerCase() && p.nonce === 1n)!
    pool.drop(one.hash)
    expect(contents(pool)).toEqual({ pending: ['alice:0', 'bob:0'], queued: ['alice:2', 'alice:3'] })
    expect(pool.size).toEqual({ pending: 2, queued: 2 })
    expect(await pool.nextNonce(addr(alice))).toBe(1n)
    expect(
      pool
        .executable(1n)
        .map((p) => `${p.senderHex === alice.address.toLowerCase() ? 'alice' : 'bob'}:${p.nonce}`)
        .sort(),
    ).toEqual(['alice:0', 'bob:0'])
    expect(await pool.add(await ptx(alice, 1))).toBe(true)
    expect(contents(pool).pending).toEqual(['alice:0', 'alice:1', 'alice:2', 'alice:3', 'bob:0'])
    expect(await pool.nextNonce(addr(alice))).toBe(4n)
  })

  it("dropping a sender's last transaction leaves its nonce to the state", async () => {
    setNonce(alice, 4n)
    const p = await ptx(alice, 4)
    await pool.add(p)
    pool.drop(p.hash)
    expect(pool.size).toEqual({ pending: 0, queued: 0 })
    setNonce(alice, 6n)
    expect(await pool.nextNonce(addr(alice))).toBe(6n)
  })
})

function addr(w: Wallet): Address {
  return createAddressFromString(w.address)
}

import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transaction, Wallet, id as keccakText } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, poll, sign } from '../helpers/chain.js'
import { assertBuilt, batchAt, exited, rpcAt, startChild, stopChild, type ChildNode } from '../helpers/childNode.js'

/*
 * docs/SECURITY.md, D-a/D-b/D-c: kill -9 the real node (dist/src/main.js) in the middle of a stream of
 * signed transfers, ten times on one data directory. Every receipt the node returned must be
 * there after the restart, in the same block; each sender's mined transactions are a prefix of
 * what it sent; the recipients hold exactly what the mined transfers paid them; the chain goes on.
 */

const ROUNDS = 10
/** Senders streaming in parallel: ewoq and three wallets it funds first (fixed keys). */
const SENDERS = [ewoq, ...[1, 2, 3].map((i) => new Wallet(keccakText(`crash-test-sender-${i}`)))]
const RECIPIENTS = [1, 2, 3, 4, 5].map((i) => new Wallet(keccakText(`crash-test-recipient-${i}`)).address)
const PER_SENDER = 40

interface Sent {
  raw: string
  hash: string
  value: bigint
  nonce: number
}

describe('kill -9 mid-stream, ten times on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-crash-'))
  const procs: ChildProcess[] = []
  beforeAll(assertBuilt)
  afterAll(async () => {
    for (const p of procs) await stopChild(p)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('every returned receipt survives, balances match the mined transfers, the chain continues', async () => {
    let node: ChildNode = await startChild(dataDir)
    procs.push(node.proc)
    // Fund the other senders once (not counted as recipient transfers).
    for (const [i, w] of SENDERS.slice(1).entries()) {
      const raw = await sign({ nonce: i, to: w.address, value: 10n ** 21n }, ewoq)
      await rpcAt(node.url, 'eth_sendRawTransaction', [raw])
    }
    await poll(async () => (BigInt(await rpcAt(node.url, 'eth_getBalance', [SENDERS[3]!.address, 'latest'])) > 0n ? true : null), 'funded senders')

    /** Wei the mined transfers paid the recipients, over all rounds. */
    let paid = 0n
    let minedAll = 0
    let value = 1n
    const recordedAll = new Map<string, any>()
    const stats: number[] = []
    /** The previous round's streams and start nonces, checked after the restart. */
    let last: { streams: Sent[][]; nonces: string[] } | undefined
    for (let round = 0; round <= ROUNDS; round++) {
      if (round > 0) {
        node = await startChild(dataDir)
        procs.push(node.proc)
      }
      // Every receipt the node ever returned is still there, unchanged (same block hash and number).
      const hashes = [...recordedAll.keys()]
      const now = await batchAt(
        node.url,
        hashes.map((h) => ['eth_getTransactionReceipt', [h]]),
      )
      now.forEach((r, i) => expect(r, `receipt of ${hashes[i]}`).toEqual(recordedAll.get(hashes[i]!)))
      // Head: its parent link and at least as high as the highest block a receipt named.
      const head = Number(await rpcAt(node.url, 'eth_blockNumber'))
      const highest = Math.max(0, ...[...recordedAll.values()].map((r) => Number(r.blockNumber)))
      expect(head).toBeGreaterThanOrEqual(highest)
      const [top, parent] = await batchAt(node.url, [
        ['eth_getBlockByNumber', ['0x' + head.toString(16), false]],
        ['eth_getBlockByNumber', ['0x' + Math.max(0, head - 1).toString(16), false]],
      ])
      if (head > 0) expect(top.parentHash).toBe(parent.hash)
      // Per sender, the mined transactions are a prefix of what it streamed before the kill.
      if (last !== undefined) {
        const after = await batchAt(
          node.url,
          SENDERS.map((w) => ['eth_getTransactionCount', [w.address, 'latest']]),
        )
        for (const [s, stream] of last.streams.entries()) {
          const mined = Number(after[s]) - Number(last.nonces[s])
          expect(mined).toBeGreaterThanOrEqual(0)
          const receipts = await batchAt(
            node.url,
            stream.map((tx) => ['eth_getTransactionReceipt', [tx.hash]]),
          )
          receipts.forEach((r, k) => {
            expect(r === null, `sender ${s} tx ${k}: mined ${mined}`).toBe(k >= mined)
            if (r !== null) {
              expect(r.status).toBe('0x1')
              paid += last!.streams[s]![k]!.value
              minedAll++
            }
          })
        }
      }
      // Balances: the recipients hold exactly what the mined transfers paid.
      const balances = await batchAt(
        node.url,
        RECIPIENTS.map((a) => ['eth_getBalance', [a, 'latest']]),
      )
      expect(balances.reduce((s: bigint, b: string) => s + BigInt(b), 0n)).toBe(paid)
      if (round === ROUNDS) break

      // Pre-sign a stream per sender with explicit nonces from the recovered state.
      const nonces = await batchAt(
        node.url,
        SENDERS.map((w) => ['eth_getTransactionCount', [w.address, 'latest']]),
      )
      const streams: Sent[][] = SENDERS.map(() => [])
      for (const [s, w] of SENDERS.entries()) {
        for (let k = 0; k < PER_SENDER; k++) {
          const nonce = Number(nonces[s]) + k
          const v = value++
          const raw = await sign({ nonce, to: RECIPIENTS[(s + k) % RECIPIENTS.length], value: v }, w)
          streams[s]!.push({ raw, hash: Transaction.from(raw).hash!, value: v, nonce })
        }
      }
      // The chain continues: the first transfer of the round is mined on top of the recovered head.
      const firstHash = await rpcAt(node.url, 'eth_sendRawTransaction', [streams[0]![0]!.raw])
      const first = await poll(() => rpcAt(node.url, 'eth_getTransactionReceipt', [firstHash]), 'receipt after restart')
      expect(Number(first.blockNumber)).toBeGreaterThan(head)
      recordedAll.set(firstHash, first)

      // Stream: each sender sends, waits for its receipt, records it; kill -9 after `target` receipts.
      const target = 12 + ((round * 7) % 23)
      let recorded = 1
      let killed = false
      const kill = (): void => {
        if (killed) return
        killed = true
        node.proc.kill('SIGKILL')
      }
      await Promise.all(
        streams.map(async (stream, s) => {
          for (const tx of stream.slice(s === 0 ? 1 : 0)) {
            if (killed) return
            try {
              const hash = await rpcAt(node.url, 'eth_sendRawTransaction', [tx.raw])
              expect(hash).toBe(tx.hash)
              const receipt = await poll(() => rpcAt(node.url, 'eth_getTransactionReceipt', [hash]), 'receipt', 10_000)
              if (killed) return // answered after the kill was decided: not counted as returned before it
              recordedAll.set(hash, receipt)
              if (++recorded >= target) kill()
            } catch (err) {
              if (killed) return // the node is gone
              throw err
            }
          }
        }),
      )
      kill()
      await exited(node.proc)
      expect(node.proc.signalCode).toBe('SIGKILL')
      stats.push(recorded)
      last = { streams, nonces }
    }
    // Receipts recorded before each kill, per round (the first of each round included).
    if (process.env.CRASH_VERBOSE !== undefined) console.log(`receipts returned before each kill: ${stats.join(' ')}; ${recordedAll.size} receipts recorded, ${minedAll} streamed transfers mined`)
    expect(stats).toHaveLength(ROUNDS)
    expect(recordedAll.size).toBeGreaterThanOrEqual(ROUNDS * 12)
    // Eleven starts of the built node: a bound on the test's time, which a loaded machine stretches.
  }, 180_000)
})

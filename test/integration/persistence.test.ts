import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet } from 'ethers'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deploy, ewoq, iface, poll, send, sign } from '../helpers/chain.js'
import { assertBuilt, exited, rpcAt, startChild, stopChild } from '../helpers/childNode.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

const GENESIS_BALANCE = 0x295be96e64066972000000n

describe('restart on the same data directory (SIGTERM-style stop)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-persist-'))
  let node: TestNode
  afterAll(async () => {
    await node?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps head, blocks, transactions, receipts, balances, nonces, code and storage', async () => {
    node = await startTestNode({ dataDir })
    const bob = Wallet.createRandom().address
    const probe = await deploy(node, 'Probe')
    const hashes = [probe.hash]
    hashes.push((await send(node, { to: bob, value: 123n })).hash)
    hashes.push((await send(node, { to: probe.address, data: iface('Probe').encodeFunctionData('set', [99n]), gasLimit: 100_000n, type: 1 })).hash)
    hashes.push((await send(node, { to: bob, value: 456n, type: 0 })).hash)
    const snapshot = async () => {
      const head = await node.call('eth_blockNumber')
      const blocks = []
      for (let n = 0; n <= Number(head); n++) blocks.push(await node.call('eth_getBlockByNumber', ['0x' + n.toString(16), true]))
      return {
        head,
        blocks,
        latest: await node.call('eth_getBlockByNumber', ['latest', false]),
        txs: await Promise.all(hashes.map((h) => node.call('eth_getTransactionByHash', [h]))),
        receipts: await Promise.all(hashes.map((h) => node.call('eth_getTransactionReceipt', [h]))),
        blockReceipts: await node.call('eth_getBlockReceipts', ['latest']),
        balances: [await node.call('eth_getBalance', [bob, 'latest']), await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']), await node.call('eth_getBalance', [bob, '0x2'])],
        nonces: [await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']), await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'pending'])],
        code: await node.call('eth_getCode', [probe.address, 'latest']),
        storage: await node.call('eth_getStorageAt', [probe.address, '0x0', 'latest']),
        call: await node.call('eth_call', [{ to: probe.address, data: iface('Probe').encodeFunctionData('stored') }, 'latest']),
        baseFee: await node.call('eth_feeHistory', ['0x4', 'latest', [50]]),
      }
    }
    const before = await snapshot()
    expect(before.head).toBe('0x4')
    expect(before.balances[0]).toBe('0x243') // 123 + 456
    await node.stop()

    node = await startTestNode({ dataDir })
    const after = await snapshot()
    expect(after).toEqual(before)
    // The chain goes on from the same head and nonce.
    const next = await send(node, { to: bob, value: 1n })
    expect(next.receipt.blockNumber).toBe('0x5')
    expect((await node.call('eth_getBlockByNumber', ['0x5', false])).parentHash).toBe(before.latest.hash)
  })
})

describe('kill -9 in the middle of a stream of transactions', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-kill9-'))
  const children: ChildProcess[] = []
  // `npm test` runs `pretest` (tsc) first, so dist/ is the compiled current source.
  beforeAll(assertBuilt)
  afterEach(async () => {
    for (const c of children.splice(0)) await stopChild(c)
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('every receipt returned before the kill survives; head and state are consistent', async () => {
    const first = await startChild(dataDir)
    children.push(first.proc)
    const bob = Wallet.createRandom().address
    const raws: string[] = []
    for (let n = 0; n < 400; n++) raws.push(await sign({ nonce: n, to: bob, value: BigInt(n + 1) }, ewoq))
    const hashes: string[] = []
    const recorded = new Map<string, any>()
    let killed = false
    const sender = (async () => {
      for (const raw of raws) {
        if (killed) return
        try {
          hashes.push(await rpcAt(first.url, 'eth_sendRawTransaction', [raw]))
        } catch {
          return // the node is gone
        }
      }
    })()
    const deadline = Date.now() + 90_000
    for (let i = 0; !killed && Date.now() < deadline; ) {
      const hash = hashes[i]
      const receipt = hash === undefined ? null : await rpcAt(first.url, 'eth_getTransactionReceipt', [hash]).catch(() => null)
      if (receipt === null) {
        await new Promise((r) => setTimeout(r, 2))
        continue
      }
      recorded.set(hash!, receipt)
      i++
      if (recorded.size === 60) {
        first.proc.kill('SIGKILL')
        killed = true
      }
    }
    await sender
    await exited(first.proc)
    expect(killed).toBe(true)
    expect(first.proc.signalCode).toBe('SIGKILL')

    const second = await startChild(dataDir)
    children.push(second.proc)
    const head = Number(await rpcAt(second.url, 'eth_blockNumber'))
    const lastRecorded = Math.max(...[...recorded.values()].map((r) => Number(r.blockNumber)))
    expect(head).toBeGreaterThanOrEqual(lastRecorded)
    for (const [hash, receipt] of recorded) {
      expect(await rpcAt(second.url, 'eth_getTransactionReceipt', [hash])).toEqual(receipt)
    }
    // Walk the chain: parent links, and the state equals what the mined transactions imply.
    let parent = (await rpcAt(second.url, 'eth_getBlockByNumber', ['0x0', false])).hash
    let mined = 0
    let received = 0n
    let spent = 0n
    for (let n = 1; n <= head; n++) {
      const block = await rpcAt(second.url, 'eth_getBlockByNumber', ['0x' + n.toString(16), true])
      expect(block.parentHash).toBe(parent)
      parent = block.hash
      const receipts = await rpcAt(second.url, 'eth_getBlockReceipts', [block.hash])
      expect(receipts).toHaveLength(block.transactions.length)
      for (let i = 0; i < receipts.length; i++) {
        expect(BigInt(block.transactions[i].nonce)).toBe(BigInt(mined))
        mined++
        received += BigInt(block.transactions[i].value)
        spent += BigInt(block.transactions[i].value) + BigInt(receipts[i].gasUsed) * BigInt(receipts[i].effectiveGasPrice)
      }
    }
    expect(mined).toBeGreaterThanOrEqual(recorded.size)
    expect(await rpcAt(second.url, 'eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])).toBe('0x' + mined.toString(16))
    expect(BigInt(await rpcAt(second.url, 'eth_getBalance', [bob, 'latest']))).toBe(received)
    expect(BigInt(await rpcAt(second.url, 'eth_getBalance', [EWOQ_ADDRESS, 'latest']))).toBe(GENESIS_BALANCE - spent)
    // And it keeps going: the next nonce is accepted and mined on top of the recovered head.
    const hash = await rpcAt(second.url, 'eth_sendRawTransaction', [raws[mined]])
    const receipt = await poll(() => rpcAt(second.url, 'eth_getTransactionReceipt', [hash]), 'receipt after restart')
    expect(Number(receipt.blockNumber)).toBe(head + 1)
    // Bounds on the test's time (the stream's 60 receipts, two starts), which a loaded machine stretches.
  }, 180_000)
})

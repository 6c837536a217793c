import { createServer } from 'node:net'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, poll, sign } from '../helpers/chain.js'
import { type ChildNode, assertBuilt, rpcAt, startChild } from '../helpers/childNode.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { type TestNode, startTestNode } from '../helpers/testNode.js'

const tempDir = tempDirs('cchain-fork-life-')

/** A port free now, so the origin can be stopped and started again at the same URL. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * A fork's life (issue 16): restarts that fetch nothing again, an origin that goes away (clear
 * errors, nothing wrong kept, a waiting transaction mined once it is back), anvil_reset back to the
 * fork block or to another one, snapshots and state edits on a fork.
 */
describe('fork: restart, an origin that goes away, the development controls', () => {
  const originDir = tempDir()
  const forkDir = tempDir()
  let port: number
  let origin: ChildNode
  let url: string
  let b: TestNode
  let n: bigint
  const known = Wallet.createRandom().address
  const unread = Wallet.createRandom().address
  const startOrigin = async () => {
    origin = await startChild(originDir, ['--http-port', String(port)])
    url = origin.url
  }
  const stopOrigin = async () => {
    const exited = new Promise((resolve) => origin.proc.once('exit', resolve))
    origin.proc.kill()
    await exited
  }
  const startFork = () => startTestNode({ dataDir: forkDir, chain: { 'fork-url': url, 'fork-block-number': Number(n) } })
  const mineOn = async (target: string, raw: string) => {
    const hash = await rpcAt(target, 'eth_sendRawTransaction', [raw])
    return poll(() => rpcAt(target, 'eth_getTransactionReceipt', [hash]), `receipt of ${hash}`)
  }

  beforeAll(async () => {
    assertBuilt()
    port = await freePort()
    await startOrigin()
    await mineOn(url, await sign({ to: known, value: 777n, nonce: 0 }))
    await mineOn(url, await sign({ to: unread, value: 888n, nonce: 1 }))
    n = BigInt(await rpcAt(url, 'eth_blockNumber'))
    b = await startFork()
  })

  afterAll(async () => {
    await b?.stop()
    if (origin?.proc.exitCode === null) origin.proc.kill()
    tempDir.removeAll()
  })

  it('restarts without the origin and answers what it read before, with the same block N', async () => {
    expect(BigInt(await b.call('eth_getBalance', [known, 'latest']))).toBe(777n)
    expect(BigInt(await b.call('eth_getTransactionCount', [ewoq.address, 'latest']))).toBe(2n)
    const hash = (await b.call('eth_getBlockByNumber', ['latest', false])).hash
    await b.stop()
    await stopOrigin()
    b = await startFork()
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    expect((await b.call('eth_getBlockByNumber', ['latest', false])).hash).toBe(hash)
    expect(BigInt(await b.call('eth_getBalance', [known, 'latest']))).toBe(777n)
    expect(BigInt(await b.call('eth_getBalance', [known, `0x${n.toString(16)}`]))).toBe(777n)
  })

  it('answers a read it cannot fetch with an error naming the origin, and keeps no answer', async () => {
    const answer = await b.rpc('eth_getBalance', [unread, 'latest'])
    expect(answer.error?.code).toBe(-32000)
    expect(answer.error?.message).toContain(`fork origin http://127.0.0.1:${port} is unreachable`)
    // The node keeps serving what it has.
    expect(BigInt(await b.call('eth_getBalance', [known, 'latest']))).toBe(777n)
  })

  it('keeps a transaction whose block needs the origin until the origin is back, then mines it', async () => {
    const raw = await sign({ to: unread, value: 5n, nonce: 2 })
    const hash = await b.call('eth_sendRawTransaction', [raw])
    expect((await b.call('eth_getTransactionByHash', [hash]))?.blockNumber).toBeNull()
    await startOrigin()
    const receipt = await poll(() => b.call('eth_getTransactionReceipt', [hash]), 'the receipt once the origin is back', 20_000)
    expect(BigInt(receipt.blockNumber)).toBe(n + 1n)
    expect(BigInt(await b.call('eth_getBalance', [unread, 'latest']))).toBe(893n)
    expect(BigInt(await rpcAt(url, 'eth_getBalance', [unread, 'latest']))).toBe(888n)
  })

  it("refuses to open a fork's data directory without its origin, and a fork of another block", async () => {
    await b.stop()
    await expect(startTestNode({ dataDir: forkDir })).rejects.toThrow(/holds a fork .*--fork-url/)
    await expect(startTestNode({ dataDir: forkDir, chain: { 'fork-url': url, 'fork-block-number': Number(n) - 1 } })).rejects.toThrow(/fork of block/)
    b = await startFork()
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n + 1n)
  })

  it('snapshots, state edits and anvil_reset work on a fork', async () => {
    const id = await b.call('evm_snapshot')
    const fresh = Wallet.createRandom().address
    await b.call('anvil_setBalance', [fresh, '0x1234'])
    await b.call('anvil_setBalance', [known, '0x10'])
    expect(BigInt(await b.call('eth_getBalance', [fresh, 'latest']))).toBe(0x1234n)
    expect(await b.call('evm_revert', [id])).toBe(true)
    expect(BigInt(await b.call('eth_getBalance', [fresh, 'latest']))).toBe(0n)
    expect(BigInt(await b.call('eth_getBalance', [known, 'latest']))).toBe(777n)
    // Back to the fork block: the local block is gone, the origin's state at N is back.
    expect(await b.call('anvil_reset', [])).toBeNull()
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    expect(BigInt(await b.call('eth_getBalance', [unread, 'latest']))).toBe(888n)
    // Another fork block of the same origin (anvil's `forking`), then a new origin URL for the same chain.
    expect(await b.call('anvil_reset', [{ forking: { blockNumber: Number(n) - 1 } }])).toBeNull()
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n - 1n)
    expect((await b.call('eth_getBlockByNumber', ['latest', false])).hash).toBe((await rpcAt(url, 'eth_getBlockByNumber', [`0x${(n - 1n).toString(16)}`, false])).hash)
    expect(BigInt(await b.call('eth_getBalance', [unread, 'latest']))).toBe(0n)
    expect(await b.call('hardhat_reset', [{ forking: { jsonRpcUrl: url } }])).toBe(true)
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    expect(BigInt(await b.call('eth_getBalance', [unread, 'latest']))).toBe(888n)
  })
})

describe('fork: an origin that no longer serves the state at N', () => {
  it("answers reads with the origin's refusal, naming the origin and the block, and never a made-up value", async () => {
    // A pruning origin keeps the state of its last 2 blocks only.
    const a = await startTestNode({ chain: { 'pruning-enabled': true, 'state-history': 2 } })
    try {
      const to = Wallet.createRandom().address
      for (let nonce = 0; nonce < 6; nonce++) {
        const hash = await a.call('eth_sendRawTransaction', [await sign({ to, value: 1n, nonce })])
        await poll(() => a.call('eth_getTransactionReceipt', [hash]), 'receipt')
      }
      const b = await startTestNode({ chain: { 'fork-url': a.url, 'fork-block-number': 1 } })
      try {
        const answer = await b.rpc('eth_getBalance', [to, 'latest'])
        expect(answer.result).toBeUndefined()
        expect(answer.error?.code).toBe(-32000)
        expect(answer.error?.message).toMatch(
          new RegExp(`^fork origin ${a.url.replace(/\/ext.*/, '').replace(/\./g, '\\.')} does not serve eth_getProof at block 1: historical proof query not allowed`),
        )
      } finally {
        await b.stop()
      }
    } finally {
      await a.stop()
    }
  })
})

import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ewoq, sign, waitReceipt } from '../helpers/chain.js'
import { type ChildNode, assertBuilt, startChild } from '../helpers/childNode.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { SLOT_WRITER_INIT, slotWrites } from '../helpers/slotWriter.js'
import { GRANITE, type TestNode, startTestNode } from '../helpers/testNode.js'

const tempDir = tempDirs('cchain-fork-')

type Node = Pick<TestNode, 'url' | 'call' | 'rpc'>

/** A child process node as the helpers take it (its own process: no trie node is shared with B's). */
function asNode(child: ChildNode): Node {
  const rpc = async (method: string, params: unknown = []) => {
    const res = await fetch(child.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return (await res.json()) as any
  }
  return {
    url: child.url,
    rpc,
    async call(method: string, params: unknown[] = []) {
      const answer = await rpc(method, params)
      if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
      return answer.result
    },
  }
}

/**
 * A fork of this node (issue 16): node A (a child process) is the origin; B forks it at block N. B's state at N is
 * A's, read through the trie A's header commits to; after N the same transactions sent to both
 * must give both the same state root (B's trie, partly fetched from A, is the whole state's).
 */
describe('fork: state of a fork of this node', () => {
  let origin: ChildNode
  let a: Node
  let b: TestNode
  let n: bigint
  let writer: string
  const holders = Array.from({ length: 40 }, () => Wallet.createRandom().address)

  /** Sends one raw transaction to a node and waits for its receipt. */
  async function mine(node: Node, raw: string): Promise<any> {
    const hash = await node.call('eth_sendRawTransaction', [raw])
    const receipt = await waitReceipt(node as TestNode, hash)
    expect(receipt.status).toBe('0x1')
    return receipt
  }

  /** The same signed transaction mined on B, then on A: both blocks must commit to the same state. */
  async function sameOnBoth(tx: Record<string, unknown>): Promise<void> {
    const nonce = Number(await b.call('eth_getTransactionCount', [ewoq.address, 'latest']))
    const raw = await sign({ gasLimit: 3_000_000n, ...tx, nonce })
    const rb = await mine(b, raw)
    const ra = await mine(a, raw)
    const [blockA, blockB] = await Promise.all([a.call('eth_getBlockByHash', [ra.blockHash, false]), b.call('eth_getBlockByHash', [rb.blockHash, false])])
    expect(blockB.stateRoot).toBe(blockA.stateRoot)
  }

  beforeAll(async () => {
    assertBuilt()
    // Granite on both: the test compares each block's header stateRoot, its own post-state only before Helicon.
    origin = await startChild(tempDir(), ['--hardfork', 'granite'])
    a = asNode(origin)
    // A's state: many accounts (a deeper account trie) and a contract with 300 slots (a deep storage trie).
    let nonce = 0
    for (const to of holders) await mine(a, await sign({ to, value: 1000n + BigInt(nonce), nonce: nonce++ }))
    const deployed = await mine(a, await sign({ data: SLOT_WRITER_INIT, gasLimit: 1_000_000n, nonce: nonce++ }))
    writer = deployed.contractAddress
    const slots = Array.from({ length: 300 }, (_, i): [bigint, bigint] => [BigInt(i + 1), BigInt(i + 1) * 7n])
    for (let i = 0; i < slots.length; i += 100) await mine(a, await sign({ to: writer, data: slotWrites(slots.slice(i, i + 100)), gasLimit: 5_000_000n, nonce: nonce++ }))
    n = BigInt(await a.call('eth_blockNumber'))
    b = await startTestNode({ chain: { ...GRANITE, 'fork-url': a.url, 'fork-block-number': Number(n) } })
  })

  afterAll(async () => {
    await b?.stop()
    origin?.proc.kill()
    tempDir.removeAll()
  })

  it("answers the origin's chain ID, and block N as its head with N's hash and state root", async () => {
    expect(await b.call('eth_chainId')).toBe(await a.call('eth_chainId'))
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    const [blockA, blockB] = await Promise.all([a.call('eth_getBlockByNumber', ['latest', false]), b.call('eth_getBlockByNumber', ['latest', false])])
    expect(blockB.hash).toBe(blockA.hash)
    expect(blockB.stateRoot).toBe(blockA.stateRoot)
  })

  it('answers balances, nonces, code, storage, calls and proofs at N exactly as the origin', async () => {
    const tag = `0x${n.toString(16)}`
    const asks: [string, unknown[]][] = [
      ['eth_getProof', [writer, ['0x1', '0x2a', '0x999'], tag]],
      ['eth_getBalance', [ewoq.address, tag]],
      ['eth_getTransactionCount', [ewoq.address, tag]],
      ['eth_getBalance', [holders[7], 'latest']],
      ['eth_getBalance', [Wallet.createRandom().address, tag]],
      ['eth_getCode', [writer, tag]],
      ['eth_getStorageAt', [writer, '0x5', tag]],
      ['eth_getStorageAt', [writer, '0x12c', 'latest']],
      ['eth_getStorageAt', [writer, '0x999', tag]],
      ['eth_call', [{ to: writer, data: slotWrites([[1n, 2n]]) }, tag]],
      ['eth_getProof', [writer, ['0x1', '0x2a', '0x999'], tag]],
      ['eth_getProof', [holders[3], [], tag]],
      ['eth_getProof', [Wallet.createRandom().address, [], tag]],
    ]
    for (const [method, params] of asks) {
      const [fromA, fromB] = await Promise.all([a.rpc(method, params), b.rpc(method, params)])
      expect({ method, params, result: fromB.result, error: fromB.error }).toEqual({ method, params, result: fromA.result, error: fromA.error })
    }
  })

  it('a transfer on the fork mines N+1 there and changes nothing on the origin', async () => {
    const to = Wallet.createRandom().address
    const raw = await sign({ to, value: 12345n, nonce: Number(await b.call('eth_getTransactionCount', [ewoq.address, 'latest'])) })
    const receipt = await mine(b, raw)
    expect(BigInt(receipt.blockNumber)).toBe(n + 1n)
    expect(BigInt(await b.call('eth_getBalance', [to, 'latest']))).toBe(12345n)
    expect(BigInt(await a.call('eth_getBalance', [to, 'latest']))).toBe(0n)
    expect(BigInt(await a.call('eth_blockNumber'))).toBe(n)
    // Bring A level again: the same transaction, so the next tests start from one state on both.
    await mine(a, raw)
  })

  it('after N, the same transactions give the same state roots: transfers, new slots, cleared slots (the trie folds)', async () => {
    await sameOnBoth({ to: holders[0], value: 1n })
    await sameOnBoth({ to: Wallet.createRandom().address, value: 2n })
    // Clearing slots removes leaves: branches left with one child fold into it, which needs nodes no read fetched.
    await sameOnBoth({ to: writer, data: slotWrites(Array.from({ length: 120 }, (_, i): [bigint, bigint] => [BigInt(2 * i + 1), 0n])), gasLimit: 5_000_000n })
    await sameOnBoth({
      to: writer,
      data: slotWrites([
        [1000n, 1n],
        [2n, 0n],
        [4n, 5n],
      ]),
      gasLimit: 1_000_000n,
    })
    const tag = 'latest'
    for (const slot of ['0x1', '0x2', '0x4', '0x3e8', '0x64']) {
      expect(await b.call('eth_getStorageAt', [writer, slot, tag])).toBe(await a.call('eth_getStorageAt', [writer, slot, tag]))
    }
    const [proofA, proofB] = await Promise.all([a.call('eth_getProof', [writer, ['0x4', '0x3'], tag]), b.call('eth_getProof', [writer, ['0x4', '0x3'], tag])])
    expect(proofB).toEqual(proofA)
  })

  it('an extra EVM chain forks its own origin (its chain config keys)', async () => {
    const genesisFile = fileURLToPath(new URL('../../config/local-genesis.json', import.meta.url))
    // This node's C-Chain gets a chain ID of its own; the extra chain's comes from its origin.
    const cGenesis = join(tempDir(), 'c-genesis.json')
    const local = JSON.parse(readFileSync(genesisFile, 'utf8'))
    writeFileSync(cGenesis, JSON.stringify({ ...local, config: { ...local.config, chainId: 43199 } }))
    const node = await startTestNode({ config: { genesisFile: cGenesis, evmChains: [{ name: 'forked', genesisFile, chain: { 'fork-url': a.url, 'fork-block-number': Number(n) } }] } })
    try {
      const extra = node.url.replace('/ext/bc/C/rpc', '/ext/bc/forked/rpc')
      const ask = async (method: string, params: unknown[]) =>
        (await (await fetch(extra, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as any
      const tag = `0x${n.toString(16)}`
      expect((await ask('eth_getBlockByNumber', [tag, false])).result.hash).toBe((await a.call('eth_getBlockByNumber', [tag, false])).hash)
      expect((await ask('eth_getStorageAt', [writer, '0x7', tag])).result).toBe(await a.call('eth_getStorageAt', [writer, '0x7', tag]))
      // The C-Chain of that node is a chain of its own.
      expect(await node.call('eth_blockNumber')).toBe('0x0')
      expect((await ask('eth_chainId', [])).result).toBe(await a.call('eth_chainId'))
    } finally {
      await node.stop()
    }
  })
})

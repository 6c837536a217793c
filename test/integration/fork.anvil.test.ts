import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EWOQ_ADDRESS } from '../helpers/constants.js'
import { poll } from '../helpers/chain.js'
import { rpcAt } from '../helpers/childNode.js'
import { ANVIL_KEY, type Anvil, startAnvil } from '../helpers/anvil.js'
import { SLOT_WRITER_INIT, slotWrites } from '../helpers/slotWriter.js'
import { type TestNode, startTestNode } from '../helpers/testNode.js'

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`

/**
 * A fork of anvil (issue 16): an Ethereum node's chain, whose blocks have none of Avalanche's
 * header fields. The fork answers anvil's chain ID, blocks and state at N, proofs included, and
 * builds its own blocks after N with this node's rules; anvil never sees them.
 */
describe('fork: a fork of anvil', () => {
  let anvil: Anvil
  let b: TestNode
  let n: bigint
  let writer: string
  const deployer = new Wallet(ANVIL_KEY)
  const holders = Array.from({ length: 12 }, () => Wallet.createRandom().address)

  async function mineOnAnvil(tx: { to?: string; value?: bigint; data?: string; gasLimit?: bigint }, nonce: number): Promise<any> {
    const raw = await deployer.signTransaction({ chainId: 31337n, nonce, gasLimit: 1_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 2, ...tx })
    const hash = await rpcAt(anvil.url, 'eth_sendRawTransaction', [raw])
    return poll(() => rpcAt(anvil.url, 'eth_getTransactionReceipt', [hash]), `anvil receipt of ${hash}`)
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    let nonce = 0
    for (const to of holders) await mineOnAnvil({ to, value: 10n ** 15n + BigInt(nonce) }, nonce++)
    writer = (await mineOnAnvil({ data: SLOT_WRITER_INIT }, nonce++)).contractAddress
    await mineOnAnvil({ to: writer, data: slotWrites(Array.from({ length: 40 }, (_, i): [bigint, bigint] => [BigInt(i), BigInt(i) + 100n])) }, nonce++)
    n = BigInt(await rpcAt(anvil.url, 'eth_blockNumber'))
    b = await startTestNode({ chain: { 'fork-url': anvil.url } })
  })

  afterAll(async () => {
    await b?.stop()
    await anvil?.stop()
  })

  it("answers anvil's chain ID, and its block N, hash and state root, as the head", async () => {
    expect(await b.call('eth_chainId')).toBe('0x7a69')
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    const tag = `0x${n.toString(16)}`
    const [fromAnvil, fromFork] = await Promise.all([rpcAt(anvil.url, 'eth_getBlockByNumber', [tag, true]), b.call('eth_getBlockByNumber', [tag, true])])
    expect(fromFork).toEqual(fromAnvil)
    expect((await b.call('eth_getBlockByNumber', ['0x1', false])).hash).toBe((await rpcAt(anvil.url, 'eth_getBlockByNumber', ['0x1', false])).hash)
  })

  it('answers the state at N exactly as anvil: balances, nonces, code, storage, calls, proofs; and no local genesis allocation', async () => {
    const tag = `0x${n.toString(16)}`
    const asks: [string, unknown[]][] = [
      ['eth_getBalance', [deployer.address, tag]],
      ['eth_getTransactionCount', [deployer.address, tag]],
      ['eth_getBalance', [holders[4], tag]],
      // The local network's funded key is not funded on a fork (its genesis allocation is not applied).
      ['eth_getBalance', [EWOQ_ADDRESS, tag]],
      ['eth_getCode', [writer, tag]],
      ['eth_getStorageAt', [writer, '0x7', tag]],
      ['eth_getStorageAt', [writer, '0x777', tag]],
      ['eth_call', [{ to: writer, data: slotWrites([[1n, 2n]]) }, tag]],
      ['eth_getProof', [holders[2], [], tag]],
      // anvil takes storage keys as 32-byte words only.
      ['eth_getProof', [writer, [word(3n), word(0x27n), word(0x999n)], tag]],
    ]
    for (const [method, params] of asks) {
      const fromAnvil = await rpcAt(anvil.url, method, params)
      expect({ method, params, answer: await b.call(method, params) }).toEqual({ method, params, answer: fromAnvil })
    }
    expect(BigInt(await b.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))).toBe(0n)
    // An absent account: the same proof nodes; its hashes are geth's zero hashes here, where anvil gives the empty code and trie hashes.
    const absent = Wallet.createRandom().address
    const [anvilProof, forkProof] = await Promise.all([rpcAt(anvil.url, 'eth_getProof', [absent, [], tag]), b.call('eth_getProof', [absent, [], tag])])
    expect(forkProof.accountProof).toEqual(anvilProof.accountProof)
    expect([forkProof.balance, forkProof.nonce, forkProof.codeHash, forkProof.storageHash]).toEqual(['0x0', '0x0', `0x${'0'.repeat(64)}`, `0x${'0'.repeat(64)}`])
  })

  it('a transfer on the fork mines N+1 on the fork, on top of N, and changes nothing on anvil', async () => {
    const to = Wallet.createRandom().address
    const nonce = Number(await b.call('eth_getTransactionCount', [deployer.address, 'latest']))
    const raw = await deployer.signTransaction({ chainId: 31337n, nonce, to, value: 4242n, gasLimit: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 2 })
    const hash = await b.call('eth_sendRawTransaction', [raw])
    const receipt = await poll(() => b.call('eth_getTransactionReceipt', [hash]), 'the receipt on the fork')
    expect(receipt.status).toBe('0x1')
    expect(BigInt(receipt.blockNumber)).toBe(n + 1n)
    const block = await b.call('eth_getBlockByNumber', ['latest', false])
    expect(block.parentHash).toBe((await rpcAt(anvil.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash)
    expect(BigInt(await b.call('eth_getBalance', [to, 'latest']))).toBe(4242n)
    expect(BigInt(await rpcAt(anvil.url, 'eth_getBalance', [to, 'latest']))).toBe(0n)
    expect(BigInt(await rpcAt(anvil.url, 'eth_blockNumber'))).toBe(n)
    // The proof of the new block's state leads to its header's state root.
    const proof = await b.call('eth_getProof', [to, [], 'latest'])
    expect(proof.balance).toBe('0x1092')
    expect(proof.accountProof.length).toBeGreaterThan(0)
  })
})

import { Wallet, keccak256 } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANVIL_KEY, type Anvil, startAnvil } from '../helpers/anvil.js'
import { poll } from '../helpers/chain.js'
import { rpcAt } from '../helpers/childNode.js'
import { SLOT_WRITER_INIT, slotWrites } from '../helpers/slotWriter.js'
import { type TestNode, startTestNode } from '../helpers/testNode.js'

const CHAIN_ID = 4242
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`
const hex = (n: bigint) => `0x${n.toString(16)}`

/**
 * A fork of anvil at a block below its head (issue 16: `--fork-block-number N`): anvil moves on after N
 * (balances, a slot, a new contract), and the fork answers N's state, not anvil's latest, exactly as
 * anvil answers at N, proofs included; anvil's blocks after N are not the fork's.
 */
describe('fork: a fork of anvil at a block below its head', () => {
  let anvil: Anvil
  let b: TestNode
  let n: bigint
  let writer: string
  let later: string
  let nonce = 0
  const deployer = new Wallet(ANVIL_KEY)
  const holders = Array.from({ length: 4 }, () => Wallet.createRandom().address)

  async function mineOnAnvil(tx: { to?: string; value?: bigint; data?: string }): Promise<any> {
    const raw = await deployer.signTransaction({ chainId: CHAIN_ID, nonce: nonce++, gasLimit: 1_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 2, ...tx })
    const hash = await rpcAt(anvil.url, 'eth_sendRawTransaction', [raw])
    return poll(() => rpcAt(anvil.url, 'eth_getTransactionReceipt', [hash]), `anvil receipt of ${hash}`)
  }

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: CHAIN_ID })
    for (const [i, to] of holders.entries()) await mineOnAnvil({ to, value: 10n ** 15n * BigInt(i + 1) })
    writer = (await mineOnAnvil({ data: SLOT_WRITER_INIT })).contractAddress
    await mineOnAnvil({ to: writer, data: slotWrites(Array.from({ length: 10 }, (_, i): [bigint, bigint] => [BigInt(i), BigInt(i) + 500n])) })
    n = BigInt(await rpcAt(anvil.url, 'eth_blockNumber'))
    // Anvil moves on after N: another transfer, a slot rewritten, one cleared, a contract that did not exist at N.
    await mineOnAnvil({ to: holders[0], value: 7n })
    await mineOnAnvil({
      to: writer,
      data: slotWrites([
        [3n, 9999n],
        [4n, 0n],
      ]),
    })
    later = (await mineOnAnvil({ data: SLOT_WRITER_INIT })).contractAddress
    expect(BigInt(await rpcAt(anvil.url, 'eth_blockNumber'))).toBe(n + 3n)
    b = await startTestNode({ chain: { 'fork-url': anvil.url, 'fork-block-number': Number(n) } })
  })

  afterAll(async () => {
    await b?.close()
    await anvil?.stop()
  })

  it("answers anvil's chain ID and its block N as the head; anvil's N+1 is not the fork's", async () => {
    expect(await b.call('eth_chainId')).toBe(hex(BigInt(CHAIN_ID)))
    expect(BigInt(await b.call('eth_blockNumber'))).toBe(n)
    expect(await b.call('eth_getBlockByNumber', [hex(n), false])).toEqual(await rpcAt(anvil.url, 'eth_getBlockByNumber', [hex(n), false]))
    expect(await b.call('eth_getBlockByNumber', [hex(n + 1n), false])).toBeNull()
  })

  it("answers N's state at latest, as anvil answers at N and not at its head: balances, nonce, code, storage, a call, proofs", async () => {
    const atN = hex(n)
    const asks: [string, unknown[]][] = [
      ['eth_getBalance', [holders[0]]],
      ['eth_getBalance', [holders[3]]],
      ['eth_getBalance', [deployer.address]],
      ['eth_getTransactionCount', [deployer.address]],
      ['eth_getCode', [writer]],
      ['eth_getCode', [later]],
      ['eth_getStorageAt', [writer, '0x3']],
      ['eth_getStorageAt', [writer, '0x4']],
      ['eth_getStorageAt', [writer, '0x9']],
      ['eth_call', [{ to: writer, data: slotWrites([[1n, 2n]]) }]],
      ['eth_getProof', [holders[0], []]],
      ['eth_getProof', [writer, [word(3n), word(4n), word(9n), word(0x77n)]]],
    ]
    for (const [method, params] of asks) {
      const fromAnvil = await rpcAt(anvil.url, method, [...params, atN])
      expect({ method, params, answer: await b.call(method, [...params, 'latest']) }).toEqual({ method, params, answer: fromAnvil })
      expect({ method, params, answer: await b.call(method, [...params, atN]) }).toEqual({ method, params, answer: fromAnvil })
    }
    // The asks see a state anvil has since changed.
    expect(await rpcAt(anvil.url, 'eth_getStorageAt', [writer, '0x3', 'latest'])).not.toBe(await b.call('eth_getStorageAt', [writer, '0x3', 'latest']))
    expect(await rpcAt(anvil.url, 'eth_getBalance', [holders[0], 'latest'])).not.toBe(await b.call('eth_getBalance', [holders[0], 'latest']))
    expect(await rpcAt(anvil.url, 'eth_getCode', [later, 'latest'])).not.toBe('0x')
    // Anvil's proofs at N start at block N's state root (the keccak of their first node), the one the fork's head carries.
    const header = await b.call('eth_getBlockByNumber', ['latest', false])
    const proof = await rpcAt(anvil.url, 'eth_getProof', [writer, [], atN])
    expect(keccak256(proof.accountProof[0])).toBe(header.stateRoot)
    expect(header.stateRoot).toBe((await rpcAt(anvil.url, 'eth_getBlockByNumber', [atN, false])).stateRoot)
  })

  it("a transfer on the fork mines its own N+1 on N; anvil's N+1 and head stay", async () => {
    const anvilNext = await rpcAt(anvil.url, 'eth_getBlockByNumber', [hex(n + 1n), false])
    const to = Wallet.createRandom().address
    const raw = await deployer.signTransaction({
      chainId: CHAIN_ID,
      nonce: Number(await b.call('eth_getTransactionCount', [deployer.address, 'latest'])),
      to,
      value: 31n,
      gasLimit: 21_000n,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
      type: 2,
    })
    const hash = await b.call('eth_sendRawTransaction', [raw])
    const receipt = await poll(() => b.call('eth_getTransactionReceipt', [hash]), 'the receipt on the fork')
    expect(BigInt(receipt.blockNumber)).toBe(n + 1n)
    const mine = await b.call('eth_getBlockByNumber', [hex(n + 1n), false])
    expect(mine.parentHash).toBe(anvilNext.parentHash)
    expect(mine.hash).not.toBe(anvilNext.hash)
    expect(BigInt(await b.call('eth_getBalance', [to, 'latest']))).toBe(31n)
    expect(BigInt(await rpcAt(anvil.url, 'eth_getBalance', [to, 'latest']))).toBe(0n)
    expect(await rpcAt(anvil.url, 'eth_getBlockByNumber', [hex(n + 1n), false])).toEqual(anvilNext)
    expect(BigInt(await rpcAt(anvil.url, 'eth_blockNumber'))).toBe(n + 3n)
  })
})

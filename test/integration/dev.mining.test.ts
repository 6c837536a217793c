import { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { nonceOf, poll, sign, waitReceipt } from '../helpers/chain.js'
import { devNode, CAST, runFile } from '../helpers/devClients.js'
import { EWOQ_ADDRESS, type TestNode } from '../helpers/testNode.js'

const BLACKHOLE = '0x0100000000000000000000000000000000000000'
/** Runtime code that returns COINBASE as a 32-byte word. */
const COINBASE_CODE = '0x4160005260206000f3'

/** Signs and sends a transfer from ewoq without waiting for a block; returns its hash. */
async function submit(node: TestNode, extra: { maxPriorityFeePerGas?: bigint; gasLimit?: bigint } = {}): Promise<string> {
  const raw = await sign({ to: Wallet.createRandom().address, value: 1n, nonce: await nonceOf(node, EWOQ_ADDRESS), ...extra })
  return node.call('eth_sendRawTransaction', [raw])
}

const headNumber = async (node: TestNode) => Number(await node.call('eth_blockNumber'))
const block = (node: TestNode, tag: string | number = 'latest') => node.call('eth_getBlockByNumber', [typeof tag === 'number' ? `0x${tag.toString(16)}` : tag, false])

describe('mining controls: viem test client (anvil mode)', () => {
  const t = devNode('anvil')

  it('automine off: transactions wait in the pool, pending shows them, evm_mine includes them', async () => {
    const { node, client } = t
    expect(await client.getAutomine()).toBe(true)
    await client.setAutomine(false)
    expect(await client.getAutomine()).toBe(false)
    const start = await headNumber(node)
    const latestNonce = await nonceOf(node, EWOQ_ADDRESS, 'latest')
    const first = await submit(node)
    const second = await submit(node)
    expect(await nonceOf(node, EWOQ_ADDRESS, 'pending')).toBe(latestNonce + 2)
    expect(await nonceOf(node, EWOQ_ADDRESS, 'latest')).toBe(latestNonce)
    const pooled = await node.call('eth_getTransactionByHash', [first])
    expect(pooled.blockNumber).toBeNull()
    const content = await node.call('txpool_content')
    expect(Object.keys(content.pending[EWOQ_ADDRESS] ?? {})).toHaveLength(2)
    expect(await node.call('eth_getTransactionReceipt', [second])).toBeNull()
    expect(await headNumber(node)).toBe(start)

    await client.mine({ blocks: 1 })
    expect(await headNumber(node)).toBe(start + 1)
    const mined = await block(node)
    expect(mined.transactions).toEqual([first, second])
    expect((await node.call('eth_getTransactionReceipt', [second])).status).toBe('0x1')
    expect(await node.call('txpool_content')).toEqual({ pending: {}, queued: {} })

    await client.setAutomine(true)
    const hash = await submit(node)
    expect((await waitReceipt(node, hash)).blockNumber).toBe(`0x${(start + 2).toString(16)}`)
  })

  it('evm_mine mines an empty block and answers "0x0"; anvil_mine mines N blocks `interval` seconds apart', async () => {
    const { node, client } = t
    const start = await headNumber(node)
    expect(await node.call('evm_mine')).toBe('0x0')
    expect((await block(node)).transactions).toEqual([])
    expect(await headNumber(node)).toBe(start + 1)

    await client.mine({ blocks: 3, interval: 100 })
    expect(await headNumber(node)).toBe(start + 4)
    const times = await Promise.all([start + 1, start + 2, start + 3, start + 4].map(async (n) => Number((await block(node, n)).timestamp)))
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100)
      expect(times[i]! - times[i - 1]!).toBeLessThan(200)
    }
    // anvil_mine without arguments mines one block; 0 blocks mines none.
    expect(await node.call('anvil_mine')).toBeNull()
    expect(await node.call('anvil_mine', ['0x0'])).toBeNull()
    expect(await headNumber(node)).toBe(start + 5)
    // evm_mine takes anvil's options object too.
    expect(await node.call('evm_mine', [{ blocks: 2 }])).toBe('0x0')
    expect(await headNumber(node)).toBe(start + 7)
  })

  it('interval mining builds blocks on its own until switched off', async () => {
    const { node, client } = t
    await client.setIntervalMining({ interval: 1 })
    expect(await node.call('anvil_getIntervalMining')).toBe(1)
    expect(await client.getAutomine()).toBe(false)
    const start = await headNumber(node)
    await poll(async () => ((await headNumber(node)) >= start + 2 ? true : undefined), 'two interval blocks', 20_000)
    await client.setIntervalMining({ interval: 0 })
    expect(await node.call('anvil_getIntervalMining')).toBeNull()
    // Neither interval nor automine: a transaction waits for a mine call.
    const hash = await submit(node)
    expect((await node.call('eth_getTransactionByHash', [hash])).blockNumber).toBeNull()
    await client.mine({ blocks: 1 })
    expect((await node.call('eth_getTransactionReceipt', [hash])).status).toBe('0x1')
    await client.setAutomine(true)
  })

  it('anvil_setCoinbase: the header miner, COINBASE and eth_coinbase change; fees still burn', async () => {
    const { node, client } = t
    const coinbase = Wallet.createRandom().address.toLowerCase()
    const probe = Wallet.createRandom().address
    await client.setCode({ address: probe as `0x${string}`, bytecode: COINBASE_CODE })
    expect(await node.call('eth_coinbase')).toBe(BLACKHOLE)
    await client.setCoinbase({ address: coinbase as `0x${string}` })
    expect(await node.call('eth_coinbase')).toBe(coinbase)
    const burnedBefore = BigInt(await node.call('eth_getBalance', [BLACKHOLE, 'latest']))
    const receipt = await waitReceipt(node, await submit(node, { maxPriorityFeePerGas: 1_000_000_000n }))
    const mined = await node.call('eth_getBlockByNumber', [receipt.blockNumber, false])
    expect(mined.miner).toBe(coinbase)
    expect(await node.call('eth_call', [{ to: probe }, 'latest'])).toBe(`0x${coinbase.slice(2).padStart(64, '0')}`)
    expect(await node.call('eth_getBalance', [coinbase, 'latest'])).toBe('0x0')
    // The whole fee, base fee and tip, goes where coreth credits it (core/state_transition.go: gasUsed × the effective gas price to the coinbase).
    const fee = BigInt(receipt.effectiveGasPrice) * BigInt(receipt.gasUsed)
    expect(BigInt(await node.call('eth_getBalance', [BLACKHOLE, 'latest'])) - burnedBefore).toBe(fee)
    await client.setCoinbase({ address: BLACKHOLE })
  })

  it('anvil_setNextBlockBaseFeePerGas sets one block base fee; evm_setBlockGasLimit the next blocks gas limit', async () => {
    const { node, client } = t
    await client.setNextBlockBaseFeePerGas({ baseFeePerGas: 7_000_000_000n })
    expect(await node.call('eth_baseFee')).toBe('0x1a13b8600')
    await client.mine({ blocks: 1 })
    expect((await block(node)).baseFeePerGas).toBe('0x1a13b8600')
    await client.mine({ blocks: 1 })
    expect((await block(node)).baseFeePerGas).not.toBe('0x1a13b8600')

    await client.setBlockGasLimit({ gasLimit: 30_000_000n })
    await client.mine({ blocks: 1 })
    expect((await block(node)).gasLimit).toBe('0x1c9c380')
    const tooBig = await sign({ to: EWOQ_ADDRESS, nonce: await nonceOf(node, EWOQ_ADDRESS), gasLimit: 30_000_001n })
    expect((await node.rpc('eth_sendRawTransaction', [tooBig])).error?.message).toBe('exceeds block gas limit')
    const hash = await submit(node)
    expect((await node.call('eth_getBlockByNumber', [(await waitReceipt(node, hash)).blockNumber, false])).gasLimit).toBe('0x1c9c380')
  })

  it('anvil_setMinGasPrice is refused, as anvil refuses it with EIP-1559 active', async () => {
    const { node, client } = t
    const answer = await node.rpc('anvil_setMinGasPrice', ['0x1'])
    expect(answer.error).toEqual({ code: -32602, message: 'anvil_setMinGasPrice is not supported when EIP-1559 is active' })
    await expect(client.setMinGasPrice({ gasPrice: 1n })).rejects.toThrow(/not supported when EIP-1559 is active/)
  })

  it("the mining mode outlives evm_revert, as anvil's does; anvil_reset goes back to automine", async () => {
    const { node, client } = t
    const id = await client.snapshot()
    await client.setAutomine(false)
    await client.revert({ id })
    expect(await client.getAutomine()).toBe(false)
    await client.setIntervalMining({ interval: 0 })
    // viem's reset() sends `forking` with no URL, which anvil_reset refuses here: the raw call.
    expect(await node.call('anvil_reset')).toBeNull()
    expect(await client.getAutomine()).toBe(true)
  })
})

describe('mining controls: viem test client (hardhat mode)', () => {
  const t = devNode('hardhat')

  it('hardhat_getAutomine, hardhat_mine, hardhat_setCoinbase and hardhat_setNextBlockBaseFeePerGas', async () => {
    const { node, client } = t
    expect([await client.getAutomine(), await client.setAutomine(false), await client.getAutomine()]).toEqual([true, undefined, false])
    const hash = await submit(node)
    await client.mine({ blocks: 2 })
    expect(await headNumber(node)).toBe(2)
    expect((await block(node, 1)).transactions).toEqual([hash])
    expect(await node.call('hardhat_mine', ['0x1'])).toBe(true)
    const coinbase = Wallet.createRandom().address.toLowerCase()
    expect(await node.call('hardhat_setCoinbase', [coinbase])).toBe(true)
    expect(await node.call('hardhat_setNextBlockBaseFeePerGas', ['0x3b9aca00'])).toBe(true)
    await client.mine({ blocks: 1 })
    const mined = await block(node)
    expect(mined.miner).toBe(coinbase)
    expect(mined.baseFeePerGas).toBe('0x3b9aca00')
    expect((await node.rpc('hardhat_setMinGasPrice', ['0x1'])).error?.code).toBe(-32602)
  })
})

describe('mining controls: cast rpc', () => {
  const t = devNode('anvil')

  it('each mining method', async () => {
    const { node, cast: rpc } = t
    expect(await rpc('evm_setAutomine', 'false')).toBeNull()
    expect(await rpc('anvil_getAutomine')).toBe(false)
    expect(await rpc('hardhat_getAutomine')).toBe(false)
    const hash = await submit(node)
    expect(await rpc('evm_mine')).toBe('0x0')
    expect((await node.call('eth_getTransactionReceipt', [hash])).blockNumber).toBe('0x1')
    expect(await rpc('anvil_mine', '2', '10')).toBeNull()
    expect(await rpc('hardhat_mine', '0x1')).toBe(true)
    expect(await headNumber(node)).toBe(4)
    expect(await rpc('anvil_setAutomine', 'true')).toBeNull()
    expect(await rpc('evm_setIntervalMining', '0')).toBeNull()
    expect(await rpc('anvil_setIntervalMining', '0')).toBeNull()
    expect(await rpc('anvil_getIntervalMining')).toBeNull()
    const coinbase = Wallet.createRandom().address.toLowerCase()
    expect(await rpc('anvil_setCoinbase', coinbase)).toBeNull()
    expect(await rpc('anvil_setNextBlockBaseFeePerGas', '0x2')).toBeNull()
    expect(await rpc('evm_setBlockGasLimit', '0x1c9c380')).toBe(true)
    expect(await rpc('anvil_setBlockGasLimit', '0x1c9c380')).toBe(true)
    expect(await rpc('anvil_mine')).toBeNull()
    const mined = await block(node)
    expect([mined.miner, mined.baseFeePerGas, mined.gasLimit]).toEqual([coinbase, '0x2', '0x1c9c380'])
    expect(await rpc('hardhat_setCoinbase', coinbase)).toBe(true)
    expect(await rpc('hardhat_setNextBlockBaseFeePerGas', '0x3')).toBe(true)
    expect(await rpc('evm_mine')).toBe('0x0')
    expect((await block(node)).baseFeePerGas).toBe('0x3')
    for (const name of ['anvil_setMinGasPrice', 'hardhat_setMinGasPrice']) {
      const refused = await runFile(CAST, ['rpc', '--rpc-url', node.url, name, '0x1']).catch((e: { stderr: string }) => e.stderr)
      expect(refused).toContain('anvil_setMinGasPrice is not supported when EIP-1559 is active')
    }
  })
})

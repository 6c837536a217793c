import { describe, expect, it } from 'vitest'
import { minDelayMs } from '../../src/engine/rules/feeState.js'
import { send } from '../helpers/chain.js'
import { devNode } from '../helpers/devClients.js'
import type { TestNode } from '../helpers/testNode.js'

const GAS_TARGET = 20_000_000

type Header = { number: bigint; timestamp: bigint; ms: bigint; extraData: string; gasUsed: bigint; extDataGasUsed: bigint }
async function header(node: TestNode, tag: string = 'latest'): Promise<Header> {
  const b = await node.call('eth_getBlockByNumber', [tag, false])
  return { number: BigInt(b.number), timestamp: BigInt(b.timestamp), ms: BigInt(b.timestampMilliseconds), extraData: b.extraData, gasUsed: BigInt(b.gasUsed), extDataGasUsed: BigInt(b.extDataGasUsed) }
}

/** Mines one block with evm_mine; returns its header and the wall clock in seconds around the call. */
async function mineTimed(node: TestNode): Promise<{ block: Header; before: bigint; after: bigint }> {
  const before = BigInt(Math.floor(Date.now() / 1000))
  await node.call('evm_mine')
  const after = BigInt(Math.ceil(Date.now() / 1000))
  return { block: await header(node), before, after }
}

describe('time controls: viem test client (anvil mode)', () => {
  const t = devNode('anvil', { chain: { 'gas-target': GAS_TARGET } })

  it('evm_increaseTime moves the next blocks by the total offset, in seconds and milliseconds', async () => {
    const { node, client } = t
    expect(await node.call('evm_increaseTime', ['0xe10'])).toBe(3600)
    await client.increaseTime({ seconds: 60 })
    expect(await node.call('anvil_increaseTime', [0])).toBe(3660)
    const { block, before, after } = await mineTimed(node)
    expect(block.timestamp).toBeGreaterThanOrEqual(before + 3660n)
    expect(block.timestamp).toBeLessThanOrEqual(after + 3660n)
    expect(block.ms / 1000n).toBe(block.timestamp)
  })

  it('evm_setNextBlockTimestamp: the next block has that exact time; the clock runs on from it', async () => {
    const { node, client } = t
    const head = await header(node)
    const next = head.timestamp + 100_000n
    await client.setNextBlockTimestamp({ timestamp: next })
    await client.mine({ blocks: 1 })
    const exact = await header(node)
    expect(exact.timestamp).toBe(next)
    expect(exact.ms).toBe(next * 1000n)
    const before = BigInt(Math.floor(Date.now() / 1000))
    const { block, after } = await mineTimed(node)
    // From `next` on, as the wall clock moves: never back to the old offset.
    expect(block.timestamp).toBeGreaterThanOrEqual(next)
    expect(block.timestamp).toBeLessThanOrEqual(next + (after - before) + 1n)
    // Below the head's timestamp is refused, as anvil refuses it.
    const answer = await node.rpc('evm_setNextBlockTimestamp', [Number(head.timestamp)])
    expect(answer.error).toEqual({ code: -32602, message: `Timestamp error: ${head.timestamp} is lower than previous block's timestamp` })
    expect((await node.rpc('evm_setNextBlockTimestamp', ['0xffffffffffffffff'])).error?.message).toBe('The timestamp is too big')
    // evm_mine's timestamp argument does the same for the block it mines.
    expect(await node.call('evm_mine', [Number(block.timestamp + 500n)])).toBe('0x0')
    expect((await header(node)).timestamp).toBe(block.timestamp + 500n)
  })

  it('the gas clock follows the moved clock (the block time in ms, as with real time): the block settles its parent', async () => {
    const { node, client } = t
    await send(node, { to: '0x0000000000000000000000000000000000000001', value: 1n, gasLimit: 100_000n })
    const parent = await header(node)
    await client.increaseTime({ seconds: 7200 })
    await client.mine({ blocks: 1 })
    const child = await header(node)
    expect(child.ms - parent.ms).toBeGreaterThanOrEqual(7_200_000n)
    // Helicon: two hours on, the parent finished executing far more than 5 s of gas time before the child.
    expect((await node.call('eth_getBlockByNumber', ['latest', false])).settledHeight).toBe(`0x${parent.number.toString(16)}`)
  })

  it('evm_setTime sets the clock; anvil_setBlockTimestampInterval spaces block timestamps', async () => {
    const { node, client } = t
    const head = await header(node)
    const target = head.timestamp + 1_000_000n
    const moved = await node.call('evm_setTime', [Number(target)])
    expect(typeof moved).toBe('number')
    expect(moved).toBeGreaterThan(0)
    const { block, before, after } = await mineTimed(node)
    expect(block.timestamp).toBeGreaterThanOrEqual(target)
    expect(block.timestamp).toBeLessThanOrEqual(target + (after - before) + 1n)
    // Milliseconds above 1e12 are taken as milliseconds; a time behind the head still mines after it (ACP-226).
    expect(await node.call('anvil_setTime', [Number(block.timestamp) * 1000])).toBe(0)

    await client.setBlockTimestampInterval({ interval: 250 })
    await client.mine({ blocks: 2 })
    const last = await header(node)
    const previous = await header(node, `0x${(last.number - 1n).toString(16)}`)
    expect(last.timestamp - previous.timestamp).toBe(250n)
    expect(previous.timestamp - block.timestamp).toBe(250n)
    expect(await client.request({ method: 'anvil_removeBlockTimestampInterval' } as never)).toBe(true)
    expect(await node.call('anvil_removeBlockTimestampInterval')).toBe(false)
  })

  it('evm_revert puts the clock back as of the snapshot; anvil_reset back to the wall clock', async () => {
    const { node, client } = t
    await node.call('anvil_reset')
    expect(await node.call('evm_increaseTime', [100])).toBe(100)
    const id = await client.snapshot()
    expect(await node.call('evm_increaseTime', [1_000_000])).toBe(1_000_100)
    await client.setBlockTimestampInterval({ interval: 5 })
    await client.mine({ blocks: 1 })
    await client.revert({ id })
    expect(await node.call('evm_increaseTime', [0])).toBe(100)
    expect(await node.call('anvil_removeBlockTimestampInterval')).toBe(false)
    const { block, before, after } = await mineTimed(node)
    expect(block.timestamp).toBeGreaterThanOrEqual(before + 100n)
    expect(block.timestamp).toBeLessThanOrEqual(after + 100n)
    expect(await node.call('anvil_reset')).toBeNull()
    expect(await node.call('evm_increaseTime', [0])).toBe(0)
  })
})

describe('time controls: the ACP-226 minimum delay still holds', () => {
  const t = devNode('anvil', { chain: { 'min-delay-target': 2000 } })

  it('a timestamp at or behind the head gives a block at the head time plus the minimum delay', async () => {
    const { node, client } = t
    await client.mine({ blocks: 1 })
    for (const move of ['exact', 'back'] as const) {
      const parent = await node.call('eth_getBlockByNumber', ['latest', false])
      if (move === 'exact') await client.setNextBlockTimestamp({ timestamp: BigInt(parent.timestamp) })
      else expect(await node.call('evm_setTime', [Number(parent.timestamp) - 3600])).toBe(0)
      await client.mine({ blocks: 1 })
      const child = await header(node)
      expect(child.ms).toBe(BigInt(parent.timestampMilliseconds) + minDelayMs(BigInt(parent.minDelayExcess)))
      expect(child.ms - BigInt(parent.timestampMilliseconds)).toBeGreaterThanOrEqual(1900n)
      expect(child.timestamp).toBe(child.ms / 1000n)
    }
  })
})

describe('time controls: viem test client (hardhat mode)', () => {
  const t = devNode('hardhat')

  it('increaseTime, setNextBlockTimestamp and mine', async () => {
    const { node, client } = t
    await client.increaseTime({ seconds: 86_400 })
    const { block, before, after } = await mineTimed(node)
    expect(block.timestamp).toBeGreaterThanOrEqual(before + 86_400n)
    expect(block.timestamp).toBeLessThanOrEqual(after + 86_400n)
    await client.setNextBlockTimestamp({ timestamp: block.timestamp + 10n })
    await client.mine({ blocks: 1 })
    expect((await header(node)).timestamp).toBe(block.timestamp + 10n)
  })
})

describe('time controls: cast rpc', () => {
  const t = devNode('anvil')

  it('each time method', async () => {
    const { node, cast: rpc } = t
    expect(await rpc('evm_increaseTime', '60')).toBe(60)
    expect(await rpc('anvil_increaseTime', '0x3c')).toBe(120)
    const head = await header(node)
    expect(await rpc('evm_setNextBlockTimestamp', String(head.timestamp + 1000n))).toBeNull()
    expect(await rpc('anvil_setNextBlockTimestamp', String(head.timestamp + 2000n))).toBeNull()
    expect(await rpc('evm_mine')).toBe('0x0')
    expect((await header(node)).timestamp).toBe(head.timestamp + 2000n)
    expect(typeof (await rpc('evm_setTime', String(head.timestamp + 5000n)))).toBe('number')
    expect(typeof (await rpc('anvil_setTime', String(head.timestamp + 6000n)))).toBe('number')
    expect(await rpc('anvil_setBlockTimestampInterval', '7')).toBeNull()
    expect(await rpc('anvil_mine', '2')).toBeNull()
    const last = await header(node)
    expect(last.timestamp - (await header(node, `0x${(last.number - 1n).toString(16)}`)).timestamp).toBe(7n)
    expect(await rpc('anvil_removeBlockTimestampInterval')).toBe(true)
  })
})

import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BLOCK_CACHE_SIZE } from '../../src/engine/chain/chainBlocks.js'
import { send } from '../helpers/chain.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * Leaks the soak (scripts/soak.ts) found, pinned down: state that must not grow with the number of
 * blocks or calls (a long-running node's memory must stay flat).
 */
describe('no per-call or per-block leaks', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())

  it('eth_call, eth_estimateGas, debug_traceCall and eth_simulateV1 at new heads leave no listener on the shared Common', async () => {
    const common = node.node.engine['chain'].common
    const before = common.events.listenerCount('hardforkChanged')
    const to = Wallet.createRandom().address
    const call = { from: EWOQ_ADDRESS, to, value: '0x1' }
    for (let i = 0; i < 10; i++) {
      await send(node, { to, value: 1n }) // a new head: the call executors of the last one are stale
      await node.call('eth_call', [call, 'latest'])
      await node.call('eth_estimateGas', [call, 'latest'])
      await node.call('debug_traceCall', [call, 'latest'])
      await node.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [call] }] }, 'latest'])
    }
    // Each EVM used to subscribe to the one shared Common, which then kept every executor alive.
    expect(common.events.listenerCount('hardforkChanged')).toBe(before)
  })

  it(`keeps at most ${BLOCK_CACHE_SIZE} blocks and ${BLOCK_CACHE_SIZE} blocks' receipts cached however many are committed`, async () => {
    const chain = node.node.engine['chain']['blocks'] as unknown as { receiptCache: Map<string, unknown>; blockCache: Map<string, unknown> }
    const engine = node.node.engine
    while (engine.head.header.number < BigInt(BLOCK_CACHE_SIZE + 200)) await engine.buildBlock()
    // Every committed block used to stay in the receipt cache: a soak kept every receipt ever made.
    expect(chain.receiptCache.size).toBeLessThanOrEqual(BLOCK_CACHE_SIZE)
    expect(chain.blockCache.size).toBeLessThanOrEqual(BLOCK_CACHE_SIZE)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestNode, EWOQ_ADDRESS, type TestNode } from '../helpers/testNode.js'

describe('node start', () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startTestNode()
  })
  afterAll(() => node.close())
  it('serves the genesis balance of ewoq', async () => {
    expect(await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest'])).toBe('0x295be96e64066972000000')
  })
})

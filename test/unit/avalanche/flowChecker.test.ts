import { describe, expect, it } from 'vitest'
import { FlowChecker } from '../../../src/avalanche/flowChecker.js'

const AVAX = new Uint8Array(32).fill(1)
const OTHER = new Uint8Array(32).fill(2)
const MAX = 0xffffffffffffffffn

describe('FlowChecker (avalanchego avax.FlowChecker)', () => {
  it('balances when every asset is consumed at least as much as it is produced', () => {
    const flow = new FlowChecker()
    flow.produce(AVAX, 10n)
    flow.consume(AVAX, 7n)
    flow.consume(AVAX, 3n)
    flow.consume(OTHER, 5n) // consumed and never produced: burned
    expect(flow.verify()).toBeUndefined()
  })

  it('names the asset shortfall "insufficient funds", per asset', () => {
    const flow = new FlowChecker()
    flow.produce(AVAX, 1n)
    flow.consume(AVAX, 1n)
    flow.produce(OTHER, 2n)
    flow.consume(OTHER, 1n)
    expect(flow.verify()).toBe('insufficient funds')
  })

  it('reports a uint64 overflow before any shortfall, as the sums wrap', () => {
    const flow = new FlowChecker()
    flow.consume(AVAX, MAX)
    flow.consume(AVAX, 2n) // wraps to 1
    flow.produce(OTHER, 1n)
    expect(flow.verify()).toBe('overflow')
  })
})

import { afterAll, beforeAll } from 'vitest'
import type { ChainConfigFile } from '../../src/config.js'
import { startTestNode, type TestNode } from './testNode.js'

/** A node per EVM: `nodes()` as [label, node] pairs, `interpreter()` the one whose EVM oracle counts every difference from ethereumjs. */
export interface BothEvms {
  nodes(): readonly (readonly [string, TestNode])[]
  interpreter(): TestNode
}

/**
 * Starts, before the tests of the block it is called in, one node on the node's interpreter with the
 * EVM oracle on (the test default) and one on ethereumjs alone, and closes both after them.
 */
export function bothEvms(chain: Partial<ChainConfigFile> = {}): BothEvms {
  const pairs: [string, TestNode][] = []
  beforeAll(async () => {
    const [own, ejs] = await Promise.all([startTestNode({ chain }), startTestNode({ chain, config: { evmInterpreter: 'ethereumjs', evmOracle: false } })])
    pairs.push(['interpreter (oracle on)', own], ['ethereumjs', ejs])
  })
  afterAll(() => Promise.all(pairs.map(([, n]) => n.close())))
  return { nodes: () => pairs, interpreter: () => pairs[0]![1] }
}

import { Wallet } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/db.js'
import { META_FLAT_ROOT, metaKey } from '../../src/store/keys.js'
import { deploy, iface, send } from '../helpers/chain.js'
import { capturedLog } from '../helpers/log.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

/*
 * The flat state under reads and calls (docs/ARCHITECTURE.md, "Where state lives"): reads at an
 * older block stay exact while the head moves on, and a data directory whose flat state is missing
 * or stale (an older version's, or a head that fell back) is rebuilt from the trie at start.
 */

const tempDir = tempDirs('cchain-flat-it-')
afterAll(() => tempDir.removeAll())

const stored = (node: TestNode, probe: string, tag: string) => node.call('eth_call', [{ to: probe, data: iface('Probe').encodeFunctionData('stored') }, tag])

describe('flat state', () => {
  it('a block older than the head keeps its balances, storage and call results as later blocks change them', async () => {
    const node = await startTestNode({ dataDir: tempDir() })
    try {
      const bob = Wallet.createRandom().address
      const probe = (await deploy(node, 'Probe')).address
      await send(node, { to: probe, data: iface('Probe').encodeFunctionData('set', [7n]), gasLimit: 100_000n })
      await send(node, { to: bob, value: 5n })
      const at = await node.call('eth_blockNumber')
      const before = [await node.call('eth_getBalance', [bob, at]), await node.call('eth_getStorageAt', [probe, '0x0', at]), await stored(node, probe, at)]
      expect(BigInt(before[0])).toBe(5n)
      for (let i = 1n; i <= 3n; i++) {
        await send(node, { to: probe, data: iface('Probe').encodeFunctionData('set', [100n + i]), gasLimit: 100_000n })
        await send(node, { to: bob, value: i })
      }
      expect([await node.call('eth_getBalance', [bob, at]), await node.call('eth_getStorageAt', [probe, '0x0', at]), await stored(node, probe, at)]).toEqual(before)
      expect(BigInt(await node.call('eth_getBalance', [bob, 'latest']))).toBe(11n)
      expect(BigInt(await stored(node, probe, 'latest'))).toBe(103n)
    } finally {
      await node.close()
    }
  })

  it('rebuilds a missing flat state from the trie at start and answers as before', async () => {
    const dataDir = tempDir()
    let node = await startTestNode({ dataDir })
    const bob = Wallet.createRandom().address
    const probe = (await deploy(node, 'Probe')).address
    await send(node, { to: probe, data: iface('Probe').encodeFunctionData('set', [42n]), gasLimit: 100_000n })
    await send(node, { to: bob, value: 9n })
    const answers = async () => [
      await node.call('eth_getBalance', [bob, 'latest']),
      await node.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']),
      await node.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']),
      await node.call('eth_getCode', [probe, 'latest']),
      await node.call('eth_getStorageAt', [probe, '0x0', 'latest']),
      await stored(node, probe, 'latest'),
    ]
    const before = await answers()
    await node.stop()
    // What a data directory of a version without the flat state looks like: no flat root.
    const db = await openDatabase(dataDir)
    await db.del(metaKey(META_FLAT_ROOT))
    await db.close()
    const log = capturedLog()
    node = await startTestNode({ dataDir, log: log.log })
    try {
      expect(log.text()).toContain('flat state rebuilt from the trie')
      expect(await answers()).toEqual(before)
      // And it keeps working: a new block on the rebuilt state.
      await send(node, { to: bob, value: 1n })
      expect(BigInt(await node.call('eth_getBalance', [bob, 'latest']))).toBe(10n)
    } finally {
      await node.close()
    }
  })
})

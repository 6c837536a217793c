/**
 * What web3_clientVersion answers (docs/DEV.md "Client version"): where the development controls are
 * on, the node's own version led by `HardhatNetwork/` (the default), `anvil/` or nothing, as
 * `--dev-client-version` says, and anvil_metadata and hardhat_metadata say the same; where they are
 * off, the node's own version alone, whatever the flag says. Foundry's `cast client` prints the answer.
 */
import { describe, expect, it } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { PLAIN_CLIENT_VERSION as PLAIN } from '../helpers/constants.js'
import { cast } from '../helpers/devClients.js'
import { startTestNode, type TestNodeOptions } from '../helpers/testNode.js'

describe.each([
  ['unset (hardhat)', {}, `HardhatNetwork/${PLAIN}`],
  ['hardhat', { devClientVersion: 'hardhat' }, `HardhatNetwork/${PLAIN}`],
  ['anvil', { devClientVersion: 'anvil' }, `anvil/${PLAIN}`],
  ['plain', { devClientVersion: 'plain' }, PLAIN],
] as const)('development controls on, --dev-client-version %s', (_, config, expected) => {
  it(`web3_clientVersion, anvil_metadata and hardhat_metadata answer ${expected.split('/')[0]}/...; cast client prints it`, async () => {
    const node = await startTestNode({ config })
    try {
      expect(await node.call('web3_clientVersion')).toBe(expected)
      const anvil = await node.call('anvil_metadata')
      expect([anvil.clientVersion, anvil.clientSemver]).toEqual([expected, pkg.version])
      expect((await node.call('hardhat_metadata')).clientVersion).toBe(expected)
      expect(await cast('client', '--rpc-url', node.url)).toBe(expected)
    } finally {
      await node.close()
    }
  })
})

describe('development controls off: the plain version, whatever --dev-client-version says', () => {
  const cases: [string, TestNodeOptions][] = [
    ['--dev-controls-enabled=false', { config: { devControls: false, devClientVersion: 'anvil' } }],
    ['a public network ID (Fuji, 5)', { config: { networkId: 5, devClientVersion: 'hardhat' } }],
    ['eth-apis without dev', { chain: { 'eth-apis': ['eth', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'] } }],
  ]
  it.each(cases)('%s', async (_, opts) => {
    const node = await startTestNode(opts)
    try {
      expect(await node.call('web3_clientVersion')).toBe(PLAIN)
      expect((await node.rpc('hardhat_metadata')).error?.code).toBe(-32601)
    } finally {
      await node.close()
    }
  })
})

/**
 * Hardhat 3's network helpers (@nomicfoundation/hardhat-network-helpers 3.x, `const { networkHelpers }
 * = await network.connect()`) against the node (issue 24). Hardhat 3 and its helpers live in the npm
 * workspace test/fixtures/hardhat3 (the repository's own `hardhat` is Hardhat 2).
 *
 * The helpers run here as network.connect() attaches them, without Hardhat's runtime: the plugin's
 * `newConnection` network hook wraps a connection whose provider is Hardhat 3's own HttpProvider (the
 * one its network manager builds for an `http` network; not exported, hence imported by path). The
 * whole path, Hardhat 3's CLI running a project's tests, is test/integration/hardhat3.cli.test.ts.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/chain.js'
import { PLAIN_CLIENT_VERSION as PLAIN } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const WORKSPACE = join(process.cwd(), 'test/fixtures/hardhat3/node_modules')
const HARDHAT = join(WORKSPACE, 'hardhat')
const HELPERS = join(WORKSPACE, '@nomicfoundation/hardhat-network-helpers')
const OTHER = '0x00000000000000000000000000000000000c4a1e'
const WHALE = '0x0000000000000000000000000000000000057a1e'
const ETHER = 10n ** 18n

/** A module of the workspace, by its path (not by name: from here `hardhat` resolves to Hardhat 2). */
async function load(path: string): Promise<any> {
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm ci (the workspace test/fixtures/hardhat3: hardhat@3, @nomicfoundation/hardhat-network-helpers@3)`)
  return import(pathToFileURL(path).href)
}

/** A Hardhat 3 network connection named `cchain` to the node, with the helpers plugin's networkHelpers on it. */
async function connect(node: TestNode): Promise<{ networkHelpers: any; provider: any }> {
  const { HttpProvider } = await load(join(HARDHAT, 'dist/src/internal/builtin-plugins/network-manager/http-provider.js'))
  const plugin = (await load(join(HELPERS, 'dist/src/index.js'))).default
  const hooks = await (await plugin.hookHandlers.network()).default()
  const provider = await HttpProvider.create({ url: node.url, networkName: 'cchain', timeout: 20_000 })
  const connection = { id: 0, networkName: 'cchain', networkConfig: { type: 'http', url: node.url }, chainType: 'generic', provider, close: () => provider.close() }
  return hooks.newConnection({}, async () => connection)
}

it("Hardhat 3.18.0's CLI refuses Node.js before 22.13.0 and runs on later ones", async () => {
  const cli = join(HARDHAT, 'dist/src/cli.js')
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm ci (the workspace test/fixtures/hardhat3)`)
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
  const run = await promisify(execFile)(process.execPath, [cli, '--version'], { timeout: 30_000 }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  )
  if (major > 22 || (major === 22 && minor >= 13)) expect([run.code, run.stdout.trim()]).toEqual([0, '3.18.0'])
  else {
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`ERROR: You are using Node.js ${process.versions.node} which is not supported by Hardhat.\nPlease upgrade to Node.js 22.13.0 or later.`)
  }
})

describe("Hardhat 3's networkHelpers 3.0.11, the default identity", () => {
  it('loadFixture, time.increase, mine, setBalance, impersonateAccount and takeSnapshot work', async () => {
    const node = await startTestNode()
    const { networkHelpers: helpers, provider } = await connect(node)
    try {
      expect(await provider.request({ method: 'web3_clientVersion' })).toBe(`HardhatNetwork/${PLAIN}`)
      const balance = async (address: string) => BigInt(await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }))
      const transfer = async (value: bigint) => {
        const nonce = Number(await provider.request({ method: 'eth_getTransactionCount', params: ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'pending'] }))
        const hash = await provider.request({ method: 'eth_sendRawTransaction', params: [await sign({ to: OTHER, value, nonce })] })
        return await mined(provider, hash)
      }
      // A named fixture (an anonymous one is refused); Hardhat 3 hands it the connection.
      async function fundOther(connection: { networkName: string }) {
        return { network: connection.networkName, block: Number((await transfer(ETHER)).blockNumber) }
      }
      const fixture = await helpers.loadFixture(fundOther)
      expect(fixture.network).toBe('cchain')
      expect(await balance(OTHER)).toBe(ETHER)
      await transfer(5n)
      expect(await balance(OTHER)).toBe(ETHER + 5n)
      expect(await helpers.loadFixture(fundOther)).toBe(fixture)
      expect(await balance(OTHER)).toBe(ETHER)

      const t0 = await helpers.time.latest()
      expect(await helpers.time.increase(3600)).toBe(t0 + 3600)
      const n0 = await helpers.time.latestBlock()
      await helpers.mine(5)
      expect(await helpers.time.latestBlock()).toBe(n0 + 5)

      await helpers.setBalance(WHALE, 10n * ETHER)
      await helpers.impersonateAccount(WHALE)
      const receipt = await mined(provider, await provider.request({ method: 'eth_sendTransaction', params: [{ from: WHALE, to: OTHER, value: '0x7' }] }))
      expect([receipt.status, receipt.from]).toEqual(['0x1', WHALE])
      await helpers.stopImpersonatingAccount(WHALE)
      await expect(provider.request({ method: 'eth_sendTransaction', params: [{ from: WHALE, to: OTHER, value: '0x7' }] })).rejects.toThrow(/eth_sendTransaction does not exist/)

      const snapshot = await helpers.takeSnapshot()
      await helpers.setBalance(OTHER, 1n)
      expect(await balance(OTHER)).toBe(1n)
      await snapshot.restore()
      expect(await balance(OTHER)).toBe(ETHER + 7n)
    } finally {
      await provider.close()
      await node.close()
    }
  })
})

describe("the helpers' gate on web3_clientVersion (hardhat-network-helpers 3.x network-helpers.ts: hardhat, zksync or anvil)", () => {
  it('--dev-client-version anvil is accepted', async () => {
    const node = await startTestNode({ config: { devClientVersion: 'anvil' } })
    const { networkHelpers, provider } = await connect(node)
    try {
      await networkHelpers.mine(2)
      expect(await networkHelpers.time.latestBlock()).toBe(2)
    } finally {
      await provider.close()
      await node.close()
    }
  })

  it('--dev-client-version plain is refused, naming the version', async () => {
    const node = await startTestNode({ config: { devClientVersion: 'plain' } })
    const { networkHelpers, provider } = await connect(node)
    try {
      await expect(networkHelpers.mine(2)).rejects.toThrow(`This helper can only be used with the Hardhat Network. You are connected to "cchain", whose identifier is "${PLAIN}".`)
      expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
    } finally {
      await provider.close()
      await node.close()
    }
  })
})

/** Polls for a receipt through the provider (the node builds a block as soon as transactions wait). */
async function mined(provider: any, hash: string): Promise<any> {
  for (let i = 0; i < 2000; i++) {
    const receipt = await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (receipt !== null) return receipt
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`no receipt for ${hash}`)
}

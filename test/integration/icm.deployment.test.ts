import { mkdirSync, writeFileSync } from 'node:fs'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Transaction, getCreateAddress } from 'ethers'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { capturedLog } from '../helpers/log.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { contracts, startTestNode } from '../helpers/testNode.js'

/*
 * Where the node finds Teleporter's keyless deployment (docs/ICM.md, "Teleporter's deployment"):
 * avalanche-cli's copy under the user's home without the flag, a URL downloaded once into the data
 * dir and checked to be the messenger's deployment, and a line saying how to get it without either.
 * A temporary HOME, a local HTTP server, and a keyless deployment of the test messenger made as
 * Teleporter's is (no chain ID, nonce 0, r == s) stand in for avalanche-cli and the release.
 */

const tempDir = tempDirs('cchain-icm-deploy-')
const unsigned = Transaction.from({ type: 0, nonce: 0, gasPrice: 100n * 10n ** 9n, gasLimit: 3_000_000n, data: contracts.contracts.ICMTestMessenger.bytecode })
const keyless = Transaction.from({ ...unsigned.toJSON(), signature: { r: `0x${'33'.repeat(32)}`, s: `0x${'33'.repeat(32)}`, v: 27 } })
const MESSENGER = getCreateAddress({ from: keyless.from!, nonce: 0 })
const FILE = 'TeleporterMessenger_Deployment_Transaction_v1.0.0.txt'

describe("Teleporter's deployment transaction, found without hunting", () => {
  const home = process.env.HOME
  let server: Server
  let base: string
  let served = keyless.serialized.slice(2)
  let requests = 0
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++
      res.end(served)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterEach(() => {
    process.env.HOME = home
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    tempDir.removeAll()
  })

  const codeOnC = async (node: Awaited<ReturnType<typeof startTestNode>>) => node.call('eth_getCode', [MESSENGER, 'latest'])

  it("uses avalanche-cli's copy under the user's home when no flag names one", async () => {
    const fakeHome = tempDir()
    const dir = join(fakeHome, '.avalanche-cli', 'bin', 'icm-contracts', 'v1.0.0')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, FILE), `${keyless.serialized.slice(2)}\n`)
    process.env.HOME = fakeHome
    // The default avalanche-cli directory, under the (temporary) home.
    const node = await startTestNode({ config: { icmMessengerAddress: MESSENGER, avalancheCliDir: undefined } as never })
    try {
      expect(await codeOnC(node)).toBe(contracts.contracts.ICMTestMessenger.deployedBytecode)
    } finally {
      await node.close()
    }
  })

  it("says how to get it when there is neither a flag nor avalanche-cli's copy", async () => {
    process.env.HOME = tempDir()
    const captured = capturedLog('info')
    const node = await startTestNode({ log: captured.log, config: { icmMessengerAddress: MESSENGER, avalancheCliDir: undefined } as never })
    try {
      expect(await codeOnC(node)).toBe('0x')
      expect(captured.text()).toContain(`Teleporter is not deployed on the local chains: pass --icm-messenger-deployment-tx <file or URL> (icm-contracts v1.0.0's ${FILE})`)
    } finally {
      await node.close()
    }
  })

  it('downloads a URL once into the data dir and deploys from it, then starts without the server', async () => {
    process.env.HOME = tempDir()
    const config = { icmMessengerAddress: MESSENGER, icmMessengerDeploymentTx: `${base}/${FILE}` }
    requests = 0
    let node = await startTestNode({ config: config as never })
    const dataDir = node.dataDir
    expect(await codeOnC(node)).toBe(contracts.contracts.ICMTestMessenger.deployedBytecode)
    await node.stop()
    served = 'not a transaction'
    node = await startTestNode({ dataDir, config: config as never })
    try {
      expect(requests).toBe(1)
      expect(await codeOnC(node)).toBe(contracts.contracts.ICMTestMessenger.deployedBytecode)
    } finally {
      served = keyless.serialized.slice(2)
      await node.close()
    }
  })

  it('refuses a download that is not the keyless deployment of --icm-messenger-address, and keeps nothing', async () => {
    process.env.HOME = tempDir()
    const other = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'
    const dataDir = tempDir()
    await expect(startTestNode({ dataDir, config: { icmMessengerAddress: other, icmMessengerDeploymentTx: `${base}/${FILE}` } as never })).rejects.toThrow(
      `a keyless deployment of ${MESSENGER} by ${keyless.from}, not of the messenger ${other} (--icm-messenger-address)`,
    )
    served = 'zz'
    await expect(startTestNode({ dataDir: tempDir(), config: { icmMessengerAddress: MESSENGER, icmMessengerDeploymentTx: `${base}/${FILE}` } as never })).rejects.toThrow(
      /a keyless deployment transaction is hex/,
    )
    served = keyless.serialized.slice(2)
  })

  it('starts without Teleporter, with one line, when the URL cannot be reached', async () => {
    process.env.HOME = tempDir()
    const captured = capturedLog('info')
    const node = await startTestNode({ log: captured.log, config: { icmMessengerAddress: MESSENGER, icmMessengerDeploymentTx: 'http://127.0.0.1:1/nothing.txt' } as never })
    try {
      expect(await codeOnC(node)).toBe('0x')
      expect(captured.text()).toMatch(/icm: could not download http:\/\/127\.0\.0\.1:1\/nothing\.txt \(.*\); Teleporter is not deployed/)
    } finally {
      await node.close()
    }
  })
})

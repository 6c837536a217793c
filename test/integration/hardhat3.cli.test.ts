/**
 * Hardhat 3's own CLI against the node (issue 37): `hardhat test nodejs --network cchain` runs the
 * project test/fixtures/hardhat3 (a contract compiled offline with npm's solc, node:test tests that
 * use `network.connect()`, hardhat-viem and the network helpers) with the node as an external http
 * network. Hardhat 3 runs on Node.js 22.13 or later, the versions this repository supports.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { getCreateAddress } from 'ethers'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, startTestNode, type TestNode } from '../helpers/testNode.js'

const PROJECT = join(process.cwd(), 'test/fixtures/hardhat3')
const CLI = join(PROJECT, 'node_modules/hardhat/dist/src/cli.js')
const ALICE = '0x328809Bc894f92807417D2dAD6b7C998c1aFdac6'

const tempDir = tempDirs('cchain-hardhat3-')
let node: TestNode
beforeAll(async () => {
  node = await startTestNode()
})
afterAll(async () => {
  await node?.close()
  tempDir.removeAll()
})

it('hardhat test nodejs runs a Hardhat 3 project with viem and the network helpers against the node', async () => {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
  if (major < 22 || (major === 22 && minor < 13)) throw new Error(`Hardhat 3 needs Node.js 22.13 or later (this is ${process.versions.node}); the repository supports Node.js 22 and 24`)
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm ci (the workspace test/fixtures/hardhat3)`)
  const env = { ...process.env, CCHAIN_RPC_URL: node.url, HARDHAT3_BUILD: tempDir(), HARDHAT_DISABLE_TELEMETRY: 'true', NO_COLOR: '1', FORCE_COLOR: '0' }
  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    execFile(process.execPath, [CLI, 'test', 'nodejs', '--network', 'cchain'], { cwd: PROJECT, env, timeout: 240_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, out: `${stdout}\n${stderr}` }),
    )
  })
  expect(run.out).toMatch(/6 passing/)
  expect(run.out).not.toMatch(/[1-9]\d* failing/)
  expect(run.code, run.out).toBe(0)
  for (const title of [
    'is deployed at the chain id the node answers',
    'a deposit emits Deposited',
    'withdraw before the delay reverts with StillLocked',
    'time.increase moves past the delay',
    'takeSnapshot and restore undo a deposit',
    'network.connect() reaches the same chain',
  ])
    expect(run.out).toContain(title)
  // The fixture's two transactions stayed (each test went back to the snapshot after them): the
  // Vault at ewoq's first address and alice's 10 AVAX, on the node itself.
  const vault = getCreateAddress({ from: EWOQ_ADDRESS, nonce: 0 })
  expect((await node.rpc('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])).result).toBe('0x2')
  expect((await node.rpc('eth_getCode', [vault, 'latest'])).result.length).toBeGreaterThan(2)
  expect(BigInt((await node.rpc('eth_getBalance', [ALICE, 'latest'])).result)).toBe(10n ** 19n)
}, 300_000)

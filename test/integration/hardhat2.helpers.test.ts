/**
 * Hardhat 2 projects against the node (issue 24): `hardhat run --network cchain` in the project
 * test/fixtures/hardhat2, whose script drives @nomicfoundation/hardhat-network-helpers: 1.0.9 (the
 * version many lockfiles pin, e.g. OpenZeppelin Contracts v5.3.0's), which accepts only a
 * web3_clientVersion starting with HardhatNetwork, and the newest 1.x, which also accepts anvil
 * (hardhat-network-helpers src/utils.ts). Both send the same hardhat_/evm_ methods whatever the prefix.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PLAIN_CLIENT_VERSION as PLAIN } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const PROJECT = join(process.cwd(), 'test/fixtures/hardhat2')
const HARDHAT = join(process.cwd(), 'node_modules/.bin/hardhat')
/** The helpers' versions under test -> the package names they are installed as (package.json devDependencies). */
const HELPERS = { '1.0.9': 'hardhat-network-helpers-1.0.9', '1.1.2': '@nomicfoundation/hardhat-network-helpers' } as const
type HelpersVersion = keyof typeof HELPERS

const OTHER = '0x00000000000000000000000000000000000c4a1e'
const WHALE = '0x0000000000000000000000000000000000057a1e'
const ETHER = 10n ** 18n

/** `hardhat run scripts/helpers.cjs --network cchain --no-compile` with the helpers `version`, bounded in time; never rejects. */
function runHelpers(node: TestNode, version: HelpersVersion): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(HARDHAT)) throw new Error(`${HARDHAT} is missing: run npm ci (the devDependency hardhat@2)`)
  const env = { ...process.env, CCHAIN_RPC_URL: node.url, HELPERS: HELPERS[version], HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' }
  return new Promise((resolve) => {
    execFile(HARDHAT, ['run', 'scripts/helpers.cjs', '--network', 'cchain', '--no-compile'], { cwd: PROJECT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr })
    })
  })
}

it.each(Object.entries(HELPERS))('the helpers %s are installed as %s', (version, name) => {
  expect(createRequire(join(PROJECT, 'hardhat.config.cjs'))(`${name}/package.json`).version).toBe(version)
})

describe.each(Object.keys(HELPERS) as HelpersVersion[])('Hardhat 2 with hardhat-network-helpers %s, the default identity', (version) => {
  it('loadFixture, time.increase, mine, setBalance, impersonateAccount and takeSnapshot work', async () => {
    const node = await startTestNode()
    try {
      const run = await runHelpers(node, version)
      expect(run.code, run.stderr).toBe(0)
      const seen = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
      expect(seen.clientVersion).toBe(`HardhatNetwork/${PLAIN}`)
      // A fresh chain at its genesis block: the first transaction with Hardhat's automatic fees is
      // estimated in the next block's context, at the base fee that block will have.
      expect(seen.start).toBe(0)
      // The fixture funded OTHER with 1 ether; a later 5 wei were undone by loading it again.
      expect(seen.fixture).toEqual({ same: true, afterFixture: String(ETHER), beforeReload: String(ETHER + 5n), afterReload: String(ETHER) })
      expect(seen.time.t1 - seen.time.t0).toBe(3600)
      expect(seen.mine.n1 - seen.mine.n0).toBe(5)
      expect([seen.impersonated.status, seen.impersonated.from]).toEqual(['0x1', WHALE])
      // 10 ether set, 7 wei sent, the fee paid.
      expect(BigInt(seen.impersonated.whale)).toBeLessThan(10n * ETHER - 7n)
      expect(BigInt(seen.impersonated.whale)).toBeGreaterThan(9n * ETHER)
      expect(seen.snapshot).toEqual({ edited: '1', restored: String(ETHER + 7n), beforeRestore: String(ETHER + 7n) })
      expect(await node.call('eth_getBalance', [OTHER, 'latest'])).toBe(`0x${(ETHER + 7n).toString(16)}`)
    } finally {
      await node.close()
    }
  })
})

describe("the helpers' gate on web3_clientVersion (hardhat-network-helpers src/utils.ts)", () => {
  const refusal = (version: string) => `This helper can only be used with Hardhat Network. You are connected to 'cchain', whose identifier is '${version}'`

  it('--dev-client-version anvil: 1.1.2 accepts it, 1.0.9 refuses it', async () => {
    const node = await startTestNode({ config: { devClientVersion: 'anvil' } })
    try {
      const newest = await runHelpers(node, '1.1.2')
      const pinned = await runHelpers(node, '1.0.9')
      expect(newest.code, newest.stderr).toBe(0)
      expect(JSON.parse(newest.stdout.trim().split('\n').at(-1)!).clientVersion).toBe(`anvil/${PLAIN}`)
      expect(pinned.code).toBe(1)
      expect(pinned.stderr).toContain(refusal(`anvil/${PLAIN}`))
    } finally {
      await node.close()
    }
  })

  it('--dev-client-version plain: both refuse it', async () => {
    const node = await startTestNode({ config: { devClientVersion: 'plain' } })
    try {
      for (const version of ['1.1.2', '1.0.9'] as const) {
        const run = await runHelpers(node, version)
        expect(run.code).toBe(1)
        expect(run.stderr).toContain(refusal(PLAIN))
      }
    } finally {
      await node.close()
    }
  })
})

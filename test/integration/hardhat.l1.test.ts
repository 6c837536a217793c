/**
 * A Hardhat 2 project as an Avalanche L1's developer writes it, test/fixtures/hardhat-l1: Treasury
 * mints native coin through INativeMinter, and the project's mocha tests manage the transaction and
 * deployer allow lists through IAllowList. `hardhat test --network l1` runs them against mintchain on
 * the real node (an external network: Hardhat's local accounts sign, its automatic gas and fees price
 * the transactions at the chain's 25 gwei base fee). Hardhat compiles offline: the project's config
 * answers Hardhat's compiler lookup with the npm package solc (solc-js) instead of a download.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Interface, formatEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MINTER, MINTER_ABI, TX_LIST, mintchainConfigDir, rpcAnswer, startMintchain } from '../helpers/subnetEvm.js'
import { tempDirs } from '../helpers/tempDirs.js'
import type { TestNode } from '../helpers/testNode.js'

const PROJECT = join(process.cwd(), 'test/fixtures/hardhat-l1')
const HARDHAT = join(process.cwd(), 'node_modules/.bin/hardhat')
/** The project's signers after ewoq (hardhat.config.cjs: the keys keccak256("alice"), keccak256("bob")). */
const ALICE = '0x328809Bc894f92807417D2dAD6b7C998c1aFdac6'
const BOB = '0x1D96F2f6BeF1202E4Ce1Ff6Dad0c2CB002861d3e'

/** The mocha JSON reporter's output (mocha lib/reporters/json.js). */
interface MochaReport {
  stats: { suites: number; tests: number; passes: number; pending: number; failures: number }
  tests: { fullTitle: string }[]
  failures: { fullTitle: string; err: { message?: string } }[]
}

const tempDir = tempDirs('cchain-hardhat-l1-')
afterAll(() => tempDir.removeAll())

describe('a Hardhat 2 project on a subnet-evm L1 (hardhat test --network l1 against mintchain)', () => {
  let node: TestNode
  let url: string
  let build: string
  let run: { code: number | null; stdout: string; stderr: string; report?: MochaReport }

  beforeAll(async () => {
    if (!existsSync(HARDHAT)) throw new Error(`${HARDHAT} is missing: run npm ci (the devDependency hardhat@2)`)
    ;({ node, url } = await startMintchain(mintchainConfigDir(tempDir)))
    build = tempDir()
    const report = join(build, 'mocha.json')
    const env = { ...process.env, L1_RPC_URL: url, HARDHAT_L1_BUILD: build, HARDHAT_L1_REPORT: report, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' }
    run = await new Promise((resolve) => {
      execFile(HARDHAT, ['test', '--network', 'l1'], { cwd: PROJECT, env, timeout: 50_000 }, (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null
        resolve({ code, stdout, stderr, report: existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined })
      })
    })
  })
  afterAll(() => node?.close())

  it("passes all the project's mocha tests", () => {
    expect(run.report, `no mocha report: ${run.stderr || run.stdout}`).toBeDefined()
    const { stats, failures, tests } = run.report!
    expect(failures.map((f) => `${f.fullTitle}: ${f.err.message}`)).toEqual([])
    expect(stats).toMatchObject({ suites: 3, tests: 12, passes: 12, pending: 0, failures: 0 })
    expect(run.code, run.stderr).toBe(0)
    const titles = tests.map((t) => t.fullTitle)
    expect(titles).toContain('the contract deployer allow list (IAllowList at 0x0200…0000) refuses a deployment by a signer who is not on it: tx.origin … is not authorized to deploy a contract')
    expect(titles).toContain('Treasury: native coin minted through INativeMinter refuses a signer who is not on the minter: non-enabled cannot mint')
  })

  it('compiled the contracts with the npm package solc, into the temporary build directory', () => {
    const solc = createRequire(import.meta.url)('solc') as { version(): string }
    const infos = readdirSync(join(build, 'artifacts/build-info')).map((f) => JSON.parse(readFileSync(join(build, 'artifacts/build-info', f), 'utf8')))
    expect(infos.map((i) => i.solcLongVersion)).toEqual([solc.version().replace(/\.Emscripten\.clang$/, '')])
    expect(Object.keys(infos[0].output.contracts).sort()).toEqual([
      'contracts/Treasury.sol',
      'contracts/TreasuryFactory.sol',
      'contracts/interfaces/IAllowList.sol',
      'contracts/interfaces/INativeMinter.sol',
    ])
    expect(existsSync(join(PROJECT, 'artifacts'))).toBe(false)
  })

  it("left on the chain what the tests did: the Treasury's two mints to alice, and the roles it gave back", async () => {
    const minter = new Interface(MINTER_ABI)
    const call = async (method: string, params: unknown[]) => (await rpcAnswer(url, method, params)).result
    const minted = (await call('eth_getLogs', [{ address: MINTER, topics: [minter.getEvent('NativeCoinMinted')!.topicHash], fromBlock: '0x0', toBlock: 'latest' }])).map((l: any) =>
      minter.parseLog(l)!.args.toArray(),
    )
    expect(minted.map(([, recipient, amount]: [string, string, bigint]) => [recipient, formatEther(amount)])).toEqual([
      [ALICE, '5.0'],
      [ALICE, '2.0'],
    ])
    // Minted by the Treasury contract, not by a signer.
    expect(new Set(minted.map(([sender]: [string]) => sender)).size).toBe(1)
    expect(await call('eth_getCode', [minted[0][0], 'latest'])).not.toBe('0x')
    // The project's after hooks set alice and bob back to None on the transaction allow list.
    for (const who of [ALICE, BOB]) {
      expect(BigInt(await call('eth_call', [{ to: TX_LIST, data: minter.encodeFunctionData('readAllowList', [who]) }, 'latest']))).toBe(0n)
    }
  })
})

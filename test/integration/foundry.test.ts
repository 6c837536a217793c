/**
 * Foundry against the node's development controls (issue 24): neither `cast send --unlocked` nor
 * `forge script --unlocked` looks at web3_clientVersion (foundry v1.7.1: the only caller of
 * get_client_version outside anvil is `cast client`, crates/cast/src/args.rs; --unlocked sends through
 * eth_sendTransaction, crates/cast/src/cmd/send.rs and crates/script/src/broadcast.rs). An address
 * impersonated with anvil_impersonateAccount sends through either, whatever --dev-client-version says.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { waitReceipt } from '../helpers/chain.js'
import { CAST, FORGE, cast, castRpc, runFile } from '../helpers/devClients.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { startTestNode } from '../helpers/testNode.js'

const WHALE = '0x0000000000000000000000000000000000f0f0e5'
const TO = '0x00000000000000000000000000000000000e0e0e'
const PROJECT = join(process.cwd(), 'test/fixtures/forge')
const tempDir = tempDirs('cchain-forge-')
afterAll(() => tempDir.removeAll())

describe.each(['hardhat', 'plain'] as const)('cast send --unlocked, --dev-client-version %s', (devClientVersion) => {
  it('sends from an address impersonated with anvil_impersonateAccount', async () => {
    if (!existsSync(CAST)) throw new Error(`${CAST} is missing: run npm ci (the package @foundry-rs/cast-linux-amd64)`)
    const node = await startTestNode({ config: { devClientVersion } })
    try {
      await castRpc(node.url, 'anvil_setBalance', WHALE, '0xde0b6b3a7640000')
      expect(await castRpc(node.url, 'anvil_impersonateAccount', WHALE)).toBe('null')
      const sent = JSON.parse(await cast('send', '--rpc-url', node.url, '--unlocked', '--from', WHALE, TO, '--value', '7', '--json'))
      expect([sent.status, sent.from]).toEqual(['0x1', WHALE])
      expect(await cast('balance', '--rpc-url', node.url, TO)).toBe('7')
    } finally {
      await node.close()
    }
  })
})

describe('forge script --broadcast --unlocked', () => {
  it("deploys and calls a contract from an impersonated sender (solc: the npm package's, through test/fixtures/forge/solc.cjs)", async () => {
    if (!existsSync(FORGE)) throw new Error(`${FORGE} is missing: run npm ci (the package @foundry-rs/forge-linux-amd64)`)
    const project = tempDir()
    cpSync(PROJECT, project, { recursive: true })
    const node = await startTestNode()
    try {
      await node.call('anvil_setBalance', [WHALE, '0x8ac7230489e80000'])
      await node.call('anvil_impersonateAccount', [WHALE])
      const args = ['script', 'script/Deploy.s.sol:Deploy', '--use', join(PROJECT, 'solc.cjs'), '--rpc-url', node.url, '--broadcast', '--unlocked', '--sender', WHALE]
      const { stdout } = await runFile(FORGE, args, { cwd: project, timeout: 120_000 })
      expect(stdout).toContain('ONCHAIN EXECUTION COMPLETE & SUCCESSFUL.')
      const run = JSON.parse(readFileSync(join(project, 'broadcast/Deploy.s.sol/43112/run-latest.json'), 'utf8'))
      expect(run.transactions.map((t: any) => [t.transactionType, t.contractName, t.function])).toEqual([
        ['CREATE', 'Counter', null],
        ['CALL', 'Counter', 'increment()'],
      ])
      for (const { hash } of run.transactions) {
        const receipt = await waitReceipt(node, hash)
        expect([receipt.status, receipt.from]).toEqual(['0x1', WHALE])
      }
      const counter = run.transactions[0].contractAddress
      expect(await cast('call', '--rpc-url', node.url, counter, 'number()(uint256)')).toBe('1')
    } finally {
      await node.close()
    }
  })
})

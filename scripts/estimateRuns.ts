/**
 * How many EVM runs one eth_estimateGas makes, by kind of transaction, as Hardhat's ethers plugin
 * asks it (no fee fields, at `pending`) (docs/PERFORMANCE.md, "What Hardhat asks before each send"):
 * the node in this process, on its own interpreter, counting the messages the interpreter ran.
 *
 *   npm run build && node dist/scripts/estimateRuns.js
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet } from 'ethers'
import pino from 'pino'
import { parseNodeConfig } from '../src/config.js'
import { createNode } from '../src/node.js'
import { jsonRpc } from './jsonRpc.js'
import { deployVault, iface, tokenDeployment } from './vaultSetup.js'

const EWOQ = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
const dataDir = mkdtempSync(join(tmpdir(), 'estimate-runs-'))
const node = await createNode(parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir, logLevel: 'silent', evmInterpreter: 'own', evmOracle: false }), { log: pino({ level: 'silent' }) })
const { port } = await node.listen()
const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`
const rpc = jsonRpc(url)
async function send(tx: { to?: string; data?: string; value?: bigint }): Promise<any> {
  const nonce = Number(await rpc('eth_getTransactionCount', [EWOQ.address, 'pending']))
  const raw = await EWOQ.signTransaction({ type: 2, chainId: 43112n, nonce, gasLimit: 5_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, ...tx })
  return rpc('eth_getTransactionReceipt', [await rpc('eth_sendRawTransaction', [raw])])
}

try {
  const { token, vault } = await deployVault(send)
  await send({ to: vault, data: iface('Vault').encodeFunctionData('deposit', [1000n]) })
  const holder = Wallet.createRandom().address
  const from = EWOQ.address
  const kinds: [string, Record<string, string>][] = [
    ['plain transfer', { from, to: holder, value: '0x1' }],
    ['ERC-20 transfer', { from, to: token, data: iface('TestToken').encodeFunctionData('transfer', [holder, 5n]) }],
    ['ERC-20 approve', { from, to: token, data: iface('TestToken').encodeFunctionData('approve', [holder, 5n]) }],
    ['deployment (TestToken)', { from, data: tokenDeployment(10n ** 20n) }],
    ['nonReentrant, storage only', { from, to: vault, data: iface('Vault').encodeFunctionData('record', [3n]) }],
    ['nonReentrant + token.transferFrom', { from, to: vault, data: iface('Vault').encodeFunctionData('deposit', [10n]) }],
    ['nonReentrant + token.transfer', { from, to: vault, data: iface('Vault').encodeFunctionData('withdraw', [10n]) }],
    ['nonReentrant + payment', { from, to: vault, data: iface('Vault').encodeFunctionData('pay', [holder]), value: '0x64' }],
    ['CREATE from a contract', { from, to: vault, data: iface('Vault').encodeFunctionData('make', [1n]) }],
    ['gasleft() check', { from, to: vault, data: iface('Vault').encodeFunctionData('gated', [100_000n]) }],
  ]
  const counts = node.engine.own!.counts
  console.log('| kind | estimate | EVM runs |\n|---|---:|---:|')
  for (const [kind, req] of kinds) {
    const before = counts.served
    const gas = BigInt(await rpc('eth_estimateGas', [req, 'pending']))
    console.log(`| ${kind} | ${gas} | ${counts.served - before} |`)
  }
} finally {
  await node.close()
  rmSync(dataDir, { recursive: true, force: true })
}

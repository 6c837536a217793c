/**
 * What a Hardhat test costs a node between its assertions, as `loadFixture` runs it
 * (docs/PERFORMANCE.md, "Snapshots and reverts"): before each test `evm_revert` to the fixture's
 * snapshot and a new `evm_snapshot`; then the test's send (the sender's `pending` nonce, an ERC-20
 * transfer, its receipt) and a call. Against any node already running, by URL:
 *
 *   npm run build && node dist/scripts/benchFixture.js --url http://127.0.0.1:9650/ext/bc/C/rpc [--pid PID]
 *                                                      [--tests 300] [--key 0x...] [--fixture-txs 50] [--live 0]
 *
 * Prints the wall time per method (median and mean, ms) and, with `--pid`, the node's CPU per test.
 * The fixture deploys TestToken (test/fixtures/contracts.json) and makes `--fixture-txs` transfers, so
 * a revert undoes one test's block on a chain with some history. `--live N` first takes N snapshots
 * that stay live, as the fixtures of a suite's earlier files do (loadFixture leaves one per fixture).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Interface, Wallet, getCreateAddress } from 'ethers'
import { jsonRpc } from './jsonRpc.js'
import { cpuUsOf } from './proc.js'

const args = process.argv.slice(2)
const value = (flag: string) => {
  const i = args.indexOf(flag)
  return i === -1 ? undefined : args[i + 1]
}
const URL_ = value('--url') ?? 'http://127.0.0.1:9650/ext/bc/C/rpc'
const PID = value('--pid') === undefined ? undefined : Number(value('--pid'))
const TESTS = Number(value('--tests') ?? 300)
const FIXTURE_TXS = Number(value('--fixture-txs') ?? 50)
const LIVE = Number(value('--live') ?? 0)
const KEY = value('--key') ?? '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
const WARMUP = 20

const artifacts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as { contracts: Record<string, { abi: unknown[]; bytecode: string }> }
const token = new Interface(artifacts.contracts.TestToken!.abi as never)

const rpc: (method: string, params?: unknown[]) => Promise<unknown> = jsonRpc(URL_)

const times = new Map<string, number[]>()
async function timed(method: string, params: unknown[] = []): Promise<unknown> {
  const t0 = performance.now()
  const result = await rpc(method, params)
  const list = times.get(method) ?? []
  list.push(performance.now() - t0)
  times.set(method, list)
  return result
}

async function main(): Promise<void> {
  const wallet = new Wallet(KEY)
  const chainId = BigInt((await rpc('eth_chainId')) as string)
  const fee = 3n * BigInt((await rpc('eth_gasPrice')) as string) + 10n ** 9n
  const send = async (tx: { to?: string; data?: string; gasLimit: bigint; nonce: number }, method = 'eth_sendRawTransaction') => {
    const raw = await wallet.signTransaction({ type: 2, chainId, value: 0n, maxFeePerGas: fee, maxPriorityFeePerGas: 10n ** 9n, ...tx })
    return (method === 'eth_sendRawTransaction' ? timed : rpc)('eth_sendRawTransaction', [raw]) as Promise<string>
  }
  for (let i = 0; i < LIVE; i++) await rpc('evm_snapshot')
  let nonce = Number((await rpc('eth_getTransactionCount', [wallet.address, 'pending'])) as string)
  const address = getCreateAddress({ from: wallet.address, nonce })
  await send({ data: artifacts.contracts.TestToken!.bytecode + token.encodeDeploy([10n ** 27n]).slice(2), gasLimit: 3_000_000n, nonce: nonce++ }, 'setup')
  for (let i = 0; i < FIXTURE_TXS; i++) {
    await send({ to: address, data: token.encodeFunctionData('transfer', [Wallet.createRandom().address, 1n]), gasLimit: 100_000n, nonce: nonce++ }, 'setup')
  }
  let snapshot = await rpc('evm_snapshot')
  let cpu0 = 0
  for (let t = 0; t < WARMUP + TESTS; t++) {
    if (t === WARMUP) {
      times.clear()
      if (PID !== undefined) cpu0 = cpuUsOf(PID)
    }
    if ((await timed('evm_revert', [snapshot])) !== true) throw new Error('evm_revert answered false')
    snapshot = await timed('evm_snapshot')
    const n = Number((await timed('eth_getTransactionCount', [wallet.address, 'pending'])) as string)
    const hash = await send({ to: address, data: token.encodeFunctionData('transfer', [Wallet.createRandom().address, 5n]), gasLimit: 100_000n, nonce: n })
    if ((await timed('eth_getTransactionReceipt', [hash])) === null) throw new Error('no receipt right after the send')
    await timed('eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [wallet.address]) }, 'latest'])
  }
  const cpu = PID === undefined ? undefined : (cpuUsOf(PID) - cpu0) / TESTS
  console.log(`| method | calls | median ms | mean ms |`)
  console.log('|---|---:|---:|---:|')
  let total = 0
  for (const [method, list] of times) {
    const sorted = [...list].sort((a, b) => a - b)
    const mean = list.reduce((a, b) => a + b, 0) / list.length
    total += mean
    console.log(`| ${method} | ${list.length} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} | ${mean.toFixed(3)} |`)
  }
  console.log(`\nper test: ${total.toFixed(2)} ms of round trips${cpu === undefined ? '' : `, node CPU ${(cpu / 1000).toFixed(2)} ms`}`)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})

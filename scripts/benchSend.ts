/**
 * `npm run bench:send` (docs/PERFORMANCE.md, "A send and its receipt"): what a test that sends a
 * transaction waits for, as Hardhat's ethers plugin sends one: the sender's `pending` nonce, then
 * `eth_sendRawTransaction`, then the receipt. Sequential, one sender, against this node, anvil and
 * (when the OpenZeppelin suite's checkout is there, `npm run suite:openzeppelin` makes it) that
 * project's `hardhat node`, one after another; the round trip's percentiles, the node's CPU per
 * send, and how often the receipt was not there yet when the send was answered.
 *   npm run bench:send -- [--sends 300] [--targets cchain,anvil,hardhat]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { HDNodeWallet, Mnemonic, Transaction } from 'ethers'
import { cpuUsOf } from './proc.js'
import { type TargetName, rpc, startTarget } from './suite/targets.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const CHECKOUT = join(ROOT, '.suites/openzeppelin/repo')
const WARMUP = 30

interface Result {
  target: TargetName
  sends: number
  p50: number
  p90: number
  p99: number
  /** The node's CPU per send (the nonce read, the send, its block, the receipt read), µs. */
  cpuUs: number
  /** Sends whose receipt was not there when the answer came. */
  noReceipt: number
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

async function measure(target: TargetName, sends: number): Promise<Result> {
  const logDir = mkdtempSync(join(tmpdir(), 'bench-send-'))
  const node = await startTarget(target, { root: ROOT, checkout: CHECKOUT, logFile: join(logDir, 'node.log'), anvilArgs: [] })
  try {
    const wallet = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase('test test test test test test test test test test test junk'), "m/44'/60'/0'/0/0")
    const chainId = BigInt((await rpc(node.url, 'eth_chainId')) as string)
    const fee = 3n * BigInt((await rpc(node.url, 'eth_gasPrice')) as string)
    const times: number[] = []
    let noReceipt = 0
    let cpuStart = 0
    for (let i = 0; i < WARMUP + sends; i++) {
      if (i === WARMUP) cpuStart = cpuUsOf(node.pid)
      const t0 = performance.now()
      const nonce = Number((await rpc(node.url, 'eth_getTransactionCount', [wallet.address, 'pending'])) as string)
      const raw = await wallet.signTransaction(
        Transaction.from({ type: 2, chainId, nonce, to: '0x000000000000000000000000000000000000dEaD', value: 1n, gasLimit: 21_000n, maxFeePerGas: fee, maxPriorityFeePerGas: 1n }),
      )
      const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw])
      const ms = performance.now() - t0
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash])
      if (i < WARMUP) continue
      times.push(ms)
      if (receipt === null) noReceipt++
    }
    const cpu = (cpuUsOf(node.pid) - cpuStart) / sends
    times.sort((a, b) => a - b)
    return { target, sends, p50: percentile(times, 0.5), p90: percentile(times, 0.9), p99: percentile(times, 0.99), cpuUs: cpu, noReceipt }
  } finally {
    await node.stop()
    rmSync(logDir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const value = (flag: string) => {
    const i = args.indexOf(flag)
    return i === -1 ? undefined : args[i + 1]
  }
  const sends = Number(value('--sends') ?? 300)
  const targets = (value('--targets') ?? (existsSync(join(CHECKOUT, 'node_modules/hardhat')) ? 'cchain,anvil,hardhat' : 'cchain,anvil')).split(',') as TargetName[]
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('build the node first: npm run build')
  const results: Result[] = []
  for (const t of targets) {
    console.error(`measuring ${t}...`)
    results.push(await measure(t, sends))
  }
  const ms = (x: number) => x.toFixed(2)
  console.log('| node | sends | p50 ms | p90 ms | p99 ms | node CPU per send | receipt missing at the answer |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of results) console.log(`| ${r.target} | ${r.sends} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${Math.round(r.cpuUs)} µs | ${r.noReceipt} |`)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})

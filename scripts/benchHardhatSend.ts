/**
 * What Hardhat asks before each send, and what each request costs the node (docs/PERFORMANCE.md,
 * "What Hardhat asks before each send"). One sender sends as a Hardhat 2 project's test sends with
 * the ethers plugin over HTTP: eth_blockNumber, eth_estimateGas (no fee fields, `pending`),
 * eth_feeHistory(1, latest, [50]) and, when its reward is 0, eth_maxPriorityFeePerGas (Hardhat's
 * automatic gas price), eth_getTransactionCount (`pending`), eth_sendRawTransaction signed with
 * Hardhat's fees (the next base fee x 81/64, the tip), eth_getTransactionByHash, the receipt. The
 * transactions rotate: an ERC-20 transfer, a nonReentrant deposit that calls the token, a
 * nonReentrant store, a deployment; `--fixture-sends` of them first (a chain longer than the 40 blocks
 * eth_maxPriorityFeePerGas reads), then every `--revert-every` sends evm_revert and evm_snapshot, as
 * loadFixture does between tests. Per method: calls, wall time and the node's CPU (all its threads,
 * /proc/<pid>/task/<tid>/schedstat, nanoseconds), each request on its own, one at a time.
 *
 *   npm run build && node dist/scripts/benchHardhatSend.js [--sends 400] [--warmup 40] [--revert-every 8]
 *     [--fixture-sends 60] [--node <a build's dist/src/main.js>] [--node-arg <flag> ...] [--url <rpc> --pid <pid> --key <funded key>] [--json out.json]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Wallet } from 'ethers'
import { freePort } from './proc.js'
import { deployVault, iface, tokenDeployment } from './vaultSetup.js'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const SENDS = Number(opt('--sends') ?? 400)
const WARMUP = Number(opt('--warmup') ?? 40)
const REVERT_EVERY = Number(opt('--revert-every') ?? 8)
/** Sends before the snapshot the reverts go back to, as a suite's earlier fixtures leave a chain of blocks under the next one. */
const FIXTURE = Number(opt('--fixture-sends') ?? 60)
/** Flags for the node this script starts (`--node-arg --chain-config-file --node-arg c.json`). */
const NODE_ARGS = args.flatMap((a, i) => (args[i - 1] === '--node-arg' ? [a] : []))
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'

/** The node's CPU so far, all its threads, in nanoseconds (schedstat's time on CPU). */
function cpuNs(pid: number): number {
  let total = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total
}

interface Stat {
  calls: number
  wallUs: number[]
  cpuNs: number
}

async function startNode(main: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hardhat-send-'))
  const child: ChildProcess = spawn(process.execPath, [main, '--http-port', String(port), '--data-dir', dataDir, '--log-level', 'warn', ...NODE_ARGS], { stdio: 'ignore' })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`
  const stop = async () => {
    child.kill('SIGTERM')
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(killed)
    rmSync(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
      break
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        await stop()
        throw new Error('the node did not answer within 30 s')
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return { url, pid: child.pid!, stop }
}

async function main(): Promise<void> {
  const node =
    opt('--url') === undefined ? await startNode(resolve(opt('--node') ?? join(import.meta.dirname, '../src/main.js'))) : { url: opt('--url')!, pid: Number(opt('--pid')), stop: async () => {} }
  const wallet = new Wallet(opt('--key') ?? EWOQ_KEY)
  const stats = new Map<string, Stat>()
  let measuring = false
  let id = 0
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })
    const cpu0 = measuring ? cpuNs(node.pid) : 0
    const t0 = performance.now()
    const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const answer = (await res.json()) as { result?: unknown; error?: { message: string } }
    const wall = performance.now() - t0
    if (measuring) {
      const cpu = cpuNs(node.pid) - cpu0
      let s = stats.get(method)
      if (s === undefined) stats.set(method, (s = { calls: 0, wallUs: [], cpuNs: 0 }))
      s.calls++
      s.wallUs.push(wall * 1000)
      s.cpuNs += cpu
    }
    if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
    return answer.result
  }
  try {
    const chainId = BigInt(await rpc('eth_chainId'))
    const from = wallet.address
    const sign = async (tx: { to?: string; data?: string; gasLimit: bigint }) => {
      // Hardhat's AutomaticGasPriceHandler: the tip from the latest block's median reward, else eth_maxPriorityFeePerGas; the cap for three full blocks.
      const history = await rpc('eth_feeHistory', ['0x1', 'latest', [50]])
      let tip = BigInt(history.reward[0][0])
      if (tip === 0n) tip = BigInt(await rpc('eth_maxPriorityFeePerGas'))
      if (tip === 0n) tip = 1n
      let maxFeePerGas = (BigInt(history.baseFeePerGas[1]) * 81n) / 64n
      if (maxFeePerGas < tip) maxFeePerGas += tip
      const nonce = Number(await rpc('eth_getTransactionCount', [from, 'pending']))
      return wallet.signTransaction({ type: 2, chainId, nonce, maxFeePerGas, maxPriorityFeePerGas: tip, ...tx })
    }
    const send = async (tx: { to?: string; data?: string }) => {
      await rpc('eth_blockNumber')
      const gasLimit = BigInt(await rpc('eth_estimateGas', [{ from, ...tx }, 'pending']))
      const hash = await rpc('eth_sendRawTransaction', [await sign({ ...tx, gasLimit })])
      await rpc('eth_getTransactionByHash', [hash])
      const receipt = await rpc('eth_getTransactionReceipt', [hash])
      if (receipt?.status !== '0x1') throw new Error(`transaction ${hash} failed or is missing: ${JSON.stringify(receipt)}`)
      return receipt
    }
    const { token, vault } = await deployVault(send)
    const kinds = [
      () => ({ to: token, data: iface('TestToken').encodeFunctionData('transfer', [Wallet.createRandom().address, 5n]) }),
      () => ({ to: vault, data: iface('Vault').encodeFunctionData('deposit', [7n]) }),
      () => ({ to: vault, data: iface('Vault').encodeFunctionData('record', [3n]) }),
      () => ({ data: tokenDeployment(10n ** 20n) }),
    ]
    for (let i = 0; i < FIXTURE; i++) await send(kinds[i % kinds.length]!())
    let snapshot = REVERT_EVERY > 0 ? await rpc('evm_snapshot') : undefined
    let cpuStart = 0
    const t0 = { wall: 0 }
    for (let i = 0; i < WARMUP + SENDS; i++) {
      if (i === WARMUP) {
        measuring = true
        cpuStart = cpuNs(node.pid)
        t0.wall = performance.now()
      }
      if (REVERT_EVERY > 0 && i > 0 && i % REVERT_EVERY === 0) {
        await rpc('evm_revert', [snapshot])
        snapshot = await rpc('evm_snapshot')
      }
      await send(kinds[i % kinds.length]!())
    }
    const totalCpu = cpuNs(node.pid) - cpuStart
    const totalWall = performance.now() - t0.wall
    const rows = [...stats.entries()].map(([method, s]) => {
      const sorted = [...s.wallUs].sort((a, b) => a - b)
      return { method, calls: s.calls, wallMeanUs: s.wallUs.reduce((a, b) => a + b, 0) / s.calls, wallP50Us: sorted[sorted.length >> 1]!, cpuUs: s.cpuNs / s.calls / 1000, cpuTotalMs: s.cpuNs / 1e6 }
    })
    console.log(
      `${SENDS} sends after ${FIXTURE} + ${WARMUP} unrecorded, evm_revert every ${REVERT_EVERY}: ${(totalWall / 1000).toFixed(2)} s, node CPU ${(totalCpu / 1e6).toFixed(0)} ms (${(totalCpu / SENDS / 1000).toFixed(0)} µs a send)`,
    )
    console.log('| method | calls | wall mean µs | wall p50 µs | node CPU µs a call | node CPU total ms |\n|---|---:|---:|---:|---:|---:|')
    for (const r of rows) console.log(`| ${r.method} | ${r.calls} | ${r.wallMeanUs.toFixed(0)} | ${r.wallP50Us.toFixed(0)} | ${r.cpuUs.toFixed(0)} | ${r.cpuTotalMs.toFixed(1)} |`)
    const json = opt('--json')
    if (json !== undefined)
      writeFileSync(json, JSON.stringify({ sends: SENDS, fixture: FIXTURE, warmup: WARMUP, revertEvery: REVERT_EVERY, totalWallMs: totalWall, totalCpuMs: totalCpu / 1e6, rows }, null, 1))
  } finally {
    await node.stop()
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})

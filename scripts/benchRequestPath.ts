/**
 * The request path's cost (docs/PERFORMANCE.md, "The request path"): the CPU time a running node
 * spends per small JSON-RPC request over HTTP, and with `--perf` where it goes, stage by stage.
 *
 *   node dist/scripts/benchRequestPath.js --url <http JSON-RPC url> --pid <its pid>
 *        [--workload chainId|balance|balanceNew|batch] [--duration 5] [--warmup 1] [--reps 3] [--connections 32] [--perf]
 *
 * Each repetition is an autocannon run (32 keep-alive connections, one request in flight each,
 * every answer compared with the one fetched first), after a warm-up; the node's user and system CPU
 * from /proc/<pid>/stat before and after, divided by the requests answered. Any node works (anvil,
 * hardhat node): standard methods only. `--perf` records one more run with `perf record -g` and
 * counts its samples by stage (scripts/bench/stages.ts); the node must run under
 * `node --perf-basic-prof` for its JIT frames to have names.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuTimesOf } from './proc.js'
import { type Body, cannon, newAddresses } from './bench/reads.js'
import { RpcClient } from './bench/rpc.js'
import { STAGES, stageCounts } from './bench/stages.js'
import { median } from './bench/types.js'

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })

/** The peer harness's W1, W2, W2d and W4 (docs/PERFORMANCE.md, "Against anvil and hardhat"). */
function workload(name: string): Body {
  if (name === 'chainId') return JSON.stringify(call('eth_chainId', []))
  if (name === 'balance') return JSON.stringify(call('eth_getBalance', [EWOQ, 'latest']))
  if (name === 'batch') return JSON.stringify(Array.from({ length: 40 }, (_, i) => call('eth_blockNumber', [], i + 1)))
  if (name === 'balanceNew') {
    const fresh = newAddresses()
    return () => JSON.stringify(call('eth_getBalance', [fresh(), 'latest']))
  }
  throw new Error(`unknown workload ${name}: chainId, balance, balanceNew or batch`)
}

function parseArgs(argv: string[]) {
  const o = { url: '', pid: 0, workload: 'chainId', duration: 5, warmup: 1, reps: 3, connections: 32, perf: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--url') o.url = value()
    else if (a === '--pid') o.pid = Number(value())
    else if (a === '--workload') o.workload = value()
    else if (a === '--duration') o.duration = Number(value())
    else if (a === '--warmup') o.warmup = Number(value())
    else if (a === '--reps') o.reps = Number(value())
    else if (a === '--connections') o.connections = Number(value())
    else if (a === '--perf') o.perf = true
    else throw new Error(`unknown argument ${a} (see the header of scripts/benchRequestPath.ts)`)
  }
  if (o.url === '' || !(o.pid > 0)) throw new Error('--url and --pid are required')
  return o
}

/** One measured run: requests per second and the node's user and system µs per request. */
async function measure(o: ReturnType<typeof parseArgs>, body: Body, expected: string, seconds: number) {
  let mismatch: string | undefined
  const t0 = cpuTimesOf(o.pid)
  const run = await cannon(
    o.url,
    body,
    seconds,
    o.connections,
    expected,
    (b) => (mismatch ??= b),
    () => NaN,
  )
  const t1 = cpuTimesOf(o.pid)
  const bad = run.non2xx + run.mismatches + run.errors + run.timeouts
  if (bad > 0) throw new Error(`${bad} requests failed or answered otherwise than ${expected.slice(0, 200)} (first: ${mismatch?.slice(0, 200)})`)
  return { rps: run.total / seconds, user: (t1.user - t0.user) / run.total, system: (t1.system - t0.system) / run.total, total: run.total }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2))
  const body = workload(o.workload)
  const rpc = new RpcClient(o.url, 1)
  const expected = (await rpc.post(typeof body === 'string' ? body : body())).text
  rpc.close()
  const runs: { rps: number; user: number; system: number }[] = []
  for (let i = 0; i < o.reps; i++) {
    if (o.warmup > 0) await measure(o, body, expected, o.warmup)
    const r = await measure(o, body, expected, o.duration)
    runs.push(r)
    console.log(`run ${i + 1}: ${Math.round(r.rps)} req/s, node CPU ${(r.user + r.system).toFixed(1)} µs per request (user ${r.user.toFixed(1)}, system ${r.system.toFixed(1)})`)
  }
  const cpu = median(runs.map((r) => r.user + r.system))
  console.log(`${o.workload}: median ${Math.round(median(runs.map((r) => r.rps)))} req/s, node CPU ${cpu.toFixed(1)} µs per request`)
  if (!o.perf) return
  const dir = mkdtempSync(join(tmpdir(), 'request-path-'))
  try {
    const data = join(dir, 'perf.data')
    const perf = spawn('perf', ['record', '-F', '999', '-g', '-p', String(o.pid), '-o', data, '--', 'sleep', String(o.duration)], { stdio: 'ignore' })
    const exited = new Promise<void>((resolve, reject) => perf.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited with ${code}`)))))
    await measure(o, body, expected, o.duration)
    await exited
    const counts = stageCounts(execFileSync('perf', ['script', '-i', data, '-F', 'ip,sym'], { maxBuffer: 1 << 30, encoding: 'utf8' }))
    const samples = [...counts.values()].reduce((a, b) => a + b, 0)
    console.log(`\nwhere the node's CPU goes (${samples} samples), at the median ${cpu.toFixed(1)} µs per request:`)
    for (const stage of STAGES) {
      const share = counts.get(stage)! / samples
      console.log(`  ${stage.padEnd(66)} ${(100 * share).toFixed(1).padStart(5)} %  ${(share * cpu).toFixed(1).padStart(6)} µs`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})

/** The read workloads: autocannon against one JSON-RPC method, one identical request or a new one every time. */
import autocannon from 'autocannon'
import type { RpcClient } from './rpc.js'
import { type CpuClock, type LoadRun, type Options, type ReadBench, median } from './types.js'

/** What one read benchmark sends: one identical body, or a new body for every request. */
export type Body = string | (() => string)

/** One autocannon run; `cpu` reads the node's CPU time before and after. */
export async function cannon(url: string, body: Body, seconds: number, connections: number, expected: string, onMismatch: (b: string) => void, cpu: CpuClock): Promise<LoadRun> {
  const cpu0 = cpu()
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(typeof body === 'string' ? { body } : { requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }] }),
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    // Every answer of these reads is the same during a run (no transactions are sent meanwhile; a new
    // address holds nothing), so the check is an exact comparison with the answer fetched before the run.
    verifyBody: (b) => {
      if (b === expected) return true
      onMismatch(String(b))
      return false
    },
  })
  const cpuUs = cpu() - cpu0
  return {
    rps: r.requests.average,
    total: r.requests.total,
    cpuUs: r.requests.total > 0 ? cpuUs / r.requests.total : NaN,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    errors: r.errors,
    timeouts: r.timeouts,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
  }
}

/** A read benchmark: one identical request (`params`), or a new one every request (`params` a generator). */
export interface ReadSpec {
  name: string
  target?: number
  method: string
  params: unknown[] | (() => unknown[])
  note?: string
}

export async function benchRead(rpc: RpcClient, url: string, cpu: CpuClock, spec: ReadSpec, o: Options): Promise<ReadBench> {
  const { name, target, method, params, note } = spec
  const bodyOf = (p: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: p })
  const body: Body = typeof params === 'function' ? () => bodyOf(params()) : bodyOf(params)
  const expected = (await rpc.post(typeof body === 'string' ? body : body())).text
  const parsed = JSON.parse(expected) as { result?: unknown; error?: unknown }
  if (parsed.error !== undefined || parsed.result === undefined) throw new Error(`${name}: the node answered ${expected}`)
  let sampleError: string | undefined
  const onMismatch = (b: string) => {
    sampleError ??= b.slice(0, 300)
  }
  const runs: LoadRun[] = []
  for (let i = 0; i < o.reps; i++) {
    await cannon(url, body, o.warmup, o.connections, expected, onMismatch, cpu)
    const run = await cannon(url, body, o.duration, o.connections, expected, onMismatch, cpu)
    runs.push(run)
    process.stderr.write(`  ${name} run ${i + 1}: ${Math.round(run.rps)} req/s, ${Number.isNaN(run.cpuUs) ? '-' : Math.round(run.cpuUs)} µs CPU each\n`)
  }
  return { name, target, median: median(runs.map((r) => r.rps)), cpuUs: median(runs.map((r) => r.cpuUs)), runs, sampleError, note }
}

/** Addresses never asked before: a random 32-bit prefix, then a counter (no address repeats, warm-ups included). */
export function newAddresses(): () => string {
  const prefix = Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')
  let n = 0
  return () => '0x' + prefix + (n++).toString(16).padStart(32, '0')
}

/**
 * Addresses never asked before whose 20 bytes are all non-zero: a random prefix, then a counter in
 * base 255 with every digit one higher. Calldata that carries one costs the same intrinsic gas every
 * time, so every eth_estimateGas of a transfer to one answers the same and is checked exactly.
 */
function nonZeroAddresses(): () => string {
  const byte = (b: number) => b.toString(16).padStart(2, '0')
  const prefix = Array.from({ length: 8 }, () => byte(1 + Math.floor(Math.random() * 255))).join('')
  let n = 0
  return () => {
    let rest = ''
    for (let k = 0, v = n++; k < 12; k++, v = Math.floor(v / 255)) rest = byte(1 + (v % 255)) + rest
    return '0x' + prefix + rest
  }
}

const word = (address: string) => '0'.repeat(24) + address.slice(2).toLowerCase()

/** Every read benchmark; the distinct-key ones build a new body for every request (a new address or holder each time). */
export function readSpecs(token: string, holder: string): ReadSpec[] {
  const balanceOf = (who: string) => '0x70a08231' + word(who)
  const fresh = newAddresses()
  return [
    { name: 'eth_chainId', target: 13_000, method: 'eth_chainId', params: [] },
    { name: 'eth_getBalance', target: 12_000, method: 'eth_getBalance', params: [holder, 'latest'] },
    { name: 'eth_getBalance, new address each', method: 'eth_getBalance', params: () => [fresh(), 'latest'] },
    {
      name: 'balanceOf eth_call, identical (may hit the per-head memo)',
      target: 8_000,
      method: 'eth_call',
      params: [{ to: token, data: balanceOf(holder) }, 'latest'],
      note: 'one identical call repeated, possibly answered from the per-head eth_call memo rather than the EVM; the "new holder each" row runs the EVM every time',
    },
    { name: 'balanceOf eth_call, new holder each', method: 'eth_call', params: () => [{ to: token, data: balanceOf(fresh()) }, 'latest'] },
  ]
}

export const CALL_TRANSFER = 'call-transfer'
export const ESTIMATE_TRANSFER = 'estimate-transfer'

/** ERC-20 `transfer(to, 1)` from the funded holder to a new recipient every request, as `eth_call` and as `eth_estimateGas`. */
export function transferCallSpecs(token: string, holder: string): ReadSpec[] {
  const fresh = nonZeroAddresses()
  const tx = () => ({ from: holder, to: token, data: '0xa9059cbb' + word(fresh()) + (1).toString(16).padStart(64, '0') })
  return [
    { name: CALL_TRANSFER, method: 'eth_call', params: () => [tx(), 'latest'], note: 'eth_call of ERC-20 transfer(to, 1) from the token holder, a new recipient every request' },
    { name: ESTIMATE_TRANSFER, method: 'eth_estimateGas', params: () => [tx(), 'latest'], note: 'eth_estimateGas of the same transaction, a new recipient every request' },
  ]
}

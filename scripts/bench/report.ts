/** The bench's table on stdout and its JSON file. */
import { writeFileSync } from 'node:fs'
import type { ColdStart } from './node.js'
import { CALL_TRANSFER, ESTIMATE_TRANSFER } from './reads.js'
import { type Options, type ReadBench, type TransferRun, median } from './types.js'

export interface Report {
  o: Options
  /** What was measured: this node (spawned) or the node at `--url`, with its web3_clientVersion. */
  subject: { spawned: boolean; url: string; clientVersion?: string; pid?: number }
  reads: ReadBench[]
  transfers: TransferRun[]
  transferWarmup?: TransferRun
  rss?: number
  coldStart?: ColdStart
  cpu: { model: string; cores: number }
}

function table(rows: string[][]): string {
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(w[c]) : cell.padStart(w[c]))).join('  ')).join('\n')
}

const fmt = (n: number) => (Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'))

/** estimate-transfer against call-transfer: CPU µs per request (estimate ÷ call) and req/s (call ÷ estimate); undefined unless both ran. */
function estimateOverCall(reads: ReadBench[]): { cpu: number; throughput: number } | undefined {
  const call = reads.find((r) => r.name === CALL_TRANSFER)
  const estimate = reads.find((r) => r.name === ESTIMATE_TRANSFER)
  if (!call || !estimate) return undefined
  return { cpu: estimate.cpuUs / call.cpuUs, throughput: call.median / estimate.median }
}

export function report(r: Report): void {
  const { o, reads, transfers, transferWarmup, rss, coldStart, cpu } = r
  const transferMedian = transfers.length ? median(transfers.map((x) => x.tps)) : NaN
  const transferCpuUs = transfers.length ? median(transfers.map((x) => x.cpuUs)) : NaN
  const rows = [['benchmark', 'median', 'CPU µs/op', 'runs', 'target', 'non-2xx', 'rpc errors', 'conn errors', 'p99 ms']]
  for (const b of reads) {
    rows.push([
      `${b.name} (req/s)`,
      fmt(b.median),
      fmt(b.cpuUs),
      b.runs.map((x) => fmt(x.rps)).join(' / '),
      b.target === undefined ? '-' : fmt(b.target),
      String(b.runs.reduce((n, x) => n + x.non2xx, 0)),
      String(b.runs.reduce((n, x) => n + x.mismatches, 0)),
      String(b.runs.reduce((n, x) => n + x.errors, 0)),
      String(Math.max(...b.runs.map((x) => x.p99ms))),
    ])
  }
  if (transfers.length)
    rows.push([
      'transfers mined/s',
      fmt(transferMedian),
      fmt(transferCpuUs),
      transfers.map((x) => fmt(x.tps)).join(' / '),
      '1,000',
      '-',
      String(transfers.reduce((n, x) => n + x.sendErrors, 0)),
      '-',
      '-',
    ])
  const out = (s: string) => process.stdout.write(s)
  const who = r.subject.spawned ? 'cchain-node' : `${r.subject.url} (${r.subject.clientVersion ?? 'unknown client'}${r.subject.pid ? `, pid ${r.subject.pid}` : ', no --pid: no CPU figures'})`
  out(`\n${who} bench: ${o.connections} connections, pipelining 1, ${o.duration} s runs after ${o.warmup} s warm-up, ${o.reps} repetitions\n`)
  out(`CPU: ${cpu.model}, ${cpu.cores} cores; node ${process.version}; node RSS at end ${rss ? (rss / 2 ** 20).toFixed(0) + ' MiB' : 'n/a'}\n`)
  if (r.subject.spawned)
    out(`cold start (spawn to the first eth_chainId answer, polled every 10 ms): ${coldStart ? `${fmt(coldStart.ms)} ms, the node's CPU by then ${fmt(coldStart.cpuMs)} ms` : 'not measured'}\n`)
  out('\n' + table(rows) + '\n')
  if (transfers.length)
    out(
      `transfers: ${o.transfers} pre-signed EIP-1559 transfers from ${o.senders} senders per run after a ${transferWarmup?.mined ?? 0}-transfer warm-up round; blocks per run ${transfers.map((x) => x.blocks).join(' / ')}\n`,
    )
  for (const b of reads) if (b.note) out(`${b.name}: ${b.note}\n`)
  for (const b of reads) if (b.sampleError) out(`${b.name}: first unexpected answer: ${b.sampleError}\n`)
  const ratio = estimateOverCall(reads)
  if (ratio) out(`${ESTIMATE_TRANSFER} / ${CALL_TRANSFER}: CPU µs per request ${ratio.cpu.toFixed(2)}x; req/s, call ÷ estimate: ${ratio.throughput.toFixed(2)}x\n`)
  out("CPU µs/op: the node process's user + system time per request or mined transfer (/proc/<pid>/stat, 10 ms ticks), median of the runs\n")
  if (r.subject.spawned) {
    const missed = [...reads.filter((b) => b.target !== undefined && b.median < b.target).map((b) => b.name), ...(transferMedian < 1000 ? ['transfers'] : [])]
    out(missed.length ? `below target: ${missed.join(', ')}\n` : 'all targets met\n')
  }

  if (o.json) {
    writeFileSync(
      o.json,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          cpu,
          node: process.version,
          subject: r.subject,
          options: { ...o, json: undefined, key: undefined },
          reads: Object.fromEntries(reads.map((b) => [b.name, { median: b.median, cpuUsPerRequest: b.cpuUs, target: b.target, note: b.note, runs: b.runs, sampleError: b.sampleError }])),
          estimateOverCall: ratio,
          transfers: { median: transferMedian, cpuUsPerTransfer: transferCpuUs, target: 1000, runs: transfers, warmup: transferWarmup },
          nodeRssBytes: rss,
          coldStart,
        },
        null,
        2,
      ) + '\n',
    )
    out(`figures written to ${o.json}\n`)
  }
}

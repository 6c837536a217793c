/** What the bench's modules share: its options and the shapes of its measurements. */

export interface Options {
  json?: string
  duration: number
  warmup: number
  reps: number
  connections: number
  transfers: number
  senders: number
  nodeArgs: string[]
  nodeOptions: string[]
  /** reads: every read workload; transfers: the transfer rounds only; calls: call-transfer and estimate-transfer only. */
  only?: 'reads' | 'transfers' | 'calls'
  /** Measure the node already running at this JSON-RPC URL instead of spawning this one. */
  url?: string
  /** With `url`: the process whose CPU time is read from /proc. */
  pid?: number
  /** The funded key that deploys the token and funds the senders. */
  key: string
}

/** One autocannon measurement. */
export interface LoadRun {
  rps: number
  total: number
  /** The node's CPU time (user + system) per request, µs; NaN without a PID. */
  cpuUs: number
  non2xx: number
  mismatches: number
  errors: number
  timeouts: number
  p50ms: number
  p99ms: number
}

/** One transfer round. */
export interface TransferRun {
  tps: number
  mined: number
  /** The node's CPU time (user + system) per mined transfer, µs; the sends and the mining both count. */
  cpuUs: number
  seconds: number
  blocks: number
  sendErrors: number
}

export interface ReadBench {
  name: string
  /** req/s to reach; undefined: none set (the distinct-key reads are judged against the peers, docs/PERFORMANCE.md). */
  target?: number
  median: number
  /** Median of the runs' node CPU µs per request. */
  cpuUs: number
  runs: LoadRun[]
  sampleError?: string
  /** Printed beside the figure. */
  note?: string
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The node's CPU time so far, µs, or NaN when no PID is known (a node measured by URL alone). */
export type CpuClock = () => number

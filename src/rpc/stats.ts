/**
 * Per-method request counts and latency histograms, and error counts per JSON-RPC code, kept as
 * plain numbers so the dispatchers' hot path pays two clock reads and a few increments per call;
 * src/metrics.ts turns them into Prometheus series when /ext/metrics is scraped.
 */

/** Upper bounds (seconds) of the latency histogram buckets; +Inf is implicit. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const BOUNDS_MS = LATENCY_BUCKETS_SECONDS.map((s) => s * 1000)

/** One method's calls: count, total time and a non-cumulative count per bucket (last = +Inf). */
export class MethodStats {
  count = 0
  sumMs = 0
  readonly buckets = new Float64Array(BOUNDS_MS.length + 1)

  observe(ms: number): void {
    this.count++
    this.sumMs += ms
    let i = 0
    while (i < BOUNDS_MS.length && ms > BOUNDS_MS[i]!) i++
    this.buckets[i]!++
  }
}

/** Everything the dispatchers count; one instance per node, shared by every endpoint. */
export class RpcStats {
  /** Method wire name -> stats; only methods of a served table appear (bounded cardinality). */
  readonly methods = new Map<string, MethodStats>()
  /** JSON-RPC error code -> answers carrying it. */
  readonly errors = new Map<number, number>()

  /** The stats object of one method, created on first use. */
  method(name: string): MethodStats {
    let s = this.methods.get(name)
    if (s === undefined) this.methods.set(name, (s = new MethodStats()))
    return s
  }

  error(code: number): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1)
  }
}

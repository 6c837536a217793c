import { Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { LATENCY_BUCKETS_SECONDS, type RpcStats } from './rpc/stats.js'

/** What /ext/metrics reads at scrape time; nothing here runs between scrapes. */
export interface MetricsSources {
  stats: RpcStats
  headHeight(): bigint
  /** Every running EVM chain's head, by primary alias. */
  chainHeads?(): { chain: string; height: bigint }[]
  txPool(): { pending: number; queued: number }
  wsConnections(): number
  wsSubscriptions(): number
  /** Bytes the LevelDB directory takes on disk. */
  databaseSize(): Promise<number>
}

// Process-wide by nature: collectDefaultMetrics installs observers (GC, event loop delay) that live
// as long as the process, so one set serves every node a process runs (tests start many).
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

type Value = { labels?: Record<string, string | number>; value: number; metricName?: string }

/**
 * A metric whose series are computed from RpcStats when scraped: the dispatchers only bump plain
 * counters, and prom-client's registry formats these like its own metrics.
 */
function computed(name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) {
  return {
    name,
    help,
    type,
    get: async () => ({ name, help, type, values: values(), aggregator: 'sum' as const }),
    reset: () => {},
  }
}

/** The node's Prometheus registry: process defaults plus JSON-RPC, chain, pool, WebSocket and database series. */
export function createMetrics(src: MetricsSources): { registry: Registry; contentType: string; text(): Promise<string> } {
  const own = new Registry()
  const { stats } = src
  own.registerMetric(
    computed('cchain_rpc_requests_total', 'JSON-RPC calls handled, by method', 'counter', () =>
      [...stats.methods].filter(([, s]) => s.count > 0).map(([method, s]) => ({ labels: { method }, value: s.count })),
    ) as never,
  )
  own.registerMetric(
    computed('cchain_rpc_request_duration_seconds', 'JSON-RPC call latency, by method', 'histogram', () => {
      const out: Value[] = []
      for (const [method, s] of stats.methods) {
        if (s.count === 0) continue
        let cumulative = 0
        for (let i = 0; i < LATENCY_BUCKETS_SECONDS.length; i++) {
          cumulative += s.buckets[i]!
          out.push({ metricName: 'cchain_rpc_request_duration_seconds_bucket', labels: { le: LATENCY_BUCKETS_SECONDS[i]!, method }, value: cumulative })
        }
        out.push({ metricName: 'cchain_rpc_request_duration_seconds_bucket', labels: { le: '+Inf', method }, value: s.count })
        out.push({ metricName: 'cchain_rpc_request_duration_seconds_sum', labels: { method }, value: s.sumMs / 1000 })
        out.push({ metricName: 'cchain_rpc_request_duration_seconds_count', labels: { method }, value: s.count })
      }
      return out
    }) as never,
  )
  own.registerMetric(
    computed('cchain_rpc_errors_total', 'JSON-RPC error answers, by error code', 'counter', () =>
      [...stats.errors].sort(([a], [b]) => a - b).map(([code, n]) => ({ labels: { code }, value: n })),
    ) as never,
  )
  const gauge = (name: string, help: string, read: () => number | Promise<number>): void => {
    new Gauge({
      name,
      help,
      registers: [own],
      async collect() {
        this.set(await read())
      },
    })
  }
  gauge('cchain_head_block_number', 'Height of the last accepted block', () => Number(src.headHeight()))
  if (src.chainHeads !== undefined) {
    const heads = src.chainHeads.bind(src)
    new Gauge({
      name: 'cchain_chain_head_block_number',
      help: 'Height of the last accepted block, by EVM chain',
      labelNames: ['chain'],
      registers: [own],
      collect() {
        for (const h of heads()) this.set({ chain: h.chain }, Number(h.height))
      },
    })
  }
  gauge('cchain_txpool_pending', 'Executable transactions in the pool', () => src.txPool().pending)
  gauge('cchain_txpool_queued', 'Transactions waiting for a nonce gap to close', () => src.txPool().queued)
  gauge('cchain_ws_connections', 'Open WebSocket connections', () => src.wsConnections())
  gauge('cchain_ws_subscriptions', 'Live eth_subscribe subscriptions', () => src.wsSubscriptions())
  gauge('cchain_db_size_bytes', 'Size of the LevelDB directory on disk', () => src.databaseSize())
  const registry = Registry.merge([processMetrics(), own])
  return { registry, contentType: registry.contentType, text: () => registry.metrics() }
}

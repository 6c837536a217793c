/**
 * avalanchego's health checks (api/health: checker, result.go, service.go) as far as this node has
 * them; served by the `health` table of src/namespaces/health.ts and by GET /ext/health.
 */
import { cb58Encode } from './avalanche/cb58.js'

/** One check's result as avalanchego api/health/result.go marshals it. */
export interface HealthResult {
  message?: unknown
  error?: string
  /** RFC 3339 time of the check. */
  timestamp: string
  /** How long the check took, in nanoseconds. */
  duration: number
  contiguousFailures?: number
  timeOfFirstFailure?: string
}

/** health.health / readiness / liveness reply (api/health/service.go APIReply). */
export interface HealthReply {
  checks: Record<string, HealthResult>
  healthy: boolean
}

export type HealthKind = 'health' | 'readiness' | 'liveness'

/** One EVM chain's view for its check: the last accepted block, and a probe of its database. */
export interface ChainHealthSource {
  /** The check's name: the chain's primary alias (`C`, an extra chain's name). */
  name: string
  /** The subnet it belongs to, matched against `tags`: the primary network's for C; an extra chain is a subnet of its own (its ID). */
  subnet: string
  head(): { height: bigint; hash: Uint8Array }
  checkDatabase(): void
}

/** What the checks read: each EVM chain, and a probe that throws when a database is unusable. */
export interface HealthSources {
  chains: readonly ChainHealthSource[]
  checkDatabase(): void
}

type Check = { name: string; tag: string; run: () => unknown }
const APPLICATION = 'application'

/**
 * avalanchego's health checks that mean something for this node, run on each request: one per
 * EVM chain named by its alias (`C`, ...: the chain's consensus view, its last accepted block),
 * `bootstrapped` and `database` (open, and each head block readable from disk). Readiness is
 * `bootstrapped` alone; liveness has no checks, as in avalanchego. `tags` keep the application
 * checks plus the chains of the subnets named (the primary network's ID for `C`).
 */
export class HealthReporter {
  private readonly failures = new Map<string, { count: number; since: string }>()
  private readonly checks: Check[]

  constructor(sources: HealthSources) {
    this.checks = [
      ...sources.chains.map((chain) => ({
        name: chain.name,
        tag: chain.subnet,
        run: () => {
          chain.checkDatabase()
          const head = chain.head()
          return {
            engine: {
              consensus: { lastAcceptedHeight: Number(head.height), lastAcceptedID: cb58Encode(head.hash), longestProcessingBlock: '0s', processingBlocks: 0 },
              vm: null,
            },
            networking: { percentConnected: 1 },
          }
        },
      })),
      { name: 'bootstrapped', tag: APPLICATION, run: () => [] },
      {
        name: 'database',
        tag: APPLICATION,
        run: () => {
          sources.checkDatabase()
        },
      },
    ]
  }

  report(kind: HealthKind, tags: readonly string[] = []): HealthReply {
    const names = kind === 'health' ? undefined : kind === 'readiness' ? ['bootstrapped'] : []
    const checks: Record<string, HealthResult> = {}
    let healthy = true
    for (const check of this.checks) {
      if (names !== undefined && !names.includes(check.name)) continue
      if (tags.length > 0 && check.tag !== APPLICATION && !tags.includes(check.tag)) continue
      const result = this.run(check)
      if (result.error !== undefined) healthy = false
      checks[check.name] = result
    }
    return { checks, healthy }
  }

  private run(check: Check): HealthResult {
    const t0 = process.hrtime.bigint()
    const timestamp = new Date().toISOString()
    let message: unknown
    let error: string | undefined
    try {
      message = check.run()
    } catch (err) {
      error = err instanceof Error ? err.message : String(err)
    }
    const duration = Number(process.hrtime.bigint() - t0)
    if (error === undefined) {
      this.failures.delete(check.name)
      return message === undefined ? { timestamp, duration } : { message, timestamp, duration }
    }
    const f = this.failures.get(check.name) ?? { count: 0, since: timestamp }
    f.count++
    this.failures.set(check.name, f)
    return { error, timestamp, duration, contiguousFailures: f.count, timeOfFirstFailure: f.since }
  }
}

import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join, resolve } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { writeHeapSnapshot } from 'node:v8'

/** File names in the profile directory (coreth writes cpu.profile, mem.profile, lock.profile). */
export const CPU_PROFILE_FILE = 'cpu.cpuprofile'
export const HEAP_SNAPSHOT_FILE = 'mem.heapsnapshot'
export const LOCK_PROFILE_FILE = 'lock.eventloop.json'
/** How long admin.lockProfile samples the event loop. */
export const LOCK_PROFILE_WINDOW_MS = 1000

/** A profiler request that cannot be served now; the message is coreth's (utils/profiler/profiler.go). */
export class ProfilerError extends Error {
  override name = 'ProfilerError'
}

/**
 * The profile directory as coreth names it: `os.ExpandEnv("<admin-api-dir>_coreth_performance_<alias>")`
 * (plugin/evm/vm.go), relative to the data directory here instead of the process's working directory.
 */
export function profileDir(dataDir: string, adminApiDir: string, chainAlias = 'C'): string {
  const expanded = `${adminApiDir}_coreth_performance_${chainAlias}`.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a?: string, b?: string) => process.env[(a ?? b)!] ?? '')
  return resolve(dataDir, expanded)
}

const ms = (ns: number): number => +(ns / 1e6).toFixed(3)

/**
 * Node's counterparts of avalanchego's utils/profiler: a V8 CPU profile through the inspector
 * (`.cpuprofile`, opens in Chrome DevTools), a V8 heap snapshot, and, as Node has no mutex
 * profile, the event loop's delay histogram and utilization over a short window.
 */
export class Profiler {
  private session: Session | undefined

  constructor(readonly dir: string) {}

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o750 })
  }

  private write(name: string, text: string): string {
    const path = join(this.dir, name)
    writeFileSync(path, text, { mode: 0o640 })
    chmodSync(path, 0o640)
    return path
  }

  get cpuProfilerRunning(): boolean {
    return this.session !== undefined
  }

  async startCPUProfiler(): Promise<void> {
    if (this.session !== undefined) throw new ProfilerError('cpu profiler already running')
    this.ensureDir()
    const session = new Session()
    this.session = session
    try {
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.start')
    } catch (err) {
      this.session = undefined
      session.disconnect()
      throw err
    }
  }

  /** Stops the CPU profile and writes it; resolves to the file's path. */
  async stopCPUProfiler(): Promise<string> {
    const session = this.session
    if (session === undefined) throw new ProfilerError("cpu profiler doesn't exist")
    this.session = undefined
    try {
      const { profile } = await session.post('Profiler.stop')
      this.ensureDir()
      return this.write(CPU_PROFILE_FILE, JSON.stringify(profile))
    } finally {
      session.disconnect()
    }
  }

  /** Writes a heap snapshot (V8 collects garbage first); resolves to the file's path. */
  async memoryProfile(): Promise<string> {
    this.ensureDir()
    const path = join(this.dir, HEAP_SNAPSHOT_FILE)
    writeHeapSnapshot(path)
    chmodSync(path, 0o640)
    return path
  }

  /**
   * The closest thing Node has to Go's mutex profile: how long callbacks waited for the event loop
   * (perf_hooks.monitorEventLoopDelay) and how busy the loop was (eventLoopUtilization) during
   * `windowMs`, plus utilization since the process started. Resolves to the file's path.
   */
  async lockProfile(windowMs = LOCK_PROFILE_WINDOW_MS): Promise<string> {
    this.ensureDir()
    const histogram = monitorEventLoopDelay({ resolution: 10 })
    const started = new Date()
    const elu0 = performance.eventLoopUtilization()
    histogram.enable()
    await sleep(windowMs)
    histogram.disable()
    const elu = performance.eventLoopUtilization(elu0)
    const total = performance.eventLoopUtilization()
    const report = {
      kind: 'event-loop',
      note: 'Node.js has no mutex profile: this is the event loop delay (how late timers and I/O callbacks ran) and utilization over the window',
      startedAt: started.toISOString(),
      windowMs,
      eventLoopDelayMs: {
        samples: histogram.count,
        min: ms(histogram.min),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        stddev: ms(histogram.stddev),
        p50: ms(histogram.percentile(50)),
        p90: ms(histogram.percentile(90)),
        p99: ms(histogram.percentile(99)),
        p999: ms(histogram.percentile(99.9)),
        exceeds: histogram.exceeds,
      },
      eventLoopUtilization: { idleMs: +elu.idle.toFixed(3), activeMs: +elu.active.toFixed(3), utilization: +elu.utilization.toFixed(6) },
      sinceProcessStart: { idleMs: +total.idle.toFixed(3), activeMs: +total.active.toFixed(3), utilization: +total.utilization.toFixed(6) },
    }
    return this.write(LOCK_PROFILE_FILE, JSON.stringify(report, null, 2) + '\n')
  }

  /** Ends a running CPU profile without writing it (node shutdown). */
  close(): void {
    const session = this.session
    this.session = undefined
    session?.disconnect()
  }
}

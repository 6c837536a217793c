import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import type { Session } from 'node:inspector/promises'
import { join, resolve } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { HeapSamplingProfile } from './util/pprof.js'

/** File names in the profile directory, avalanchego's (utils/profiler/profiler.go); each a gzipped pprof profile. */
export const CPU_PROFILE_FILE = 'cpu.profile'
export const MEM_PROFILE_FILE = 'mem.profile'
export const LOCK_PROFILE_FILE = 'lock.profile'
/** How long admin.lockProfile samples the event loop, and the interval of its timer. */
export const LOCK_PROFILE_WINDOW_MS = 1000
const DELAY_RESOLUTION_MS = 10
/** V8's CPU sampling interval (µs); Go samples at 100 Hz, V8's default of 1 ms gives a finer profile. */
export const CPU_SAMPLING_INTERVAL_US = 1000
/** V8's heap sampling interval (bytes): its default, Go's MemProfileRate. */
export const HEAP_SAMPLING_INTERVAL = 512 * 1024

// The inspector and the pprof writer load with the first profile, not with the node: the CLI's start-up
// path imports this file for ProfilerError (src/rpc/errors.ts) before it listens (docs/PERFORMANCE.md, "Start-up").
const inspector = () => import('node:inspector/promises')
const pprof = () => import('./util/pprof.js')

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
 * Node's counterparts of avalanchego's utils/profiler, written in pprof's format so `go tool pprof`
 * reads them: V8's CPU profile (through the inspector) as `cpu.profile`; the allocations V8's sampling
 * heap profiler holds live as `mem.profile` (sampling runs from `startHeapSampling`, which the admin
 * API calls when it is enabled, as Go's heap profile always samples); and, as Node has no mutex
 * profile, the event loop's delay over a short window as the contention profile `lock.profile`.
 */
export class Profiler {
  private session: Session | undefined
  private cpuStarted = new Date(0)
  private heap: Promise<Session> | undefined

  constructor(readonly dir: string) {}

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o750 })
  }

  private write(name: string, bytes: Uint8Array): string {
    const path = join(this.dir, name)
    writeFileSync(path, bytes, { mode: 0o640 })
    chmodSync(path, 0o640)
    return path
  }

  get cpuProfilerRunning(): boolean {
    return this.session !== undefined
  }

  async startCPUProfiler(): Promise<void> {
    const { Session } = await inspector()
    if (this.session !== undefined) throw new ProfilerError('cpu profiler already running')
    this.ensureDir()
    const session = new Session()
    this.session = session
    try {
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: CPU_SAMPLING_INTERVAL_US })
      await session.post('Profiler.start')
      this.cpuStarted = new Date()
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
      return this.write(CPU_PROFILE_FILE, (await pprof()).cpuProfileToPprof(profile, CPU_SAMPLING_INTERVAL_US, this.cpuStarted))
    } finally {
      session.disconnect()
    }
  }

  /** Starts V8's sampling heap profiler (once): what memoryProfile writes is sampled from then on. */
  startHeapSampling(): Promise<Session> {
    this.heap ??= (async () => {
      const session = new (await inspector()).Session()
      session.connect()
      await session.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_INTERVAL })
      return session
    })()
    return this.heap
  }

  /** Collects garbage (as avalanchego's runtime.GC()) and writes the live sampled allocations; resolves to the file's path. */
  async memoryProfile(): Promise<string> {
    const session = await this.startHeapSampling()
    this.ensureDir()
    await session.post('HeapProfiler.collectGarbage')
    const { profile } = await session.post('HeapProfiler.getSamplingProfile')
    return this.write(MEM_PROFILE_FILE, (await pprof()).heapProfileToPprof(profile as HeapSamplingProfile, HEAP_SAMPLING_INTERVAL, new Date()))
  }

  /**
   * The closest thing Node has to Go's mutex profile: how long callbacks waited for the event loop
   * (perf_hooks.monitorEventLoopDelay) during `windowMs`, as a contention profile; its comments give
   * the delay's distribution and how busy the loop was. Resolves to the file's path.
   */
  async lockProfile(windowMs = LOCK_PROFILE_WINDOW_MS): Promise<string> {
    this.ensureDir()
    const histogram = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS })
    const started = new Date()
    const elu0 = performance.eventLoopUtilization()
    histogram.enable()
    await sleep(windowMs)
    histogram.disable()
    const elu = performance.eventLoopUtilization(elu0)
    // The histogram records the time between its timer's runs: the delay is what exceeds the timer's interval.
    const late = (ns: number): number => (Number.isFinite(ns) ? Math.max(0, ns - DELAY_RESOLUTION_MS * 1e6) : 0)
    const comments = [
      'Node.js has no mutex profile: this is the event loop delay (how late timers and I/O callbacks ran) over the window',
      `window ${windowMs} ms; delay samples ${histogram.count}; min ${ms(late(histogram.min))} ms, mean ${ms(late(histogram.mean))} ms, p50 ${ms(late(histogram.percentile(50)))} ms, p99 ${ms(late(histogram.percentile(99)))} ms, max ${ms(late(histogram.max))} ms`,
      `event loop utilization ${elu.utilization.toFixed(6)} (active ${elu.active.toFixed(3)} ms, idle ${elu.idle.toFixed(3)} ms)`,
    ]
    const bytes = (await pprof()).eventLoopToPprof({ count: histogram.count, totalNanos: histogram.count * late(histogram.mean), windowNanos: windowMs * 1e6, start: started, comments })
    return this.write(LOCK_PROFILE_FILE, bytes)
  }

  /** Ends a running CPU profile without writing it, and the heap sampling (node shutdown). */
  close(): void {
    const session = this.session
    this.session = undefined
    session?.disconnect()
    const heap = this.heap
    this.heap = undefined
    heap?.then(
      (s) => s.disconnect(),
      () => {},
    )
  }
}

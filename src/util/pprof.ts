/**
 * V8's profiles in pprof's format (profile.proto, gzipped, as Go's runtime/pprof writes them), so
 * `go tool pprof` reads what admin.stopCPUProfiler, admin.memoryProfile and admin.lockProfile write
 * (avalanchego: utils/profiler/profiler.go). Encoding by pprof-format (DataDog's pure-JS encoder).
 */
import { gzipSync } from 'node:zlib'
import type { HeapProfiler, Profiler, Runtime } from 'node:inspector'
import { Function as PprofFunction, Line, Location, Profile, Sample, StringTable, ValueType } from 'pprof-format'

/** Locations and functions shared by a profile's stacks: one per distinct JS frame. */
class Frames {
  readonly strings = new StringTable()
  readonly functions: PprofFunction[] = []
  readonly locations: Location[] = []
  private readonly byKey = new Map<string, number>()

  /** The location ID of a V8 call frame (functionName, url, line and column are 0-based in V8, 1-based in pprof). */
  location(frame: Runtime.CallFrame): number {
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName
    const key = `${name}\0${frame.url}\0${frame.lineNumber}\0${frame.columnNumber}`
    let id = this.byKey.get(key)
    if (id !== undefined) return id
    id = this.locations.length + 1
    const line = frame.lineNumber + 1
    const fn = new PprofFunction({ id, name: this.strings.dedup(name), systemName: this.strings.dedup(name), filename: this.strings.dedup(frame.url), startLine: line })
    this.functions.push(fn)
    this.locations.push(new Location({ id, line: [new Line({ functionId: id, line })] }))
    this.byKey.set(key, id)
    return id
  }

  valueType(type: string, unit: string): ValueType {
    return new ValueType({ type: this.strings.dedup(type), unit: this.strings.dedup(unit) })
  }
}

function encode(frames: Frames, profile: Omit<ConstructorParameters<typeof Profile>[0] & object, 'stringTable' | 'function' | 'location'>): Uint8Array {
  return gzipSync(new Profile({ ...profile, stringTable: frames.strings, function: frames.functions, location: frames.locations }).encode())
}

/**
 * A V8 CPU profile (inspector Profiler.stop) as Go's CPU profile: sample types `samples/count` and
 * `cpu/nanoseconds`, one sample per distinct stack (leaf first), each sample's time its time delta.
 */
export function cpuProfileToPprof(profile: Profiler.Profile, intervalMicros: number, started: Date): Uint8Array {
  const frames = new Frames()
  const parent = new Map<number, number>()
  const node = new Map<number, Profiler.ProfileNode>()
  for (const n of profile.nodes) {
    node.set(n.id, n)
    for (const c of n.children ?? []) parent.set(c, n.id)
  }
  // Per leaf node: hit count and time (µs), from the sample list.
  const hits = new Map<number, { count: number; micros: number }>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const h = hits.get(samples[i]!) ?? { count: 0, micros: 0 }
    h.count++
    h.micros += Math.max(0, deltas[i] ?? 0)
    hits.set(samples[i]!, h)
  }
  const stack = (id: number): number[] => {
    const out: number[] = []
    // The root node `(root)` is no frame.
    for (let at: number | undefined = id; at !== undefined && parent.has(at); at = parent.get(at)) out.push(frames.location(node.get(at)!.callFrame))
    return out
  }
  const sample = [...hits].map(([id, h]) => new Sample({ locationId: stack(id), value: [h.count, h.micros * 1000] }))
  return encode(frames, {
    sampleType: [frames.valueType('samples', 'count'), frames.valueType('cpu', 'nanoseconds')],
    sample,
    // V8's startTime is a monotonic clock; the profile's time is the wall clock at its start.
    timeNanos: BigInt(started.getTime()) * 1_000_000n,
    durationNanos: BigInt(Math.max(0, Math.round(profile.endTime - profile.startTime))) * 1000n,
    periodType: frames.valueType('cpu', 'nanoseconds'),
    period: intervalMicros * 1000,
  })
}

/** V8's sampling heap profile as the protocol has it (Node 20's typings lack the node IDs and the samples). */
export interface HeapSamplingProfile {
  head: HeapNode
  samples?: { size: number; nodeId: number; ordinal: number }[]
}
type HeapNode = Omit<HeapProfiler.SamplingHeapProfileNode, 'children'> & { id?: number; children: HeapNode[] }

/**
 * A V8 sampling heap profile (inspector HeapProfiler.getSamplingProfile: the sampled allocations still
 * alive) as Go's heap profile names them: `inuse_objects/count` and `inuse_space/bytes` per allocation stack.
 */
export function heapProfileToPprof(profile: HeapSamplingProfile, intervalBytes: number, now: Date): Uint8Array {
  const frames = new Frames()
  const objects = new Map<number, number>()
  for (const s of profile.samples ?? []) objects.set(s.nodeId, (objects.get(s.nodeId) ?? 0) + 1)
  const sample: Sample[] = []
  const walk = (n: HeapNode, above: number[]): void => {
    // The root node `(root)` is no frame.
    const stack = n === profile.head ? above : [frames.location(n.callFrame), ...above]
    if (n.selfSize > 0) sample.push(new Sample({ locationId: stack, value: [n.id === undefined ? 0 : (objects.get(n.id) ?? 0), n.selfSize] }))
    for (const c of n.children) walk(c, stack)
  }
  walk(profile.head, [])
  return encode(frames, {
    sampleType: [frames.valueType('inuse_objects', 'count'), frames.valueType('inuse_space', 'bytes')],
    sample,
    timeNanos: BigInt(now.getTime()) * 1_000_000n,
    periodType: frames.valueType('space', 'bytes'),
    period: intervalBytes,
  })
}

/**
 * The event loop's delay over a window as a contention profile (Go's mutex profile types:
 * `contentions/count`, `delay/nanoseconds`): Node has no mutexes, so one frame, `(event loop delay)`,
 * holds the delayed callbacks and their total delay; `comments` carry the distribution.
 */
export function eventLoopToPprof(delay: { count: number; totalNanos: number; windowNanos: number; start: Date; comments: readonly string[] }): Uint8Array {
  const frames = new Frames()
  const location = frames.location({ functionName: '(event loop delay)', url: '', lineNumber: 0, columnNumber: 0, scriptId: '0' })
  return encode(frames, {
    sampleType: [frames.valueType('contentions', 'count'), frames.valueType('delay', 'nanoseconds')],
    sample: delay.count > 0 ? [new Sample({ locationId: [location], value: [delay.count, Math.round(delay.totalNanos)] })] : [],
    timeNanos: BigInt(delay.start.getTime()) * 1_000_000n,
    durationNanos: Math.round(delay.windowNanos),
    periodType: frames.valueType('contentions', 'count'),
    period: 1,
    comment: delay.comments.map((c) => frames.strings.dedup(c)),
  })
}

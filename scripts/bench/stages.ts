/**
 * The stages of a JSON-RPC request over HTTP, and which stage a CPU sample of the node belongs to
 * (docs/PERFORMANCE.md, "The request path"): `perf script` stacks of a node run with
 * `--perf-basic-prof`, whose JIT frames read `JS:*name file:line`.
 */

export const STAGES = [
  'socket read (kernel, libuv, node streams)',
  'HTTP: parse, routing, Host and CORS checks, response head',
  'JSON-RPC: envelope, method, params, result text, counters',
  'handler (engine)',
  'write (node streams, kernel send)',
  'event loop, timers, promises, other',
  'garbage collection',
  'JIT compilation',
] as const
export type Stage = (typeof STAGES)[number]

/** Whatever the stack, a sample under one of these is the collector's or the compiler's. */
const THREAD_RULES: readonly (readonly [Stage, RegExp])[] = [
  ['garbage collection', /Heap::|Scaveng|MarkCompact|Sweeper|ConcurrentMarking|IncrementalMarking|MinorMark/],
  ['JIT compilation', /OptimizingCompileDispatcher|compiler::Pipeline|Compiler::Compile|maglev::|BaselineBatchCompiler/],
]

/**
 * From the sampled frame outwards, the first frame one of these names decides; tried in this order for
 * each frame. V8 inlines small functions into their callers, so a stage is a group of files, not of
 * functions: the HTTP side (node:http, or the socket path with its checks) apart from the JSON-RPC side.
 */
const FRAME_RULES: readonly (readonly [Stage, RegExp])[] = [
  ['write (node streams, kernel send)', /\bflush file:.*rpcSockets|streams\/writable|_writeGeneric|writeGeneric|WriteString|DoTryWrite|JS:\S+ (end|_send|_writeRaw|_flushOutput) node:_http_outgoing/],
  ['handler (engine)', /dist\/src\/(namespaces|engine|store|evm|util)\/|@ethereumjs|Keccak|classic-level|leveldb/],
  ['JSON-RPC: envelope, method, params, result text, counters', /dist\/src\/rpc\/|node_modules\/zod|JsonParse|JsonParser|JsonStringif|perf\/performance|FastPerformanceNow/],
  ['HTTP: parse, routing, Host and CORS checks, response head', /dist\/src\/(server|startup)\/|llhttp|Parser::|_http_common|_http_incoming|_http_server|_http_outgoing/],
  ['event loop, timers, promises, other', /processTicksAndRejections|runMicrotasks|processPromiseRejections|listOnTimeout|processTimers|InternalCallbackScope::Close/],
  ['socket read (kernel, libuv, node streams)', /onStreamRead|uv__read|^read$|uv__stream_io|OnUvRead|EmitToJSStreamListener|streams\/readable/],
]

/** The stage of one sample: its frames from the sampled one outwards. */
export function stageOf(frames: readonly string[]): Stage {
  for (const [stage, rule] of THREAD_RULES) if (frames.some((f) => rule.test(f))) return stage
  for (const frame of frames) for (const [stage, rule] of FRAME_RULES) if (rule.test(frame)) return stage
  return 'event loop, timers, promises, other'
}

/** Samples per stage of `perf script -F ip,sym` output (one block of `address symbol` lines per sample, blank lines between). */
export function stageCounts(perfScript: string): Map<Stage, number> {
  const counts = new Map<Stage, number>(STAGES.map((s) => [s, 0]))
  for (const block of perfScript.split(/\n\s*\n/)) {
    const frames = block
      .split('\n')
      .map((l) => l.trim().replace(/^[0-9a-f]+\s+/, ''))
      .filter((l) => l !== '')
    if (frames.length === 0) continue
    const stage = stageOf(frames)
    counts.set(stage, counts.get(stage)! + 1)
  }
  return counts
}

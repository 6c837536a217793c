import { z } from 'zod'
import type { Logger } from 'pino'
import { APIError } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { type MethodTable, method } from '../rpc/types.js'
import type { Profiler } from '../profiler.js'
import { pinoLevel } from '../log.js'

const NoArgs = z.object({})

/** Runs a profiler call; `{}` when done. A refusal (ProfilerError) answers with coreth's text (toGorillaError). */
async function profiled(run: () => Promise<unknown>): Promise<Record<string, never>> {
  await run()
  return {}
}

/**
 * The `admin` service of /ext/bc/C/admin (coreth: plugin/evm/admin.go): profiles into
 * `<admin-api-dir>_coreth_performance_<chain alias>` (plugin/evm/vm.go) and sets the live log
 * level; every result is `{}`.
 */
export function adminMethods(ctx: { log: Logger; profiler: Profiler; chainConfig: object }): MethodTable {
  const { log, profiler } = ctx
  return {
    /** Handler for `admin.startCPUProfiler`: a V8 CPU profile until stopCPUProfiler. */
    'admin.startCPUProfiler': method(NoArgs, () => {
      log.info('Admin: StartCPUProfiler called')
      return profiled(() => profiler.startCPUProfiler())
    }),
    /** Handler for `admin.stopCPUProfiler`: writes `cpu.profile` (pprof). */
    'admin.stopCPUProfiler': method(NoArgs, () => {
      log.info('Admin: StopCPUProfiler called')
      return profiled(() => profiler.stopCPUProfiler())
    }),
    /** Handler for `admin.memoryProfile`: writes `mem.profile` (pprof: V8's sampled live allocations). */
    'admin.memoryProfile': method(NoArgs, () => {
      log.info('Admin: MemoryProfile called')
      return profiled(() => profiler.memoryProfile())
    }),
    /** Handler for `admin.lockProfile`: writes `lock.profile` (pprof: the event loop's delay as contention). */
    'admin.lockProfile': method(NoArgs, () => {
      log.info('Admin: LockProfile called')
      return profiled(() => profiler.lockProfile())
    }),
    /** Handler for `admin.setLogLevel {level}`: coreth's level names (graft/evm/log LvlFromString). */
    'admin.setLogLevel': method(z.object({ level: GoString }), ({ level }) => {
      log.info({ logLevel: level }, 'EVM: SetLogLevel called')
      const pino = pinoLevel(level)
      // coreth wraps with "failed to parse log level: %w " (note the trailing space).
      if (pino === undefined) throw new APIError(`failed to parse log level: unknown level: ${level} `)
      log.level = pino
      return {}
    }),
    /** Handler for `admin.getVMConfig`: the C-Chain config in force (the keys this node knows). */
    'admin.getVMConfig': method(NoArgs, () => ({ config: ctx.chainConfig })),
  }
}

import { parseGoDuration } from '../../util/goDuration.js'
import { EngineError } from '../base/errors.js'
import { CallTracer } from './callTracer.js'
import { PrestateTracer } from './prestateTracer.js'
import { FourByteTracer, NoopTracer } from './simpleTracers.js'
import { StructLogger, type StructLoggerConfig } from './structLogger.js'
import type { Tracer } from './types.js'

/** geth's TraceConfig (eth/tracers/api.go): the struct logger's options, or a named tracer. */
export interface TraceOptions {
  logger: StructLoggerConfig
  tracer?: string
  /** A Go duration ("5s", "300ms"); geth's default is 5s. */
  timeout?: string
  tracerConfig?: unknown
}

/** geth's defaultTraceTimeout. */
const DEFAULT_TIMEOUT_MS = 5000

/** Builds the tracer a TraceOptions names, with geth's errors for bad names and configs. */
export function createTracer(opts: TraceOptions): Tracer {
  if (opts.tracer === undefined) return new StructLogger(opts.logger)
  const cfg = opts.tracerConfig
  switch (opts.tracer) {
    case 'callTracer': {
      const c = bools(cfg, 'callTracerConfig', ['onlyTopCall', 'withLog'])
      return new CallTracer({ onlyTopCall: c.onlyTopCall!, withLog: c.withLog! })
    }
    case 'prestateTracer': {
      const c = bools(cfg, 'PrestateTracerConfig', ['diffMode', 'disableCode', 'disableStorage', 'includeEmpty'])
      if (c.diffMode! && c.includeEmpty!) throw new EngineError('cannot use diffMode with includeEmpty')
      return new PrestateTracer({ diffMode: c.diffMode!, disableCode: c.disableCode!, disableStorage: c.disableStorage!, includeEmpty: c.includeEmpty! })
    }
    case '4byteTracer':
      return new FourByteTracer()
    case 'noopTracer':
      return new NoopTracer()
    default:
      // geth evaluates any other name as JavaScript tracer code (goja); a bare name is then an
      // undefined identifier. JavaScript tracers are not run here.
      if (/^[A-Za-z_$][\w$]*$/.test(opts.tracer)) throw new EngineError(`ReferenceError: ${opts.tracer} is not defined at <eval>:1:2(0)`)
      throw new EngineError('tracer not found')
  }
}

/** Decodes boolean fields of a tracerConfig object as Go's json.Unmarshal does (unknown keys ignored). */
function bools(cfg: unknown, struct: string, fields: string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {}
  const o = cfg !== null && typeof cfg === 'object' && !Array.isArray(cfg) ? (cfg as Record<string, unknown>) : {}
  if (cfg !== undefined && cfg !== null && (typeof cfg !== 'object' || Array.isArray(cfg))) {
    throw new EngineError(`json: cannot unmarshal ${Array.isArray(cfg) ? 'array' : typeof cfg} into Go value of type native.${struct}`)
  }
  for (const f of fields) {
    const v = o[f]
    if (v !== undefined && v !== null && typeof v !== 'boolean') {
      throw new EngineError(`json: cannot unmarshal ${typeof v === 'object' ? 'object' : typeof v} into Go struct field ${struct}.${f} of type bool`)
    }
    out[f] = v === true
  }
  return out
}

/** The trace timeout in ms: Go's time.ParseDuration with its error texts; geth's 5s by default. */
export function traceTimeoutMs(timeout: string | undefined): number {
  if (timeout === undefined) return DEFAULT_TIMEOUT_MS
  try {
    return parseGoDuration(timeout)
  } catch (err) {
    throw new EngineError((err as Error).message)
  }
}

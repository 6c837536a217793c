import { createRequire } from 'node:module'
import type { Bindings, ChildLoggerOptions, DestinationStream, Logger } from 'pino'

// pino (a CommonJS package) is required when the first logger is made, not with this file: the CLI
// listens before anything logs (deferredLogger; docs/PERFORMANCE.md, "Start-up").
const require = createRequire(import.meta.url)
const loadPino = (): typeof import('pino').default => require('pino')

/** `--log-format`: `auto` = pretty when stderr is a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty'

/** The root logger on stderr; modules take `log.child({ module })`. */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const pino = loadPino()
  const pretty = format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true)
  const dest = pino.destination({ fd: 2, sync: true })
  return pino({ level, base: undefined }, pretty ? prettyStream(dest, process.stderr.isTTY === true) : dest)
}

/** pino's level values; `silent` logs nothing. */
const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY }

/**
 * createLogger's logger, made (and pino loaded) only when something first logs through `log` or
 * `root()` is called: the CLI's early listener (src/startup/) takes `log` and its children, which
 * answer `isLevelEnabled` from the level alone until then. `root()` is the logger itself, for the
 * node, so that what logs on every request does not go through `log`'s proxy.
 */
export function deferredLogger(level: string, format: LogFormat = 'json'): { log: Logger; root: () => Logger } {
  let made: Logger | undefined
  const root = (): Logger => (made ??= createLogger(level, format))
  return { log: deferred(root, level), root }
}

function deferred(make: () => Logger, level: string): Logger {
  let target: Logger | undefined
  const real = (): Logger => (target ??= make())
  return new Proxy({} as Logger, {
    get(_, prop) {
      if (target === undefined && prop === 'child') {
        return (bindings: Bindings, options?: ChildLoggerOptions) => (options === undefined ? deferred(() => real().child(bindings), level) : real().child(bindings, options))
      }
      if (target === undefined && prop === 'isLevelEnabled') return (name: string) => (LEVEL_VALUES[name] ?? Number.POSITIVE_INFINITY) >= LEVEL_VALUES[level]!
      const logger = real()
      const value: unknown = Reflect.get(logger, prop, logger)
      return typeof value === 'function' ? value.bind(logger) : value
    },
    set: (_, prop, value) => Reflect.set(real(), prop, value),
  })
}

/**
 * coreth's level names (graft/evm/log/logger.go LvlFromString, case-insensitive) and pino's own
 * (`--log-level`) to a pino level; undefined for anything else. coreth's `crit` is pino's `fatal`.
 */
export function pinoLevel(name: string): string | undefined {
  const lower = name.toLowerCase()
  switch (lower) {
    case 'trace':
    case 'trce':
      return 'trace'
    case 'debug':
    case 'dbug':
      return 'debug'
    case 'info':
      return 'info'
    case 'warn':
      return 'warn'
    case 'error':
    case 'eror':
      return 'error'
    case 'crit':
    case 'fatal':
      return 'fatal'
    case 'silent':
      return 'silent'
    default:
      return undefined
  }
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }
const LEVEL_COLORS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' }

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s="]+$/.test(value) ? value : JSON.stringify(value)
  return JSON.stringify(value) ?? String(value)
}

/** One pino JSON line as `HH:MM:SS.mmm LEVEL [module] message key=value …` (an `err` keeps its stack). */
export function prettyLine(line: string, color = false): string {
  let obj: Record<string, unknown>
  try {
    obj = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line
  }
  const { level, time, msg, module, err, ...rest } = obj
  const t = typeof time === 'number' ? new Date(time) : new Date()
  const clock = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}:${String(t.getSeconds()).padStart(2, '0')}.${String(t.getMilliseconds()).padStart(3, '0')}`
  const lvl = typeof level === 'number' ? level : 30
  let name = (LEVEL_NAMES[lvl] ?? String(level)).padEnd(5)
  if (color) name = `\x1b[${LEVEL_COLORS[lvl] ?? '0'}m${name}\x1b[0m`
  let out = `${clock} ${name}`
  if (module !== undefined) out += ` [${String(module)}]`
  if (msg !== undefined) out += ` ${String(msg)}`
  for (const [k, v] of Object.entries(rest)) out += ` ${k}=${fieldText(v)}`
  const stack = err !== null && typeof err === 'object' ? (err as { stack?: unknown }).stack : undefined
  if (typeof stack === 'string') out += '\n    ' + stack.split('\n').join('\n    ')
  else if (err !== undefined) out += ` err=${fieldText(err)}`
  return out + '\n'
}

/** A pino destination that writes human-readable lines (`--log-format pretty`). */
function prettyStream(dest: DestinationStream, color: boolean): DestinationStream {
  return {
    write(chunk: string) {
      let out = ''
      for (const line of chunk.split('\n')) if (line !== '') out += prettyLine(line, color)
      dest.write(out)
    },
  }
}

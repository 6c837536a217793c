import pino from 'pino'
import type { DestinationStream, Logger } from 'pino'

/** `--log-format`: `auto` = pretty when stderr is a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty'

/** The root logger on stderr; modules take `log.child({ module })`. */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true)
  const dest = pino.destination({ fd: 2, sync: true })
  return pino({ level, base: undefined }, pretty ? prettyStream(dest, process.stderr.isTTY === true) : dest)
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

import pino from 'pino'
import type { Logger } from 'pino'

/** The root logger: JSON lines on stderr; modules take `log.child({ module })`. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined }, pino.destination({ fd: 2, sync: true }))
}

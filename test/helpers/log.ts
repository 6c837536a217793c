import { Writable } from 'node:stream'
import pino from 'pino'
import type { Logger } from 'pino'

/** A pino logger whose output (JSON lines) the test reads back, e.g. to search it for secrets. */
export function capturedLog(level: pino.LevelWithSilent = 'trace'): { log: Logger; text(): string } {
  let text = ''
  const sink = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk)
      cb()
    },
  })
  return { log: pino({ level }, sink), text: () => text }
}

import type { Logger } from 'pino'

/** Logs "deprecated API called" once per method per node, naming the replacement when there is one (issue 6). */
export type DeprecationWarner = (method: string, replacement?: string) => void

/** One warner per node (built in node.ts); avalanchego logs on every call, we log the first one only. */
export function createDeprecationWarner(log: Logger): DeprecationWarner {
  const warned = new Set<string>()
  return (method, replacement) => {
    if (warned.has(method)) return
    warned.add(method)
    log.warn(replacement === undefined ? { method } : { method, replacement }, 'deprecated API called')
  }
}

import { describe, expect, it } from 'vitest'
import { deferredLogger, pinoLevel, prettyLine } from '../../src/log.js'

describe('log', () => {
  it('prettyLine: time, level, module, message, then the fields', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5, 6).getTime()
    const line = prettyLine(JSON.stringify({ level: 20, time, module: 'rpc', method: 'eth_call', id: '1', ms: 0.25, msg: 'rpc call' }))
    expect(line).toBe('03:04:05.006 DEBUG [rpc] rpc call method=eth_call id=1 ms=0.25\n')
    expect(prettyLine(JSON.stringify({ level: 50, time, msg: 'x', err: { message: 'boom', stack: 'Error: boom\n    at f' } }))).toBe('03:04:05.006 ERROR x\n    Error: boom\n        at f\n')
    expect(prettyLine(JSON.stringify({ level: 30, time, msg: 'quoted', note: 'two words' }))).toBe('03:04:05.006 INFO  quoted note="two words"\n')
    expect(prettyLine('not json')).toBe('not json')
  })

  it('pinoLevel: coreth names (graft/evm/log LvlFromString), case-insensitive', () => {
    expect(['trace', 'trce', 'debug', 'dbug', 'info', 'warn', 'error', 'eror', 'crit', 'CRIT'].map(pinoLevel)).toEqual([
      'trace',
      'trace',
      'debug',
      'debug',
      'info',
      'warn',
      'error',
      'error',
      'fatal',
      'fatal',
    ])
    expect(pinoLevel('verbo')).toBeUndefined()
  })

  it('deferredLogger: answers isLevelEnabled as pino does before pino is made, then is one logger with root()', () => {
    const names = ['trace', 'debug', 'info', 'warn', 'error', 'fatal']
    for (const level of [...names, 'silent']) {
      const { log, root } = deferredLogger(level)
      const child = log.child({ module: 'rpc' })
      const early = names.map((n) => [log.isLevelEnabled(n), child.isLevelEnabled(n)])
      const made = root()
      expect(early).toEqual(names.map((n) => [made.isLevelEnabled(n), made.isLevelEnabled(n)]))
      expect(root()).toBe(made)
      // Once used, a child is the root's child: its bindings and level are pino's own.
      expect(child.bindings()).toEqual({ module: 'rpc' })
      expect(child.level).toBe(level)
      log.level = 'error'
      expect(made.level).toBe('error')
    }
  })
})

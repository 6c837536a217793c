import { describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../../src/config.js'
import { configFromArgs } from '../../../src/configFromArgs.js'
import { explorerOn } from '../../../src/server/explorerExposure.js'

const config = (input: Parameters<typeof parseNodeConfig>[0]) => parseNodeConfig({ dataDir: '/tmp/unused', ...input })

describe('explorerOn', () => {
  it('is on by default on a loopback host (127.0.0.0/8, ::1, localhost)', () => {
    for (const httpHost of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(explorerOn(config({ httpHost })), httpHost).toBe(true)
  })

  it('is off by default on any other host, on there with --explorer-enabled', () => {
    for (const httpHost of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      expect(explorerOn(config({ httpHost })), httpHost).toBe(false)
      expect(explorerOn(config({ httpHost, explorerEnabled: true })), httpHost).toBe(true)
    }
    expect(explorerOn(configFromArgs(['--http-host', '0.0.0.0', '--explorer-enabled']))).toBe(true)
    expect(explorerOn(configFromArgs(['--http-host', '0.0.0.0']))).toBe(false)
  })

  it('is off with --explorer-enabled=false, loopback or not', () => {
    expect(explorerOn(configFromArgs(['--explorer-enabled=false']))).toBe(false)
    expect(explorerOn(config({ explorerEnabled: false }))).toBe(false)
  })
})

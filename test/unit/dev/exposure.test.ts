import { describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../../src/config.js'
import { checkDevControlsExposure, devControlsOn } from '../../../src/dev/exposure.js'

const config = (input: Parameters<typeof parseNodeConfig>[0]) => parseNodeConfig({ dataDir: '/tmp/unused', ...input })

describe('devControlsOn', () => {
  it('is on for a local network on a loopback host, off when disabled', () => {
    expect(devControlsOn(config({}), 43112)).toBe(true)
    expect(devControlsOn(config({ httpHost: '::1' }), 43112)).toBe(true)
    expect(devControlsOn(config({ devControls: false }), 43112)).toBe(false)
  })

  it('is off on the public networks unless enabled by name', () => {
    expect(devControlsOn(config({}), 43114)).toBe(false)
    expect(devControlsOn(config({}), 43113)).toBe(false)
    expect(devControlsOn(config({ networkId: 1 }), 43112)).toBe(false)
    expect(devControlsOn(config({ networkId: 5 }), 43112)).toBe(false)
    expect(devControlsOn(config({ devControls: true }), 43114)).toBe(true)
  })

  it('is off on a non-loopback host unless remote use is allowed', () => {
    expect(devControlsOn(config({ httpHost: '0.0.0.0' }), 43112)).toBe(false)
    expect(devControlsOn(config({ httpHost: '0.0.0.0', devControlsAllowRemote: true }), 43112)).toBe(true)
  })
})

describe('checkDevControlsExposure', () => {
  it('refuses --dev-controls-enabled on a non-loopback host without --dev-controls-allow-remote', () => {
    expect(() => checkDevControlsExposure(config({ httpHost: '0.0.0.0', devControls: true }))).toThrow(
      '--dev-controls-enabled with the non-loopback --http-host 0.0.0.0 also needs --dev-controls-allow-remote',
    )
    expect(() => checkDevControlsExposure(config({ httpHost: '0.0.0.0', devControls: true, devControlsAllowRemote: true }))).not.toThrow()
    expect(() => checkDevControlsExposure(config({ devControls: true }))).not.toThrow()
  })
})

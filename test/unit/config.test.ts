import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ChainConfigFile, ConfigError, FLAGS, NodeConfig } from '../../src/config.js'
import { configFromArgs } from '../../src/configFromArgs.js'
import { helpText } from '../../src/configReference.js'

const dir = mkdtempSync(join(tmpdir(), 'cchain-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Writes a chain config file and returns its path. */
function chainConfigFile(name: string, body: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body))
  return path
}

/** The ConfigError configFromArgs throws for `argv` (fails the test if it does not throw one). */
function configError(argv: string[]): ConfigError {
  try {
    configFromArgs(argv)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).not.toContain('\n') // one clear line
    return err as ConfigError
  }
  throw new Error(`configFromArgs(${JSON.stringify(argv)}) did not throw`)
}

describe('configFromArgs: defaults', () => {
  it('an empty argv gives avalanchego-style local defaults', () => {
    const c = configFromArgs([])
    expect(c.httpHost).toBe('127.0.0.1')
    expect(c.httpPort).toBe(9650)
    expect(c.dataDir).toBe(join(homedir(), '.cchain-node'))
    expect(c.networkId).toBe(12345)
    expect(c.logLevel).toBe('info')
    expect(c.blockInterval).toBe(0)
    expect(c.pendingNonceGuard).toBe(0)
    expect(c.evmNetworkId).toBe(1)
    expect(c.genesisFile).toBeUndefined()
  })

  it("the chain config defaults are coreth's", () => {
    const { chain } = configFromArgs([])
    expect(chain['rpc-gas-cap']).toBe(50_000_000)
    expect(chain['rpc-tx-fee-cap']).toBe(100)
    expect(chain['batch-request-limit']).toBe(1000)
    expect(chain['batch-response-max-size']).toBe(25_000_000)
    expect(chain['allow-unprotected-txs']).toBe(false)
    expect(chain['tx-pool-price-limit']).toBe(1)
    expect(chain['tx-pool-price-bump']).toBe(10)
    expect(chain['min-delay-target']).toBe(0)
    expect(chain['gas-target']).toBeUndefined()
  })
})

describe('configFromArgs: flag syntax', () => {
  it('accepts `--name value`', () => {
    const c = configFromArgs([
      '--http-host',
      '0.0.0.0',
      '--http-port',
      '8545',
      '--network-id',
      '1',
      '--log-level',
      'debug',
      '--block-interval',
      '500',
      '--pending-nonce-guard',
      '0',
      '--evm-network-id',
      '43112',
    ])
    expect(c).toMatchObject({ httpHost: '0.0.0.0', httpPort: 8545, networkId: 1, logLevel: 'debug', blockInterval: 500, pendingNonceGuard: 0, evmNetworkId: 43112 })
  })

  it('accepts `--name=value` and mixes both forms', () => {
    const c = configFromArgs(['--http-port=0', '--data-dir', 'rel/dir', '--log-level=warn', '--genesis=g.json'])
    expect(c.httpPort).toBe(0)
    expect(c.logLevel).toBe('warn')
    // Paths are made absolute against the working directory.
    expect(c.dataDir).toBe(resolve('rel/dir'))
    expect(c.genesisFile).toBe(resolve('g.json'))
  })

  it('`--name=value` keeps `=` inside the value', () => {
    expect(configFromArgs(['--http-host=a=b']).httpHost).toBe('a=b')
  })

  it('the last occurrence of a flag wins', () => {
    expect(configFromArgs(['--http-port', '1', '--http-port', '2']).httpPort).toBe(2)
  })
})

describe('configFromArgs: errors are one clear line', () => {
  it('an unknown flag is named', () => {
    expect(configError(['--rpc-port', '1']).message).toBe('unknown flag --rpc-port (see --help)')
    // Object.prototype names are not flags.
    expect(configError(['--toString', '1']).message).toContain('unknown flag --toString')
  })

  it('a positional argument is refused', () => {
    expect(configError(['9650']).message).toContain('unexpected argument "9650"')
  })

  it('a flag without a value is named', () => {
    expect(configError(['--http-port']).message).toBe('flag --http-port needs a value')
    expect(configError(['--log-level', 'info', '--data-dir']).message).toBe('flag --data-dir needs a value')
  })

  it.each(['abc', '1.5', '-1', '0x10', ''])('a non-integer port %j is refused and named', (v) => {
    const msg = configError([`--http-port=${v}`]).message
    expect(msg).toContain('--http-port')
    expect(msg).toContain('not a non-negative integer')
  })

  it('a port above 65535 is refused and named', () => {
    const msg = configError(['--http-port', '65536']).message
    expect(msg).toMatch(/^--http-port: /)
    expect(configFromArgs(['--http-port', '65535']).httpPort).toBe(65535)
  })

  it('a bad log level is refused, naming --log-level and the allowed levels', () => {
    const msg = configError(['--log-level', 'loud']).message
    expect(msg).toMatch(/^--log-level: /)
    expect(msg).toContain('"debug"')
  })

  it('network ID 0 is refused and named', () => {
    expect(configError(['--network-id', '0']).message).toMatch(/^--network-id: /)
  })

  it('an empty --data-dir= is refused', () => {
    expect(configError(['--data-dir=']).message).toContain('--data-dir')
  })

  it('--dev-client-version takes hardhat (the default), anvil or plain, and refuses another name, listing them', () => {
    expect(configFromArgs([]).devClientVersion).toBe('hardhat')
    expect(configFromArgs(['--dev-client-version', 'anvil']).devClientVersion).toBe('anvil')
    expect(configFromArgs(['--dev-client-version=plain']).devClientVersion).toBe('plain')
    const msg = configError(['--dev-client-version', 'geth']).message
    expect(msg).toMatch(/^--dev-client-version: /)
    for (const name of ['"hardhat"', '"anvil"', '"plain"']) expect(msg).toContain(name)
  })
})

describe('configFromArgs: --chain-config-file', () => {
  it('coreth keys land in config.chain, the rest keep their defaults', () => {
    const path = chainConfigFile('ok.json', { 'rpc-gas-cap': 1234, 'rpc-tx-fee-cap': 0.5, 'eth-apis': ['eth'], 'gas-target': 1_000_000, 'min-delay-target': 2000, 'allow-unprotected-txs': true })
    const c = configFromArgs(['--chain-config-file', path])
    expect(c.chain['rpc-gas-cap']).toBe(1234)
    expect(c.chain['rpc-tx-fee-cap']).toBe(0.5)
    expect(c.chain['eth-apis']).toEqual(['eth'])
    expect(c.chain['gas-target']).toBe(1_000_000)
    expect(c.chain['min-delay-target']).toBe(2000)
    expect(c.chain['allow-unprotected-txs']).toBe(true)
    expect(c.chain['batch-request-limit']).toBe(1000)
  })

  it('works with `--chain-config-file=path` too', () => {
    const path = chainConfigFile('eq.json', { 'batch-request-limit': 7 })
    expect(configFromArgs([`--chain-config-file=${path}`]).chain['batch-request-limit']).toBe(7)
  })

  it('an unknown key stops with the key and the file named', () => {
    const path = chainConfigFile('unknown.json', { 'rpc-gas-cap': 1, 'no-such-key': true })
    const msg = configError(['--chain-config-file', path]).message
    expect(msg).toContain(path)
    expect(msg).toContain('"no-such-key"')
  })

  it('a value of the wrong type stops with the key named', () => {
    const path = chainConfigFile('type.json', { 'rpc-gas-cap': 'lots' })
    const msg = configError(['--chain-config-file', path]).message
    expect(msg).toContain(path)
    expect(msg).toContain('rpc-gas-cap')
    expect(configError(['--chain-config-file', chainConfigFile('neg.json', { 'batch-request-limit': -1 })]).message).toContain('batch-request-limit')
  })

  it('a file that is not JSON or does not exist is named', () => {
    const bad = chainConfigFile('bad.json', '{ not json')
    expect(configError(['--chain-config-file', bad]).message).toContain(bad)
    const missing = join(dir, 'missing.json')
    expect(configError(['--chain-config-file', missing]).message).toContain(missing)
  })
})

describe('helpText', () => {
  const text = helpText()
  const lines = text.split('\n')
  const defaults = NodeConfig.parse({}) as unknown as Record<string, unknown>

  it('lists every flag in FLAGS with its default', () => {
    expect(Object.keys(FLAGS).length).toBeGreaterThanOrEqual(10)
    for (const [name, flag] of Object.entries(FLAGS)) {
      const line = lines.find((l) => l.trimStart().startsWith(`--${name} `))
      expect(line, `--${name}`).toBeDefined()
      const value = flag.chainKey === undefined ? defaults[flag.key] : undefined
      const def =
        flag.chainKey === 'admin-api-enabled'
          ? 'false'
          : flag.chainKey === 'fork-block-number'
            ? "(the origin's latest)"
            : flag.chainKey === 'hardfork'
              ? 'helicon'
              : flag.key === 'chainConfigFile' || value === undefined || (Array.isArray(value) && value.length === 0)
                ? '(none)'
                : flag.type === 'duration'
                  ? `${Number(value) / 1000}s`
                  : String(value)
      expect(line, `--${name}`).toContain(`(default: ${def})`)
    }
  })

  it('shows the documented defaults literally', () => {
    const line = (name: string) => lines.find((l) => l.trimStart().startsWith(`--${name} `))!
    expect(line('http-host')).toContain('(default: 127.0.0.1)')
    expect(line('http-port')).toContain('(default: 9650)')
    expect(line('http-read-header-timeout')).toContain('(default: 10s)')
    expect(line('http-idle-timeout')).toContain('(default: 72s)')
    expect(line('http-max-body-size')).toContain('(default: 5242880)')
    expect(line('http-allowed-hosts')).toContain('(default: (none))')
    expect(line('data-dir')).toContain(`(default: ${join(homedir(), '.cchain-node')})`)
    expect(line('network-id')).toContain('(default: 12345)')
    expect(line('log-level')).toContain('(default: info)')
    expect(line('block-interval')).toContain('(default: 0)')
    expect(line('pending-nonce-guard')).toContain('(default: 0)')
    expect(line('evm-network-id')).toContain('(default: 1)')
    expect(line('genesis')).toContain('(default: (none))')
    expect(line('keystore-max-username-length')).toContain('(default: 1024)')
    expect(line('keystore-max-password-length')).toContain('(default: 1024)')
    expect(line('keystore-max-failures')).toContain('(default: 5)')
    expect(line('keystore-backoff')).toContain('(default: 2s)')
    expect(line('keystore-max-backoff')).toContain('(default: 60s)')
  })

  it('lists every chain config key that has a default, with that default', () => {
    for (const [key, value] of Object.entries(ChainConfigFile.parse({}))) {
      const line = lines.find((l) => l.trimStart().startsWith(`${key} `))
      expect(line, key).toBeDefined()
      expect(line!.trim().slice(key.length).trim()).toBe(JSON.stringify(value))
    }
  })

  it('lists every chain config key, those without a schema default too', () => {
    for (const key of Object.keys(ChainConfigFile.shape)) {
      expect(
        lines.some((l) => l.trimStart().startsWith(`${key} `)),
        key,
      ).toBe(true)
    }
  })
})

describe('transport limit flags (docs/SECURITY.md, N2, N3, L1, L9, L10, L12, W5, W7)', () => {
  it('default to the docs/SECURITY.md values', () => {
    expect(configFromArgs([])).toMatchObject({
      httpAllowedHosts: [],
      httpAllowedOrigins: [],
      httpReadHeaderTimeout: 10_000,
      httpReadTimeout: 30_000,
      httpIdleTimeout: 72_000,
      httpMaxBodyBytes: 5 * 1024 * 1024,
      httpMaxConnections: 512,
      wsPingInterval: 30_000,
      wsMaxPendingMessages: 10_000,
    })
  })

  it('parse lists, Go durations and numbers', () => {
    const c = configFromArgs([
      '--http-allowed-hosts',
      'node.test, other.test',
      '--http-allowed-origins=https://app.example',
      '--http-read-header-timeout',
      '2s',
      '--http-read-timeout',
      '1m30s',
      '--http-idle-timeout',
      '1500',
      '--http-max-body-size',
      '1048576',
      '--http-max-connections',
      '64',
      '--ws-ping-interval',
      '10s',
      '--ws-max-pending-messages',
      '500',
    ])
    expect(c).toMatchObject({
      httpAllowedHosts: ['node.test', 'other.test'],
      httpAllowedOrigins: ['https://app.example'],
      httpReadHeaderTimeout: 2_000,
      httpReadTimeout: 90_000,
      httpIdleTimeout: 1_500,
      httpMaxBodyBytes: 1_048_576,
      httpMaxConnections: 64,
      wsPingInterval: 10_000,
      wsMaxPendingMessages: 500,
    })
    expect(configError(['--http-read-timeout', '5d']).message).toBe('flag --http-read-timeout: time: unknown unit "d" in duration "5d"')
    expect(configError(['--http-read-timeout', '0']).message).toMatch(/^--http-read-timeout: /)
  })
})

describe('keystore limit flags (docs/SECURITY.md, K2, K5)', () => {
  it('default to the docs/SECURITY.md values and parse numbers and Go durations', () => {
    expect(configFromArgs([])).toMatchObject({
      keystoreMaxUsernameLength: 1024,
      keystoreMaxPasswordLength: 1024,
      keystoreMaxFailures: 5,
      keystoreBackoff: 2_000,
      keystoreMaxBackoff: 60_000,
    })
    const c = configFromArgs([
      '--keystore-max-username-length',
      '64',
      '--keystore-max-password-length=256',
      '--keystore-max-failures',
      '3',
      '--keystore-backoff',
      '500ms',
      '--keystore-max-backoff',
      '1m',
    ])
    expect(c).toMatchObject({ keystoreMaxUsernameLength: 64, keystoreMaxPasswordLength: 256, keystoreMaxFailures: 3, keystoreBackoff: 500, keystoreMaxBackoff: 60_000 })
    expect(configError(['--keystore-max-failures', '0']).message).toMatch(/^--keystore-max-failures: /)
  })
})

describe('request and query limit chain keys (docs/SECURITY.md, L4, L8, E4-E7)', () => {
  it('default to the docs/SECURITY.md values', () => {
    expect(ChainConfigFile.parse({})).toMatchObject({
      'rpc-max-method-name-length': 2048,
      'rpc-max-params-depth': 128,
      'logs-max-addresses': 1000,
      'logs-max-topic-alternatives': 1000,
      'logs-max-results': 10_000,
      'filter-timeout': '5m',
      'filter-max-count': 1000,
      'fee-history-max-blocks': 1024,
      'fee-history-max-percentiles': 100,
      'tx-max-size': 131_072,
    })
    expect(ChainConfigFile.safeParse({ 'filter-timeout': '5 minutes' }).success).toBe(false)
  })
})

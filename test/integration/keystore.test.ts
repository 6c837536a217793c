import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseNodeConfig, type NodeConfigInput } from '../../src/config.js'
import { configFromArgs } from '../../src/configFromArgs.js'
import { createNode } from '../../src/node.js'
import { SkipClock } from '../helpers/clock.js'
import { rawHttp } from '../helpers/rawHttp.js'
import { capturedLog } from '../helpers/log.js'
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, EWOQ_X } from '../helpers/constants.js'
import { EWOQ_KEY_FORMS, expectNoSecrets } from '../helpers/secrets.js'
import { EWOQ_KEY, startTestNode, type RpcAnswer, type TestNode } from '../helpers/testNode.js'

const PW = 'Keystore-Test-Passphrase-9731'
const EWOQ = Buffer.from(EWOQ_KEY.slice(2), 'hex')

/** The node, with every log line it wrote read back (raw) and keystore.* calls over raw HTTP. */
type Running = TestNode & { logText(): string; ks(method: string, params?: unknown): Promise<RpcAnswer> }

async function boot(config: Partial<NodeConfigInput> = {}, now?: () => number): Promise<Running> {
  const logged = capturedLog('trace')
  const { chain, ...rest } = config
  const tn = await startTestNode({ config: { logLevel: 'trace', ...rest }, chain, now, log: logged.log })
  let id = 0
  return {
    ...tn,
    logText: logged.text,
    async ks(method, params = {}) {
      const res = await rawHttp(tn.port, { path: '/ext/keystore', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
      expect(res.status).toBe(200)
      return JSON.parse(res.body)
    },
  }
}

describe('keystore API disabled (default)', () => {
  let n: Running
  beforeAll(async () => {
    n = await boot()
  })
  afterAll(() => n.close())

  it('/ext/keystore does not exist: 404, as avalanchego without --api-keystore-enabled', async () => {
    expect(n.node.config.keystoreEnabled).toBe(false)
    const res = await rawHttp(n.port, {
      path: '/ext/keystore',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'keystore.listUsers', params: {} }),
    })
    expect(res.status).toBe(404)
    expect(n.node.keystore).toBeUndefined()
  })
})

describe('--api-keystore-enabled flags', () => {
  it('parses avalanchego boolean forms and needs a second flag off loopback', async () => {
    for (const argv of [['--api-keystore-enabled'], ['--api-keystore-enabled=true'], ['--api-keystore-enabled', 'true'], ['--api-keystore-enabled:true']]) {
      expect(configFromArgs(argv).keystoreEnabled, argv.join(' ')).toBe(true)
    }
    expect(configFromArgs(['--api-keystore-enabled=false']).keystoreEnabled).toBe(false)
    expect(configFromArgs([]).keystoreEnabled).toBe(false)
    expect(configFromArgs(['--coreth-admin-api-enabled']).keystoreEnabled).toBe(false)
    const dataDir = mkdtempSync(join(tmpdir(), 'cchain-ks-'))
    try {
      const cfg = parseNodeConfig({ httpHost: '0.0.0.0', httpPort: 0, dataDir, keystoreEnabled: true })
      await expect(createNode(cfg, { log: pino({ level: 'silent' }) })).rejects.toThrow(ConfigError)
      await expect(createNode(cfg, { log: pino({ level: 'silent' }) })).rejects.toThrow('--api-keystore-allow-remote')
      expect(configFromArgs(['--http-host', '0.0.0.0', '--api-keystore-enabled', '--api-keystore-allow-remote']).keystoreAllowRemote).toBe(true)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('keystore API enabled', () => {
  let a: Running
  let b: Running
  beforeAll(async () => {
    a = await boot({ keystoreEnabled: true })
    b = await boot({ keystoreEnabled: true })
  })
  afterAll(async () => {
    await a.close()
    await b.close()
  })

  it('createUser / listUsers / deleteUser with avalanchego results and errors', async () => {
    expect(await a.ks('keystore.listUsers')).toEqual({ jsonrpc: '2.0', result: { users: [] }, id: 1 })
    expect((await a.ks('keystore.createUser', { username: 'bob', password: PW })).result).toEqual({})
    expect((await a.ks('keystore.createUser', { username: 'alice', password: PW })).result).toEqual({})
    expect((await a.ks('keystore.listUsers', {})).result).toEqual({ users: ['alice', 'bob'] })
    const err = async (method: string, params: unknown) => (await a.ks(method, params)).error
    expect(await err('keystore.createUser', { username: 'alice', password: PW })).toEqual({ code: -32000, message: 'user already exists: alice', data: null })
    expect((await err('keystore.createUser', { username: '', password: PW }))?.message).toBe('empty username')
    expect((await err('keystore.createUser', { username: 'u'.repeat(1025), password: PW }))?.message).toBe('username exceeds maximum length of 1024 chars')
    expect((await err('keystore.createUser', { username: 'carol', password: '' }))?.message).toBe('empty password')
    expect((await err('keystore.createUser', { username: 'carol', password: 'p'.repeat(1025) }))?.message).toBe('password exceeds maximum length of 1024 chars')
    expect((await err('keystore.createUser', { username: 'carol', password: 'password1' }))?.message).toBe('password is too weak')
    expect((await err('keystore.createUser', { username: 'carol', password: 12345 }))?.message).toMatch(/^couldn't unmarshal an argument/)
    expect((await err('keystore.deleteUser', { username: 'bob', password: 'wrong-password-42' }))?.message).toBe('incorrect password: user "bob"')
    expect((await err('keystore.deleteUser', { username: 'nobody', password: PW }))?.message).toBe("user doesn't exist: nobody")
    expect((await a.ks('keystore.deleteUser', { username: 'bob', password: PW })).result).toEqual({})
    expect((await a.ks('keystore.listUsers')).result).toEqual({ users: ['alice'] })
    expect((await a.ks('keystore.CreateUser', { username: 'x', password: PW })).error?.message).toBe('method must start with a non-uppercase letter')
  })

  it('refuses a 1 MiB password or username within 2 s (docs/SECURITY.md, K7)', async () => {
    const big = 'Zq7!'.repeat(256 * 1024)
    const t0 = performance.now()
    expect((await a.ks('keystore.createUser', { username: 'big', password: big })).error?.message).toBe('password exceeds maximum length of 1024 chars')
    expect((await a.ks('keystore.exportUser', { username: 'alice', password: big })).error?.message).toBe('password exceeds maximum length of 1024 chars')
    expect((await a.ks('keystore.createUser', { username: big, password: PW })).error?.message).toBe('username exceeds maximum length of 1024 chars')
    expect(performance.now() - t0).toBeLessThan(2000)
  })

  it('exportUser / importUser move a user and its keys between two nodes; a wrong password cannot import', async () => {
    expect((await a.api('/ext/bc/C/avax', 'avax.importKey', { username: 'alice', password: PW, privateKey: EWOQ_PRIVATE_KEY })).result).toEqual({ address: EWOQ_ADDRESS })
    const exp = await a.ks('keystore.exportUser', { username: 'alice', password: PW })
    expect(exp.result.encoding).toBe('hex')
    expect(exp.result.user).toMatch(/^0x[0-9a-f]+$/)
    expect(exp.result.user).not.toContain(EWOQ.toString('hex'))
    expect((await a.ks('keystore.exportUser', { username: 'alice', password: PW, encoding: 'hexnc' })).result.encoding).toBe('hexnc')
    expect((await a.ks('keystore.exportUser', { username: 'alice', password: PW, encoding: 'json' })).error?.message).toBe("couldn't encode user to string: unsupported encoding in method")
    expect((await a.ks('keystore.exportUser', { username: 'alice', password: PW, encoding: 'base64' })).error?.message).toMatch(/^couldn't unmarshal an argument/)

    expect((await b.ks('keystore.importUser', { username: 'alice2', password: 'Wrong-Password-1', user: exp.result.user })).error?.message).toBe('incorrect password: user "alice2"')
    expect((await b.ks('keystore.importUser', { username: 'alice2', password: PW, user: 'zz' })).error?.message).toBe("couldn't decode 'user' to bytes: missing 0x prefix to hex encoding")
    expect((await b.ks('keystore.importUser', { username: 'alice2', password: PW, user: exp.result.user.slice(0, -2) + '00' })).error?.message).toBe(
      "couldn't decode 'user' to bytes: invalid input checksum",
    )
    expect((await b.ks('keystore.importUser', { username: 'alice2', password: PW, user: '0x00000a09cfc7' })).error?.message).toBe('packer has insufficient length for input')
    expect((await b.ks('keystore.listUsers')).result.users).toEqual([])
    expect((await b.ks('keystore.importUser', { username: 'alice2', password: PW, user: exp.result.user })).result).toEqual({})
    expect((await b.ks('keystore.importUser', { username: 'alice2', password: PW, user: exp.result.user })).error?.message).toBe('user already exists: alice2')
    expect((await b.ks('keystore.listUsers')).result.users).toEqual(['alice2'])
    const key = await b.api('/ext/bc/C/avax', 'avax.exportKey', { username: 'alice2', password: PW, address: EWOQ_ADDRESS })
    expect(key.result).toEqual({ privateKey: EWOQ_PRIVATE_KEY, privateKeyHex: EWOQ_KEY })
    // The imported user exports again and its password still guards it.
    expect((await b.ks('keystore.exportUser', { username: 'alice2', password: PW })).result.user).toMatch(/^0x/)
    // Wrong passwords and unknown users get one message.
    expect((await b.ks('keystore.exportUser', { username: 'alice2', password: 'Wrong-Password-1' })).error?.message).toBe('incorrect password: user "alice2"')
    expect((await b.ks('keystore.exportUser', { username: 'ghost', password: 'Wrong-Password-1' })).error?.message).toBe('incorrect password: user "ghost"')
  })

  it('backs off after 5 wrong passwords for a user from a client: -32005 "too many failed attempts" (docs/SECURITY.md, K5), for that user only', async () => {
    const clock = new SkipClock()
    const c = await boot({ keystoreEnabled: true }, clock.now)
    try {
      expect((await c.ks('keystore.createUser', { username: 'target', password: PW })).result).toEqual({})
      for (let i = 0; i < 5; i++) {
        expect((await c.ks('keystore.exportUser', { username: 'target', password: `Guess-Number-${i}` })).error?.message).toBe('incorrect password: user "target"')
      }
      const locked = await c.ks('keystore.exportUser', { username: 'target', password: PW })
      expect(locked.error).toEqual({ code: -32005, message: 'too many failed attempts, try again in 2 s', data: null })
      // Another user's right password from the same client (127.0.0.1) is not blocked: each (user, client) counts alone.
      expect((await c.ks('keystore.createUser', { username: 'other', password: PW })).result).toEqual({})
      expect((await c.ks('keystore.exportUser', { username: 'other', password: PW })).result.user).toMatch(/^0x/)
      expect((await c.api('/ext/bc/X', 'avm.listAddresses', { username: 'other', password: PW })).result).toEqual({ addresses: [] })
      // ... nor are its wrong ones counted against `target` (a sixth failure there would lock it for 4 s, past the skip below).
      expect((await c.ks('keystore.exportUser', { username: 'other', password: 'Guess-Number-9' })).error?.message).toBe('incorrect password: user "other"')
      // Past the 2 s lock, skipped on the node's clock rather than slept.
      clock.advance(2100)
      expect((await c.ks('keystore.exportUser', { username: 'target', password: PW })).result.user).toMatch(/^0x/)
    } finally {
      await c.close()
    }
  })

  it('--keystore-max-username-length, --keystore-max-password-length, --keystore-max-failures, --keystore-backoff, --keystore-max-backoff', async () => {
    const c = await boot({ keystoreEnabled: true, keystoreMaxUsernameLength: 8, keystoreMaxPasswordLength: 40, keystoreMaxFailures: 2, keystoreBackoff: 5000, keystoreMaxBackoff: 4000 })
    try {
      expect((await c.ks('keystore.createUser', { username: 'u'.repeat(9), password: PW })).error?.message).toBe('username exceeds maximum length of 8 chars')
      expect((await c.ks('keystore.createUser', { username: 'u'.repeat(8), password: 'p'.repeat(41) })).error?.message).toBe('password exceeds maximum length of 40 chars')
      expect((await c.ks('keystore.createUser', { username: 'u'.repeat(8), password: PW })).result).toEqual({})
      for (let i = 0; i < 2; i++) {
        expect((await c.ks('keystore.exportUser', { username: 'u'.repeat(8), password: `Guess-Number-${i}` })).error?.message).toBe('incorrect password: user "uuuuuuuu"')
      }
      // Locked after 2 failures, for the 5 s back-off capped at 4 s.
      const locked = await c.ks('keystore.exportUser', { username: 'u'.repeat(8), password: PW })
      expect(locked.error).toEqual({ code: -32005, message: 'too many failed attempts, try again in 4 s', data: null })
      // The keystore-backed X and P methods answer the throttled client alike: -32005, with avalanchego's context before the text.
      const user = { username: 'u'.repeat(8), password: PW }
      const send = await c.api('/ext/bc/X', 'avm.send', { ...user, assetID: 'AVAX', amount: 1, to: EWOQ_X })
      expect(send.error?.code).toBe(-32005)
      expect(send.error?.message).toMatch(/^problem retrieving user "uuuuuuuu": too many failed attempts, try again in \d+ s$/)
      const exported = await c.api('/ext/bc/P', 'platform.exportAVAX', { ...user, amount: 1, to: EWOQ_X })
      expect(exported.error?.code).toBe(-32005)
      expect(exported.error?.message).toMatch(/^couldn't create tx: problem retrieving user "uuuuuuuu": too many failed attempts, try again in \d+ s$/)
    } finally {
      await c.close()
    }
  })

  it('logs "deprecated API called" once per method, with the replacement', () => {
    const lines = a
      .logText()
      .split('\n')
      .filter((l) => l.includes('deprecated API called'))
      .map((l) => JSON.parse(l) as { method: string; replacement: string })
    const methods = lines.map((l) => l.method).sort()
    expect(methods).toEqual(['keystore.createUser', 'keystore.deleteUser', 'keystore.exportUser', 'keystore.listUsers'])
    expect(lines[0]!.replacement).toMatch(/avax\.issueTx/)
  })
})

describe('keys safe at rest', () => {
  it('neither the ewoq key nor the password is in any file under the data dir, nor in the logs', async () => {
    const n = await boot({ keystoreEnabled: true, chain: { 'admin-api-enabled': true } } as Partial<NodeConfigInput>)
    try {
      expect((await n.ks('keystore.createUser', { username: 'ewoq', password: PW })).result).toEqual({})
      expect((await n.api('/ext/bc/C/avax', 'avax.importKey', { username: 'ewoq', password: PW, privateKey: EWOQ_PRIVATE_KEY })).result).toEqual({ address: EWOQ_ADDRESS })
      expect((await n.api('/ext/bc/X', 'avm.importKey', { username: 'ewoq', password: PW, privateKey: EWOQ_PRIVATE_KEY })).result).toEqual({ address: EWOQ_X })
      const exp = await n.ks('keystore.exportUser', { username: 'ewoq', password: PW })
      expect((await n.ks('keystore.deleteUser', { username: 'ewoq', password: PW })).result).toEqual({})
      expect((await n.ks('keystore.importUser', { username: 'ewoq', password: PW, user: exp.result.user })).result).toEqual({})
      await n.node.close()
      const hex = EWOQ.toString('hex')
      expectNoSecrets(n.dataDir, n.logText(), [...EWOQ_KEY_FORMS, Buffer.from(PW), Buffer.from(PW, 'utf16le')])
      const log = n.logText()
      expect(log).not.toContain(hex)
      expect(log).not.toContain(PW)
    } finally {
      await n.close()
    }
  })
})

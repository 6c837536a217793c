import { afterAll, describe, expect, it } from 'vitest'
import { rpcAt } from '../helpers/childNode.js'
import { type Anvil, startAnvil } from '../helpers/anvil.js'

/** The anvil the fork tests use (test/helpers/anvil.ts): the npm package's binary, on 127.0.0.1, a port of its choosing. */
describe('test helper: startAnvil', () => {
  const started: Anvil[] = []
  afterAll(async () => {
    for (const anvil of started) await anvil.stop()
  })

  it('answers eth_chainId: 31337 by default, the chain ID given; stop() ends it by its PID', async () => {
    const [plain, custom] = await Promise.all([startAnvil(), startAnvil({ chainId: 43112 })])
    started.push(plain, custom)
    expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(plain.url).not.toBe(custom.url)
    expect(await rpcAt(plain.url, 'eth_chainId')).toBe('0x7a69')
    expect(await rpcAt(custom.url, 'eth_chainId')).toBe('0xa868')
    await custom.stop()
    expect(() => process.kill(custom.pid, 0)).toThrow()
    await expect(rpcAt(custom.url, 'eth_chainId')).rejects.toThrow()
  })
})

/**
 * The explorer's routes over plain HTTP (docs/EXPLORER.md, docs/API.md "Explorer"): the redirect from /,
 * the page and its files with a Content-Security-Policy that allows nothing but the node itself,
 * /explorer/chains.json, /explorer/key.json, and no route at all with --explorer-enabled=false.
 */
import { readFileSync } from 'node:fs'
import { Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send } from '../helpers/chain.js'
import { EWOQ_ADDRESS, EWOQ_C, EWOQ_P, EWOQ_SHORT, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, AVAX } from '../helpers/constants.js'
import { rawHttp } from '../helpers/rawHttp.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const get = (tn: TestNode, path: string, method = 'GET') => rawHttp(tn.port, { method, path })
const json = async (tn: TestNode, path: string) => {
  const res = await get(tn, path)
  expect(res.status, path).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  return JSON.parse(res.body)
}

describe('explorer routes (on by default on 127.0.0.1)', () => {
  let tn: TestNode
  beforeAll(async () => {
    tn = await startTestNode()
  })
  afterAll(() => tn?.close())

  it('redirects / and /explorer to /explorer/, which serves the page with a CSP of the node alone', async () => {
    for (const path of ['/', '/explorer']) {
      const res = await get(tn, path)
      expect(res.status, path).toBe(302)
      expect(res.headers.location, path).toBe('/explorer/')
    }
    const page = await get(tn, '/explorer/')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toBe(CSP)
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.body).toBe(readFileSync(new URL('../../explorer/index.html', import.meta.url), 'utf8'))
    // Everything the page names is a relative path: no scheme, no other host.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//)
    expect((await get(tn, '/explorer/', 'HEAD')).status).toBe(200)
  })

  it('serves the compiled scripts and the style sheet from the package, and nothing else under /explorer/', async () => {
    const script = await get(tn, '/explorer/js/main.js')
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.body).toBe(readFileSync(new URL('../../dist/explorer/main.js', import.meta.url), 'utf8'))
    expect((await get(tn, '/explorer/js/pages/home.js')).status).toBe(200)
    const css = await get(tn, '/explorer/explorer.css')
    expect([css.status, css.headers['content-type'], css.headers['content-security-policy']]).toEqual([200, 'text/css; charset=utf-8', CSP])
    for (const path of ['/explorer/tsconfig.json', '/explorer/src/main.ts', '/explorer/../package.json', '/explorer/js/../../package.json', '/explorer/%2e%2e/package.json', '/explorer/nope.js']) {
      const res = await get(tn, path)
      expect(res.status, path).toBe(404)
      expect(res.body, path).toBe('404 page not found\n')
    }
  })

  it('lists the network and its EVM chains at /explorer/chains.json', async () => {
    expect(await json(tn, '/explorer/chains.json')).toEqual({
      networkID: 12345,
      hrp: 'local',
      xChainID: LOCAL_X,
      pChainID: LOCAL_P,
      avaxAssetID: AVAX,
      chains: [{ path: 'C', id: LOCAL_C, aliases: ['C', 'evm'], evmChainID: 43112 }],
    })
  })

  it('finds the key behind an address that signed a recent tx (0x or bech32) at /explorer/key.json; says why when it cannot', async () => {
    await send(tn, { to: Wallet.createRandom().address, value: 1n })
    const found = { found: true, address: EWOQ_ADDRESS, publicKey: expect.stringMatching(/^0x0[23][0-9a-f]{64}$/), shortAddress: `0x${EWOQ_SHORT}`, X: EWOQ_X, P: EWOQ_P, C: EWOQ_C }
    expect(await json(tn, `/explorer/key.json?chain=C&address=${EWOQ_ADDRESS}`)).toEqual(found)
    expect(await json(tn, `/explorer/key.json?chain=C&address=${EWOQ_ADDRESS.toLowerCase()}`)).toEqual(found)
    expect(await json(tn, `/explorer/key.json?chain=${LOCAL_C}&address=${EWOQ_P}`)).toEqual(found)
    const stranger = Wallet.createRandom().address
    expect(await json(tn, `/explorer/key.json?chain=C&address=${stranger}`)).toEqual({ found: false, error: `no transaction signed by ${stranger} in the last 2048 blocks` })
    expect(await json(tn, `/explorer/key.json?chain=Q&address=${EWOQ_ADDRESS}`)).toEqual({ found: false, error: 'unknown chain "Q"' })
    expect(await json(tn, '/explorer/key.json?chain=C&address=X-local1nope')).toMatchObject({ found: false, error: expect.stringMatching(/^not an address: /) })
    expect(await json(tn, '/explorer/key.json?chain=C')).toEqual({ error: 'chain and address are required' })
  })
})

describe('explorer routes with --explorer-enabled=false', () => {
  let tn: TestNode
  beforeAll(async () => {
    tn = await startTestNode({ config: { explorerEnabled: false } })
  })
  afterAll(() => tn?.close())

  it('serves none of them: / and every /explorer path are 404, the APIs unchanged', async () => {
    for (const path of ['/', '/explorer', '/explorer/', '/explorer/chains.json', '/explorer/key.json?chain=C&address=0x00', '/explorer/js/main.js']) {
      const res = await get(tn, path)
      expect(res.status, path).toBe(404)
      expect(res.body, path).toBe('404 page not found\n')
    }
    expect(tn.node.explorer).toBeUndefined()
    expect(await tn.call('eth_chainId')).toBe('0xa868')
  })
})

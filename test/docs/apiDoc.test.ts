import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseNodeConfig } from '../../src/config.js'
import { ETH_API_NAMES } from '../../src/ethApiNames.js'
import { createNode } from '../../src/node.js'

/*
 * Every wire name a dispatcher of the node serves must appear in docs/API.md as a code span. The
 * names are collected without a server: each dispatcher (the EVM one and every gorilla one) asks
 * RpcStats for one counter per method of its table when it is built, so a recording RpcStats sees
 * them all while createNode wires a node with every optional API on.
 */
const served = vi.hoisted(() => new Set<string>())
vi.mock('../../src/rpc/stats.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/rpc/stats.js')>()
  class RecordingStats extends mod.RpcStats {
    override method(name: string) {
      served.add(name)
      return super.method(name)
    }
  }
  return { ...mod, RpcStats: RecordingStats }
})

describe('docs/API.md', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-apidoc-'))
  beforeAll(async () => {
    const config = parseNodeConfig({ dataDir, keystoreEnabled: true, chain: { 'eth-apis': [...ETH_API_NAMES], 'admin-api-enabled': true } })
    const node = await createNode(config, { log: pino({ level: 'silent' }) })
    await node.close()
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('names every method the node serves', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/API.md'), 'utf8')
    // Sanity: the recording saw every endpoint's table (EVM, atomic, X, P, info, health, keystore, admin).
    for (const name of ['eth_chainId', 'native.issueTx', 'avax.issueTx', 'avm.issueTx', 'platform.issueTx', 'info.getNodeID', 'health.health', 'keystore.createUser', 'admin.setLogLevel']) {
      expect(served, name).toContain(name)
    }
    const missing = [...served].filter((name) => !new RegExp('`' + name.replaceAll('.', '\\.') + '[`\\s({]').test(doc)).sort()
    expect(missing, 'methods missing from docs/API.md').toEqual([])
  })
})

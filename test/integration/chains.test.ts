import type { ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ContractFactory, JsonRpcProvider, Network, NonceManager, Wallet } from 'ethers'
import pino from 'pino'
import WebSocket from 'ws'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseNodeConfig, type NodeConfigInput } from '../../src/config.js'
import { configFromArgs } from '../../src/configFromArgs.js'
import { createNode, type CChainNode } from '../../src/node.js'
import { bytecode, iface, poll } from '../helpers/chain.js'
import { assertBuilt, startChild, stopChild } from '../helpers/childNode.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, EWOQ_KEY, LOCAL_C } from '../helpers/constants.js'

/*
 * Issue 8: extra EVM chains next to the C-Chain, as a user meets them: the README's example
 * (examples/chains: dexchain and gamechain) started with the CLI, a contract deployed with ethers
 * on all three chains, newHeads over each chain's WebSocket, a restart, and everything still there.
 */

const EXAMPLE = join(process.cwd(), 'examples/chains')
const LOCAL_GENESIS = join(process.cwd(), 'config/local-genesis.json')

const tempDir = tempDirs('cchain-chains-')
afterAll(() => tempDir.removeAll())

async function rpcAt(url: string, method: string, params: unknown = []): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

interface Started {
  proc: ChildProcess
  base: string
  /** name -> blockchain ID, from the start banner. */
  ids: Map<string, string>
}

/** Starts the CLI (test/helpers/childNode.ts) and reads the base URL and each extra chain's ID from its banner. */
async function startCli(dataDir: string, args: string[]): Promise<Started> {
  const { proc, url, banner } = await startChild(dataDir, args)
  const ids = new Map([...banner.matchAll(/^chain (\S+) \(blockchain ID (\w+),/gm)].map((m) => [m[1]!, m[2]!]))
  return { proc, base: url.slice(0, -'/ext/bc/C/rpc'.length), ids }
}

/** Waits for the first newHeads notification on a chain's WebSocket after `action` runs. */
async function subscribeHeads(wsUrl: string): Promise<{ next(): Promise<any>; close(): void }> {
  const ws = new WebSocket(wsUrl)
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const heads: any[] = []
  let subId: string | undefined
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString())
    if (msg.id === 1) subId = msg.result
    else if (msg.method === 'eth_subscription' && msg.params.subscription === subId) heads.push(msg.params.result)
  })
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
  await poll(async () => subId, 'the subscription id')
  return {
    next: () => poll(async () => heads.shift(), 'a newHeads notification'),
    close: () => ws.close(),
  }
}

describe('the README example: the C-Chain and three extra chains from examples/chains', () => {
  const dataDir = tempDir('cchain-chains-')
  const children: ChildProcess[] = []
  beforeAll(() => {
    assertBuilt()
  })
  afterEach(async () => {
    for (const c of children.splice(0)) await stopChild(c)
  })

  it('deploys one contract on all four with ethers, streams newHeads on each, and finds it all after a restart', async () => {
    const first = await startCli(dataDir, ['--chain-config-dir', EXAMPLE])
    children.push(first.proc)
    expect([...first.ids.keys()]).toEqual(['dexchain', 'gamechain', 'mintchain'])
    // Each chain at C / its name / its blockchain ID / the aliases file's alias; the wallet points at one URL.
    const targets = [
      { path: 'C', chainId: 43112n },
      { path: 'dex', chainId: 99901n },
      { path: first.ids.get('gamechain')!, chainId: 99902n },
      // A subnet-evm L1 (ewoq is its deployer and transaction allow lists' admin).
      { path: 'mintchain', chainId: 99903n },
    ]
    const deployed: { path: string; address: string; block: string; hash: string }[] = []
    for (const t of targets) {
      const url = `${first.base}/ext/bc/${t.path}/rpc`
      const provider = new JsonRpcProvider(url, Network.from(t.chainId), { staticNetwork: true })
      expect(BigInt(await provider.send('eth_chainId', []))).toBe(t.chainId)
      const heads = await subscribeHeads(`${first.base.replace('http', 'ws')}/ext/bc/${t.path}/ws`)
      // Two sends within ethers v6's 250 ms request cache: its NonceManager keeps the nonce (docs/DEV.md).
      const wallet = new NonceManager(new Wallet(EWOQ_KEY, provider))
      const contract = await new ContractFactory(iface('Probe'), bytecode('Probe'), wallet).deploy()
      const receipt = (await contract.deploymentTransaction()!.wait())!
      const set = await (await wallet.sendTransaction({ to: await contract.getAddress(), data: iface('Probe').encodeFunctionData('set', [BigInt(t.chainId)]) })).wait()
      // Each chain's subscription sees its own blocks only: heights 1 and 2 with this chain's hashes.
      const h1 = await heads.next()
      const h2 = await heads.next()
      heads.close()
      expect([h1.hash, h2.hash]).toEqual([receipt.blockHash, set!.blockHash])
      expect(h1.number).toBe('0x1')
      deployed.push({ path: t.path, address: await contract.getAddress(), block: receipt.blockHash, hash: receipt.hash })
    }
    // Same deployer and nonce, so the same address on each chain, but separate state.
    expect(new Set(deployed.map((d) => d.address)).size).toBe(1)
    expect(new Set(deployed.map((d) => d.block)).size).toBe(4)
    // A transaction signed for one chain is refused by another.
    const wrongChain = await new Wallet(EWOQ_KEY).signTransaction({ chainId: 99901n, nonce: 2, to: EWOQ_ADDRESS, gasLimit: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 2 })
    expect((await rpcAt(`${first.base}/ext/bc/C/rpc`, 'eth_sendRawTransaction', [wrongChain])).error?.message).toMatch(/chain/i)
    await stopChild(first.proc)

    const second = await startCli(dataDir, ['--chain-config-dir', EXAMPLE])
    children.push(second.proc)
    expect(second.ids).toEqual(first.ids)
    for (const [i, t] of targets.entries()) {
      const url = `${second.base}/ext/bc/${t.path}/rpc`
      expect((await rpcAt(url, 'eth_blockNumber')).result).toBe('0x2')
      expect((await rpcAt(url, 'eth_getTransactionReceipt', [deployed[i]!.hash])).result.blockHash).toBe(deployed[i]!.block)
      const stored = (await rpcAt(url, 'eth_call', [{ to: deployed[i]!.address, data: iface('Probe').encodeFunctionData('stored') }, 'latest'])).result
      expect(BigInt(stored)).toBe(t.chainId)
    }
    // The chains keep going after the restart.
    const provider = new JsonRpcProvider(`${second.base}/ext/bc/gamechain/rpc`, Network.from(99902n), { staticNetwork: true })
    const tx = await new Wallet(EWOQ_KEY, provider).sendTransaction({ to: Wallet.createRandom().address, value: 1n })
    expect((await tx.wait())!.blockNumber).toBe(3)
  })

  it('resolves every name in info.getBlockchainID, reports each chain in /ext/health, and answers 404 for an unknown ID', async () => {
    const node = await startCli(tempDir('cchain-chains-info-'), ['--chain-config-dir', EXAMPLE])
    children.push(node.proc)
    const info = async (alias: string) => {
      const res = await fetch(`${node.base}/ext/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias } }),
      })
      return ((await res.json()) as { result?: { blockchainID: string } }).result?.blockchainID
    }
    const dex = node.ids.get('dexchain')!
    expect(await info('dexchain')).toBe(dex)
    expect(await info('dex')).toBe(dex)
    expect(await info(dex)).toBe(dex)
    expect(await info('gamechain')).toBe(node.ids.get('gamechain'))
    const health = (await (await fetch(`${node.base}/ext/health`)).json()) as { healthy: boolean; checks: Record<string, any> }
    expect(health.healthy).toBe(true)
    expect(Object.keys(health.checks)).toEqual(expect.arrayContaining(['C', 'dexchain', 'gamechain', 'mintchain']))
    expect(health.checks.dexchain.message.engine.consensus.lastAcceptedHeight).toBe(0)
    const unknown = await fetch(`${node.base}/ext/bc/2ZZZZnotachain/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: string }).error).toBe('unknown blockchain "2ZZZZnotachain": no EVM chain of this node has that ID or alias')
    // Per-chain config: gamechain enables its admin API (examples/chains/gamechain/config.json); C and dexchain do not.
    const admin = (path: string) =>
      fetch(`${node.base}/ext/bc/${path}/admin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"admin.setLogLevel","params":{"level":"info"}}',
      })
    expect((await admin('gamechain')).status).toBe(200)
    expect((await admin('C')).status).toBe(404)
    expect((await admin('dexchain')).status).toBe(404)
    const ws = new WebSocket(`${node.base.replace('http', 'ws')}/ext/bc/nochain/ws`)
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode!)))
    expect(status).toBe(404)
  })
})

describe('configuration', () => {
  const log = pino({ level: 'silent' })
  const config = (input: Partial<NodeConfigInput>) => parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir: tempDir('cchain-chains-cfg-'), logLevel: 'silent', ...input } as NodeConfigInput)
  const genesisWith = (chainId: number): string => {
    const file = join(tempDir('cchain-genesis-'), 'genesis.json')
    const g = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
    writeFileSync(file, JSON.stringify({ ...g, config: { ...g.config, chainId } }))
    return file
  }
  const startError = async (input: Partial<NodeConfigInput>): Promise<Error> => {
    const err = await createNode(config(input), { log }).then(
      async (n) => {
        await n.close()
        return undefined
      },
      (e: Error) => e,
    )
    if (err === undefined) throw new Error('the node started')
    return err
  }

  it('refuses two chains with the same EVM chain ID, naming both', async () => {
    const err = await startError({ evmChains: [{ name: 'twin', genesisFile: genesisWith(43112) }] })
    expect(err).toBeInstanceOf(ConfigError)
    expect(err.message).toBe('chains "C" and "twin" both have EVM chain ID 43112; each EVM chain needs its own (transactions would be valid on both)')
    const two = await startError({
      evmChains: [
        { name: 'a', genesisFile: genesisWith(7001) },
        { name: 'b', genesisFile: genesisWith(7001) },
      ],
    })
    expect(two.message).toMatch(/^chain "b": its genesis gives blockchain ID \w+, which chain "a" already has \(identical genesis\)$/)
  })

  it('refuses reserved names, aliases used twice and aliases-file keys that name no chain', async () => {
    expect((await startError({ evmChains: [{ name: 'evm', genesisFile: genesisWith(7002) }] })).message).toBe('chain "evm": the name is reserved for the primary network\'s chains')
    expect((await startError({ evmChains: [{ name: 'a', genesisFile: genesisWith(7003), aliases: ['X'] }] })).message).toBe('chain "a": alias "X" is reserved')
    expect(
      (
        await startError({
          evmChains: [
            { name: 'a', genesisFile: genesisWith(7006) },
            { name: 'b', genesisFile: genesisWith(7007), aliases: ['a'] },
          ],
        })
      ).message,
    ).toBe('chain "b": alias "a" is already used by chain "a"')
    const aliases = join(tempDir('cchain-aliases-'), 'aliases.json')
    writeFileSync(aliases, JSON.stringify({ nosuchchain: ['n'] }))
    expect((await startError({ chainAliasesFile: aliases })).message).toBe(`chain aliases file ${aliases}: no chain has the ID or name "nosuchchain"`)
  })

  it('derives the blockchain ID from the genesis content: layout does not matter, the content does', async () => {
    const dir = tempDir('cchain-chains-id-')
    const g = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
    const compact = join(dir, 'compact.json')
    const pretty = join(dir, 'pretty.json')
    writeFileSync(compact, JSON.stringify({ ...g, config: { ...g.config, chainId: 7004 } }))
    // Same content, other key order and layout.
    const { chainId: _, ...rest } = g.config
    writeFileSync(pretty, JSON.stringify(Object.fromEntries(Object.entries({ ...g, config: { chainId: 7004, ...rest } }).reverse()), null, 4))
    const idOf = async (file: string) => {
      const node = await createNode(config({ evmChains: [{ name: 'x1', genesisFile: file }] }), { log })
      const id = node.extraChains[0]!.spec.id
      await node.close()
      return id
    }
    const id = await idOf(compact)
    expect(await idOf(pretty)).toBe(id)
    expect(await idOf(genesisWith(7005))).not.toBe(id)
  })

  it('reads C/config.json, <name>/genesis.json + config.json and aliases.json from --chain-config-dir, and --config-file', () => {
    const dir = tempDir('cchain-chaindir-')
    cpSync(EXAMPLE, dir, { recursive: true })
    mkdirSync(join(dir, 'C'))
    writeFileSync(join(dir, 'C', 'config.json'), JSON.stringify({ 'rpc-gas-cap': 1234567 }))
    const c = configFromArgs(['--chain-config-dir', dir])
    expect(c.chain['rpc-gas-cap']).toBe(1234567)
    expect(c.chainConfigDir).toBe(dir)
    const file = join(dir, 'C', 'other.json')
    writeFileSync(file, '{}')
    expect(() => configFromArgs(['--chain-config-dir', dir, '--chain-config-file', file])).toThrow(`both --chain-config-file and ${join(dir, 'C', 'config.json')} give the C-Chain's config; use one`)
    const nodeConfig = join(dir, 'node.json')
    writeFileSync(nodeConfig, JSON.stringify({ 'chain-config-dir': dir, 'http-port': 9999, 'log-level': 'warn' }))
    expect(configFromArgs(['--config-file', nodeConfig, '--http-port', '9998'])).toMatchObject({ chainConfigDir: dir, httpPort: 9998, logLevel: 'warn' })
    writeFileSync(nodeConfig, JSON.stringify({ 'no-such-flag': 1 }))
    expect(() => configFromArgs(['--config-file', nodeConfig])).toThrow(`config file ${nodeConfig}: unknown key "no-such-flag"`)
  })
})

describe('one chain failing', () => {
  let node: CChainNode
  let base: string
  afterAll(async () => {
    await node?.close()
  })

  it('leaves the others serving; its paths answer 503 and /ext/health names it', async () => {
    const dataDir = tempDir('cchain-chains-fail-')
    const g = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
    const genesisFile = join(dataDir, 'broken-genesis.json')
    writeFileSync(genesisFile, JSON.stringify({ ...g, config: { ...g.config, chainId: 7010 } }))
    const good = join(dataDir, 'good-genesis.json')
    writeFileSync(good, JSON.stringify({ ...g, config: { ...g.config, chainId: 7011 } }))
    const input = {
      evmChains: [
        { name: 'broken', genesisFile },
        { name: 'good', genesisFile: good },
      ],
    }
    // First start creates both chains; then the broken chain's database is replaced by a file, which LevelDB cannot open.
    const first = await createNode(parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir, logLevel: 'silent', ...input } as NodeConfigInput), { log: pino({ level: 'silent' }) })
    const brokenId = first.extraChains[0]!.spec.id
    await first.close()
    rmSync(join(dataDir, 'chains', brokenId, 'chain'), { recursive: true })
    writeFileSync(join(dataDir, 'chains', brokenId, 'chain'), 'not a database')
    node = await createNode(parseNodeConfig({ httpHost: '127.0.0.1', httpPort: 0, dataDir, logLevel: 'silent', ...input } as NodeConfigInput), { log: pino({ level: 'silent' }) })
    base = `http://127.0.0.1:${(await node.listen()).port}`
    expect(node.extraChains.map((c) => [c.spec.name, c.error === undefined])).toEqual([
      ['broken', false],
      ['good', true],
    ])
    expect((await rpcAt(`${base}/ext/bc/good/rpc`, 'eth_chainId')).result).toBe('0x1b63')
    expect((await rpcAt(`${base}/ext/bc/C/rpc`, 'eth_chainId')).result).toBe('0xa868')
    const res = await fetch(`${base}/ext/bc/broken/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`^chain broken \\(${brokenId}\\) failed to start: `))
    const health = await fetch(`${base}/ext/health`)
    expect(health.status).toBe(503)
    const report = (await health.json()) as { checks: Record<string, { error?: string }> }
    expect(report.checks.broken!.error).toMatch(/^chain failed to start: /)
    expect(report.checks.good!.error).toBeUndefined()
    expect(report.checks.C!.error).toBeUndefined()
  })
})

describe('extra chains have their own filters, pool and atomic rules', () => {
  let node: CChainNode
  let base: string
  afterAll(async () => {
    await node?.close()
  })
  beforeAll(async () => {
    const dataDir = tempDir('cchain-chains-iso-')
    const g = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
    const genesisFile = join(dataDir, 'genesis.json')
    writeFileSync(genesisFile, JSON.stringify({ ...g, config: { ...g.config, chainId: 7020 } }))
    node = await createNode(
      parseNodeConfig({
        httpHost: '127.0.0.1',
        httpPort: 0,
        dataDir,
        logLevel: 'silent',
        pendingNonceGuard: 0,
        evmChains: [{ name: 'sub', genesisFile, chain: { 'eth-apis': ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'] } }],
      } as NodeConfigInput),
      { log: pino({ level: 'silent' }) },
    )
    base = `http://127.0.0.1:${(await node.listen()).port}`
  })

  it('keeps filters per chain and applies its own eth-apis', async () => {
    const id = (await rpcAt(`${base}/ext/bc/sub/rpc`, 'eth_newBlockFilter')).result
    expect((await rpcAt(`${base}/ext/bc/sub/rpc`, 'eth_getFilterChanges', [id])).result).toEqual([])
    expect((await rpcAt(`${base}/ext/bc/C/rpc`, 'eth_getFilterChanges', [id])).error?.message).toBe('filter not found')
    expect((await rpcAt(`${base}/ext/bc/sub/rpc`, 'debug_traceCall', [{ to: EWOQ_ADDRESS }, 'latest'])).error?.code).toBe(-32601)
    expect((await rpcAt(`${base}/ext/bc/C/rpc`, 'debug_traceCall', [{ to: EWOQ_ADDRESS }, 'latest'])).result).toBeDefined()
  })

  it('serves native/avax at its paths; as a subnet of its own it has no atomic peers', async () => {
    const gorilla = async (path: string, method: string, params: unknown) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await res.json()) as { result?: any; error?: { message: string } }
    }
    const sub = node.extraChains[0]!
    expect(Buffer.from(sub.chain!.atomic.ctx.chainID)).toEqual(Buffer.from(sub.spec.idBytes))
    expect((await gorilla('/ext/bc/sub/avax', 'avax.getAtomicTxStatus', { txID: LOCAL_C })).result).toEqual({ status: 'Unknown' })
    expect((await gorilla(`/ext/bc/${sub.spec.id}/native`, 'native.getAtomicTxStatus', { txID: LOCAL_C })).result).toEqual({ status: 'Unknown' })
    // The X-Chain is not its peer: an export to X fails the subnet rule (coreth's verify.SameSubnet wording).
    const { verifyExportTx } = await import('../../src/atomic/verify.js')
    expect(() =>
      verifyExportTx(sub.chain!.atomic.ctx, {
        networkID: 12345,
        blockchainID: sub.spec.idBytes,
        destinationChain: sub.chain!.atomic.ctx.xChainID,
        ins: [],
        exportedOutputs: [{}],
      } as never),
    ).toThrow('tx has wrong chain ID')
  })
})

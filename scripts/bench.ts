/**
 * `npm run bench`: starts the node as a child process on a temporary data dir and measures it the way
 * the issue judges it (docs/PERFORMANCE.md): autocannon, 32 connections, for `eth_chainId`,
 * `eth_getBalance` and an ERC-20 `balanceOf` `eth_call`, each once with one identical request and once
 * with a new address in every request; `eth_call` and `eth_estimateGas` of an ERC-20 `transfer(to, 1)`
 * from the token holder to a new recipient in every request (`call-transfer`, `estimate-transfer`, and
 * their ratio); then transfers mined per second for 2,000 pre-signed EIP-1559 transfers from 32
 * senders. Medians of several repetitions, with the node's own CPU time per request or transfer (from
 * /proc/<pid>/stat).
 * With `--url`, it measures a node already running there instead (anvil, hardhat node, …) through
 * standard methods only, its CPU with `--pid`; `--key` is the funded account that deploys the token.
 *   npm run bench -- [--json out.json] [--duration 5] [--warmup 1] [--reps 3] [--connections 32]
 *                    [--transfers 2000] [--senders 32] [--only reads|transfers|calls]
 *                    [--node-arg <cchain-node flag>]... [--node-option <node.js flag, e.g. --cpu-prof>]...
 *                    [--url <http JSON-RPC url> [--pid <its pid>]] [--key <funded private key>]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet } from 'ethers'
import { type NodeProc, rssOf, startNode, stopNode } from './bench/node.js'
import { benchRead, readSpecs, transferCallSpecs } from './bench/reads.js'
import { report } from './bench/report.js'
import { type Chain, RpcClient, deployToken, fees, fundSenders, senderWallets } from './bench/rpc.js'
import { signRound, transferRound } from './bench/transfers.js'
import type { CpuClock, Options, ReadBench, TransferRun } from './bench/types.js'
import { cpuUsOf } from './proc.js'

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
const CHAIN_ID = 43112n
const WATCHDOG_MS = 15 * 60_000

function parseArgs(argv: string[]): Options {
  const o: Options = { duration: 5, warmup: 1, reps: 3, connections: 32, transfers: 2000, senders: 32, nodeArgs: [], nodeOptions: [], key: EWOQ_KEY }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = argv[i + 1]
    const num = () => {
      const n = Number(v)
      if (!Number.isFinite(n) || n <= 0) throw new Error(`bad value for ${a}: ${v}`)
      i++
      return n
    }
    const str = (what: string) => {
      if (v === undefined) throw new Error(`${a} needs ${what}`)
      i++
      return v
    }
    switch (a) {
      case '--json':
        o.json = str('a file')
        break
      case '--duration':
        o.duration = num()
        break
      case '--warmup':
        o.warmup = num()
        break
      case '--reps':
        o.reps = Math.floor(num())
        break
      case '--connections':
        o.connections = Math.floor(num())
        break
      case '--transfers':
        o.transfers = Math.floor(num())
        break
      case '--senders':
        o.senders = Math.floor(num())
        break
      case '--node-arg':
        o.nodeArgs.push(str('a value'))
        break
      case '--node-option':
        o.nodeOptions.push(str('a value'))
        break
      case '--only':
        if (v !== 'reads' && v !== 'transfers' && v !== 'calls') throw new Error('--only takes reads, transfers or calls')
        o.only = v
        i++
        break
      case '--url':
        o.url = str('a JSON-RPC URL')
        break
      case '--pid':
        o.pid = Math.floor(num())
        break
      case '--key':
        o.key = str('a private key')
        if (!/^0x[0-9a-fA-F]{64}$/.test(o.key)) throw new Error('--key needs a 32-byte hex private key')
        break
      case '--help':
      case '-h':
        process.stdout.write(
          'usage: npm run bench -- [--json file] [--duration s] [--warmup s] [--reps n] [--connections n] [--transfers n] [--senders n] [--only reads|transfers|calls] [--node-arg flag]... [--node-option flag]... [--url http-rpc-url [--pid pid]] [--key hex]\n',
        )
        process.exit(0)
        break
      default:
        throw new Error(`unknown argument ${a}`)
    }
  }
  if (o.url === undefined && o.pid !== undefined) throw new Error('--pid goes with --url (a spawned node is measured by its own PID)')
  if (o.url !== undefined && (o.nodeArgs.length || o.nodeOptions.length)) throw new Error('--node-arg and --node-option apply to the spawned node, not to --url')
  return o
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2))
  const dataDir = o.url === undefined ? mkdtempSync(join(tmpdir(), 'cchain-bench-')) : undefined
  let node: NodeProc | undefined
  const clients: RpcClient[] = []
  let cleaned = false
  const cleanup = async () => {
    if (cleaned) return
    cleaned = true
    for (const c of clients) c.close()
    if (node) await stopNode(node.child).catch(() => undefined)
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: gave up after ${WATCHDOG_MS / 60000} min\n`)
    void cleanup().finally(() => process.exit(2))
  }, WATCHDOG_MS)
  watchdog.unref()
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      void cleanup().finally(() => process.exit(130))
    })

  try {
    let url: string
    let pid: number | undefined
    if (dataDir) {
      node = await startNode(dataDir, o.nodeArgs, o.nodeOptions)
      url = node.url
      pid = node.child.pid!
    } else {
      url = o.url!
      pid = o.pid
    }
    const coldStart = node ? await node.coldStart : undefined
    process.stderr.write(`node ${pid === undefined ? 'without a pid' : `pid ${pid}`} at ${url}\n`)
    const cpu: CpuClock = pid === undefined ? () => NaN : () => cpuUsOf(pid)
    const rpc = new RpcClient(url, 4)
    const sendPool = new RpcClient(url, o.connections)
    clients.push(rpc, sendPool)

    const wallet = new Wallet(o.key)
    const chainId = BigInt(await rpc.call<string>('eth_chainId'))
    if (node && chainId !== CHAIN_ID) throw new Error(`expected chain ID ${CHAIN_ID}, node has ${chainId}`)
    const chain: Chain = { rpc, wallet, chainId, standardFees: !node }
    const clientVersion = node ? undefined : await rpc.call<string>('web3_clientVersion').catch(() => undefined)
    const token = await deployToken(chain)
    const senders = o.only === 'calls' ? [] : senderWallets(o.senders)
    if (senders.length) await fundSenders(chain, senders)
    process.stderr.write(`setup: TestToken at ${token}, ${senders.length} senders funded\n`)

    const holder = wallet.address
    const specs = o.only === 'calls' ? transferCallSpecs(token, holder) : o.only === 'transfers' ? [] : [...readSpecs(token, holder), ...transferCallSpecs(token, holder)]
    const reads: ReadBench[] = []
    for (const spec of specs) reads.push(await benchRead(rpc, url, cpu, spec, o))

    const transfers: TransferRun[] = []
    const nonceBase = senders.map(() => 0)
    let transferWarmup: TransferRun | undefined
    const runTransfers = o.only === undefined || o.only === 'transfers'
    if (runTransfers) {
      // Warm-up round (not counted), as the reads get theirs: the first transactions through a fresh
      // process run the decode, execute and commit paths cold (unoptimised JIT code).
      const signed = await signRound(senders, senders.length * 10, nonceBase, await fees(chain), chainId)
      signed.forEach((l, s) => {
        nonceBase[s] += l.length
      })
      transferWarmup = await transferRound(sendPool, rpc, signed, cpu)
      process.stderr.write(`  transfers warm-up: ${Math.round(transferWarmup.tps)} mined/s (${transferWarmup.mined} in ${transferWarmup.seconds.toFixed(2)} s, not counted)\n`)
    }
    for (let i = 0; i < (runTransfers ? o.reps : 0); i++) {
      const signed = await signRound(senders, o.transfers, nonceBase, await fees(chain), chainId)
      signed.forEach((l, s) => {
        nonceBase[s] += l.length
      })
      const run = await transferRound(sendPool, rpc, signed, cpu)
      transfers.push(run)
      process.stderr.write(`  transfers run ${i + 1}: ${Math.round(run.tps)} mined/s (${run.mined} in ${run.seconds.toFixed(2)} s, ${run.blocks} blocks), ${Math.round(run.cpuUs)} µs CPU each\n`)
    }
    report({
      o,
      subject: { spawned: node !== undefined, url, clientVersion, pid },
      reads,
      transfers,
      transferWarmup,
      rss: pid === undefined ? undefined : rssOf(pid),
      coldStart,
      cpu: { model: cpus()[0]?.model ?? 'unknown', cores: availableParallelism() },
    })
  } finally {
    await cleanup()
    clearTimeout(watchdog)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`)
  process.exit(1)
})

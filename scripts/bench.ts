/**
 * `npm run bench`: starts the node as a child process on a temporary data dir and measures it the way
 * the issue judges it (docs/PERFORMANCE.md): autocannon, 32 connections, for `eth_chainId`,
 * `eth_getBalance` and an ERC-20 `balanceOf` `eth_call`, each once with one identical request and once
 * with a new address in every request; then transfers mined per second for 2,000 pre-signed EIP-1559
 * transfers from 32 senders. Medians of several repetitions, with the node's own CPU time per
 * request or transfer (from /proc/<pid>/stat).
 *   npm run bench -- [--json out.json] [--duration 5] [--warmup 1] [--reps 3] [--connections 32]
 *                    [--transfers 2000] [--senders 32] [--only reads|transfers]
 *                    [--node-arg <cchain-node flag>]... [--node-option <node.js flag, e.g. --cpu-prof>]...
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { cpuUsOf, freePort } from './proc.js'
import { Interface, Wallet, keccak256, toUtf8Bytes } from 'ethers'

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const CHAIN_ID = 43112n
const RPC_TIMEOUT_MS = 15_000
const STARTUP_TIMEOUT_MS = 30_000
const TRANSFER_ROUND_TIMEOUT_MS = 120_000
const WATCHDOG_MS = 15 * 60_000

interface Options {
  json?: string
  duration: number
  warmup: number
  reps: number
  connections: number
  transfers: number
  senders: number
  nodeArgs: string[]
  nodeOptions: string[]
  only?: 'reads' | 'transfers'
}

/** One autocannon measurement. */
interface LoadRun {
  rps: number
  total: number
  /** The node's CPU time (user + system) per request, µs. */
  cpuUs: number
  non2xx: number
  mismatches: number
  errors: number
  timeouts: number
  p50ms: number
  p99ms: number
}
/** One transfer round. */
interface TransferRun {
  tps: number
  mined: number
  /** The node's CPU time (user + system) per mined transfer, µs; the sends and the mining both count. */
  cpuUs: number
  seconds: number
  blocks: number
  sendErrors: number
}

function parseArgs(argv: string[]): Options {
  const o: Options = { duration: 5, warmup: 1, reps: 3, connections: 32, transfers: 2000, senders: 32, nodeArgs: [], nodeOptions: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = argv[i + 1]
    const num = () => {
      const n = Number(v)
      if (!Number.isFinite(n) || n <= 0) throw new Error(`bad value for ${a}: ${v}`)
      i++
      return n
    }
    switch (a) {
      case '--json':
        if (v === undefined) throw new Error('--json needs a file')
        o.json = v
        i++
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
        if (v === undefined) throw new Error('--node-arg needs a value')
        o.nodeArgs.push(v)
        i++
        break
      case '--node-option':
        if (v === undefined) throw new Error('--node-option needs a value')
        o.nodeOptions.push(v)
        i++
        break
      case '--only':
        if (v !== 'reads' && v !== 'transfers') throw new Error('--only takes reads or transfers')
        o.only = v
        i++
        break
      case '--help':
      case '-h':
        process.stdout.write(
          'usage: npm run bench -- [--json file] [--duration s] [--warmup s] [--reps n] [--connections n] [--transfers n] [--senders n] [--only reads|transfers] [--node-arg flag]... [--node-option flag]...\n',
        )
        process.exit(0)
        break
      default:
        throw new Error(`unknown argument ${a}`)
    }
  }
  return o
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

// ---------------------------------------------------------------- child node

let stopping = false

interface NodeProc {
  child: ChildProcess
  url: string
  host: string
  port: number
  stderr: string[]
  /** Undefined when eth_chainId never answered at 127.0.0.1 (another --http-host). */
  coldStart: Promise<ColdStart | undefined>
}

/** Spawn to the first answer of eth_chainId, polled every 10 ms (as the peer harness's launcher does), and the node's CPU by then. */
interface ColdStart {
  ms: number
  cpuMs: number
}

async function pollColdStart(port: number, child: ChildProcess, t0: number): Promise<ColdStart | undefined> {
  const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
  const once = () =>
    new Promise<boolean>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/ext/bc/C/rpc', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => {
          text += c
        })
        res.on('end', () => resolve(text.includes('"result"')))
      })
      req.on('error', () => resolve(false))
      req.end(body)
    })
  while (performance.now() - t0 < STARTUP_TIMEOUT_MS && child.exitCode === null) {
    if (await once()) return { ms: performance.now() - t0, cpuMs: cpuUsOf(child.pid!) / 1000 }
    await sleep(10)
  }
  return undefined
}

/** Starts `node dist/src/main.js` on a free port and a temp data dir; resolves on its listening line. */
async function startNode(dataDir: string, extra: string[], nodeOptions: string[]): Promise<NodeProc> {
  const main = join(process.cwd(), 'dist/src/main.js')
  const port = await freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, [...nodeOptions, main, '--http-port', String(port), '--data-dir', dataDir, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] })
  const coldStart = pollColdStart(port, child, t0)
  const stderr: string[] = []
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr.push(d)
    if (stderr.length > 200) stderr.shift()
  })
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => {
      reject(new Error(`node did not print its listening line within ${STARTUP_TIMEOUT_MS} ms`))
    }, STARTUP_TIMEOUT_MS)
    child.once('exit', (code, sig) => {
      clearTimeout(timer)
      reject(new Error(`node exited during startup (${code ?? sig}): ${stderr.join('').slice(-2000)}`))
    })
    let listening = false
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (listening) return
      out += d
      const m = /JSON-RPC\s+(http:\/\/(\S+):(\d+)\/ext\/bc\/C\/rpc)/.exec(out)
      if (m) {
        clearTimeout(timer)
        listening = true
        child.removeAllListeners('exit')
        child.once('exit', (code, sig) => {
          if (!stopping) process.stderr.write(`bench: the node exited unexpectedly (${code ?? sig}): ${stderr.join('').slice(-2000)}\n`)
        })
        const host = m[2].replace(/^\[|\]$/g, '')
        resolve({ child, url: m[1], host, port: Number(m[3]), stderr, coldStart })
        out = ''
        return
      }
      if (out.length > 100_000) out = out.slice(-10_000)
    })
  })
}

/** Stops the child by its PID: SIGTERM, then SIGKILL after 5 s. */
async function stopNode(child: ChildProcess): Promise<void> {
  stopping = true
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  process.kill(child.pid, 'SIGTERM')
  const t = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL')
  }, 5000)
  await exited
  clearTimeout(t)
}

function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------- JSON-RPC over keep-alive HTTP

class RpcClient {
  readonly agent: Agent
  private nextId = 1
  constructor(
    readonly host: string,
    readonly port: number,
    connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  }

  /** POSTs a raw body; resolves with the status and the response text. */
  post(body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          path: '/ext/bc/C/rpc',
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          timeout: RPC_TIMEOUT_MS,
        },
        (res) => {
          let text = ''
          res
            .setEncoding('utf8')
            .on('data', (c: string) => {
              text += c
            })
            .on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('timeout', () => req.destroy(new Error('RPC request timed out')))
      req.on('error', reject)
      req.end(body)
    })
  }

  /** Calls a method and returns its result; throws on an HTTP or JSON-RPC error. */
  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const { status, text } = await this.post(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }))
    if (status !== 200) throw new Error(`${method}: HTTP ${status}: ${text.slice(0, 300)}`)
    const msg = JSON.parse(text) as { result?: T; error?: { code: number; message: string } }
    if (msg.error) throw new Error(`${method}: ${msg.error.code} ${msg.error.message}`)
    return msg.result as T
  }

  close(): void {
    this.agent.destroy()
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function waitReceipt(rpc: RpcClient, hash: string, timeoutMs = 30_000): Promise<{ status: string; contractAddress?: string }> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const r = await rpc.call<{ status: string; contractAddress?: string } | null>('eth_getTransactionReceipt', [hash])
    if (r) return r
    if (Date.now() > until) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`)
    await sleep(10)
  }
}

// ---------------------------------------------------------------- setup

interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** Fees with headroom: tip from eth_maxPriorityFeePerGas, max fee 4x the base fee plus the tip. */
async function fees(rpc: RpcClient): Promise<Fees> {
  const [base, tip] = await Promise.all([rpc.call<string>('eth_baseFee'), rpc.call<string>('eth_maxPriorityFeePerGas')])
  const maxPriorityFeePerGas = BigInt(tip)
  return { maxPriorityFeePerGas, maxFeePerGas: BigInt(base) * 4n + maxPriorityFeePerGas }
}

async function deployToken(rpc: RpcClient, ewoq: Wallet): Promise<string> {
  const artifacts = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/contracts.json'), 'utf8')) as { contracts: Record<string, { abi: unknown[]; bytecode: string }> }
  const token = artifacts.contracts.TestToken
  const data = token.bytecode + new Interface(token.abi as never).encodeDeploy([10n ** 27n]).slice(2)
  const nonce = BigInt(await rpc.call<string>('eth_getTransactionCount', [EWOQ, 'pending']))
  const gas = BigInt(await rpc.call<string>('eth_estimateGas', [{ from: EWOQ, data }]))
  const raw = await ewoq.signTransaction({ type: 2, chainId: CHAIN_ID, nonce: Number(nonce), gasLimit: gas + gas / 5n, data, ...(await fees(rpc)) })
  const hash = await rpc.call<string>('eth_sendRawTransaction', [raw])
  const receipt = await waitReceipt(rpc, hash)
  if (receipt.status !== '0x1' || !receipt.contractAddress) throw new Error(`TestToken deployment failed: ${JSON.stringify(receipt)}`)
  return receipt.contractAddress
}

/** Deterministic sender keys: keccak256("cchain-node bench sender <i>"). */
function senderWallets(n: number): Wallet[] {
  return Array.from({ length: n }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`cchain-node bench sender ${i}`))))
}

async function fundSenders(rpc: RpcClient, ewoq: Wallet, senders: Wallet[]): Promise<void> {
  const nonce = Number(BigInt(await rpc.call<string>('eth_getTransactionCount', [EWOQ, 'pending'])))
  const f = await fees(rpc)
  const value = 1000n * 10n ** 18n
  const raws = await Promise.all(senders.map((s, i) => ewoq.signTransaction({ type: 2, chainId: CHAIN_ID, nonce: nonce + i, to: s.address, value, gasLimit: 21000n, ...f })))
  const hashes: string[] = []
  for (const raw of raws) hashes.push(await rpc.call<string>('eth_sendRawTransaction', [raw]))
  for (const h of hashes) {
    const r = await waitReceipt(rpc, h)
    if (r.status !== '0x1') throw new Error(`funding transfer ${h} failed`)
  }
}

// ---------------------------------------------------------------- autocannon

/** What one read benchmark sends: one identical body, or a new body for every request. */
type Body = string | (() => string)

/** One autocannon run; `pid` is the node's, whose CPU time is read before and after. */
async function cannon(url: string, body: Body, seconds: number, connections: number, expected: string, onMismatch: (b: string) => void, pid: number): Promise<LoadRun> {
  const cpu0 = cpuUsOf(pid)
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(typeof body === 'string' ? { body } : { requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }] }),
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    // Every answer of these reads is the same during a run (no transactions are sent meanwhile; a new
    // address holds nothing), so the check is an exact comparison with the answer fetched before the run.
    verifyBody: (b) => {
      if (b === expected) return true
      onMismatch(String(b))
      return false
    },
  })
  const cpuUs = cpuUsOf(pid) - cpu0
  return {
    rps: r.requests.average,
    total: r.requests.total,
    cpuUs: r.requests.total > 0 ? cpuUs / r.requests.total : NaN,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    errors: r.errors,
    timeouts: r.timeouts,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
  }
}

interface ReadBench {
  name: string
  /** req/s to reach; undefined: none set (the distinct-key reads are judged against the peers, docs/PERFORMANCE.md). */
  target?: number
  median: number
  /** Median of the runs' node CPU µs per request. */
  cpuUs: number
  runs: LoadRun[]
  sampleError?: string
  /** Printed beside the figure. */
  note?: string
}

/** A read benchmark: one identical request (`params`), or a new one every request (`params` a generator). */
interface ReadSpec {
  name: string
  target?: number
  method: string
  params: unknown[] | (() => unknown[])
  note?: string
}

async function benchRead(rpc: RpcClient, url: string, pid: number, spec: ReadSpec, o: Options): Promise<ReadBench> {
  const { name, target, method, params, note } = spec
  const bodyOf = (p: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: p })
  const body: Body = typeof params === 'function' ? () => bodyOf(params()) : bodyOf(params)
  const expected = (await rpc.post(typeof body === 'string' ? body : body())).text
  const parsed = JSON.parse(expected) as { result?: unknown; error?: unknown }
  if (parsed.error !== undefined || parsed.result === undefined) throw new Error(`${name}: the node answered ${expected}`)
  let sampleError: string | undefined
  const onMismatch = (b: string) => {
    sampleError ??= b.slice(0, 300)
  }
  const runs: LoadRun[] = []
  for (let i = 0; i < o.reps; i++) {
    await cannon(url, body, o.warmup, o.connections, expected, onMismatch, pid)
    const run = await cannon(url, body, o.duration, o.connections, expected, onMismatch, pid)
    runs.push(run)
    process.stderr.write(`  ${name} run ${i + 1}: ${Math.round(run.rps)} req/s, ${Math.round(run.cpuUs)} µs CPU each\n`)
  }
  return { name, target, median: median(runs.map((r) => r.rps)), cpuUs: median(runs.map((r) => r.cpuUs)), runs, sampleError, note }
}

/** Addresses never asked before: a random 32-bit prefix, then a counter (no address repeats, warm-ups included). */
function newAddresses(): () => string {
  const prefix = Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')
  let n = 0
  return () => '0x' + prefix + (n++).toString(16).padStart(32, '0')
}

/** Every read benchmark; the distinct-key ones build a new body for every request (a new address or holder each time). */
function readSpecs(token: string): ReadSpec[] {
  const balanceOf = (holder: string) => '0x70a08231' + '0'.repeat(24) + holder.slice(2).toLowerCase()
  const fresh = newAddresses()
  return [
    { name: 'eth_chainId', target: 13_000, method: 'eth_chainId', params: [] },
    { name: 'eth_getBalance', target: 12_000, method: 'eth_getBalance', params: [EWOQ, 'latest'] },
    { name: 'eth_getBalance, new address each', method: 'eth_getBalance', params: () => [fresh(), 'latest'] },
    {
      name: 'balanceOf eth_call, identical (may hit the per-head memo)',
      target: 8_000,
      method: 'eth_call',
      params: [{ to: token, data: balanceOf(EWOQ) }, 'latest'],
      note: 'one identical call repeated, possibly answered from the per-head eth_call memo rather than the EVM; the "new holder each" row runs the EVM every time',
    },
    { name: 'balanceOf eth_call, new holder each', method: 'eth_call', params: () => [{ to: token, data: balanceOf(fresh()) }, 'latest'] },
  ]
}

// ---------------------------------------------------------------- transfers

/** Pre-signs one round: sender i sends nonces base..base+k-1; 2,000 over 32 senders is 63 or 62 each. */
async function signRound(senders: Wallet[], total: number, nonceBase: number[], f: Fees): Promise<string[][]> {
  const perSender = senders.map((_, i) => Math.floor(total / senders.length) + (i < total % senders.length ? 1 : 0))
  const out: string[][] = []
  for (let i = 0; i < senders.length; i++) {
    const list: string[] = []
    for (let k = 0; k < perSender[i]; k++) {
      const to = senders[(i + 1 + k) % senders.length].address
      list.push(await senders[i].signTransaction({ type: 2, chainId: CHAIN_ID, nonce: nonceBase[i] + k, to, value: 1n, gasLimit: 21000n, ...f }))
    }
    out.push(list)
  }
  return out
}

/**
 * Sends every sender's transfers in nonce order over its own keep-alive connection (32 at once), and
 * counts the transactions in the blocks built since the start until all are in; the clock runs from
 * the first send to the poll that sees the last one mined.
 */
async function transferRound(rpc: RpcClient, poller: RpcClient, signed: string[][], pid: number): Promise<TransferRun> {
  const total = signed.reduce((n, l) => n + l.length, 0)
  const startBlock = Number(BigInt(await poller.call<string>('eth_blockNumber')))
  const cpu0 = cpuUsOf(pid)
  let sendErrors = 0
  let sendsDone = false
  let firstError: string | undefined
  const t0 = performance.now()
  const senders = signed.map(async (list) => {
    for (const raw of list) {
      try {
        const { status, text } = await rpc.post(`{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["${raw}"]}`)
        if (status !== 200 || !text.includes('"result"')) {
          sendErrors++
          firstError ??= `HTTP ${status} ${text.slice(0, 200)}`
        }
      } catch (err) {
        sendErrors++
        firstError ??= String(err)
      }
    }
  })
  const allSent = Promise.all(senders).then(() => {
    sendsDone = true
  })
  let mined = 0
  let seen = startBlock
  let t1 = 0
  const deadline = t0 + TRANSFER_ROUND_TIMEOUT_MS
  while (mined < total - (sendsDone ? sendErrors : 0)) {
    const head = Number(BigInt(await poller.call<string>('eth_blockNumber')))
    for (let n = seen + 1; n <= head; n++) {
      const b = await poller.call<{ transactions: string[] }>('eth_getBlockByNumber', ['0x' + n.toString(16), false])
      mined += b.transactions.length
    }
    seen = head
    t1 = performance.now()
    if (mined >= total - (sendsDone ? sendErrors : 0)) break
    if (t1 > deadline) throw new Error(`only ${mined} of ${total} transfers mined after ${TRANSFER_ROUND_TIMEOUT_MS} ms (${sendErrors} send errors${firstError ? `, first: ${firstError}` : ''})`)
    await sleep(5)
  }
  await allSent
  if (firstError) process.stderr.write(`  transfer send error: ${firstError}\n`)
  const seconds = (t1 - t0) / 1000
  return { tps: mined / seconds, mined, cpuUs: (cpuUsOf(pid) - cpu0) / mined, seconds, blocks: seen - startBlock, sendErrors }
}

// ---------------------------------------------------------------- report

function table(rows: string[][]): string {
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(w[c]) : cell.padStart(w[c]))).join('  ')).join('\n')
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2))
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-bench-'))
  let node: NodeProc | undefined
  const clients: RpcClient[] = []
  let cleaned = false
  const cleanup = async () => {
    if (cleaned) return
    cleaned = true
    for (const c of clients) c.close()
    if (node) await stopNode(node.child).catch(() => undefined)
    rmSync(dataDir, { recursive: true, force: true })
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
    node = await startNode(dataDir, o.nodeArgs, o.nodeOptions)
    const pid = node.child.pid!
    const coldStart = await node.coldStart
    process.stderr.write(`node pid ${pid} at ${node.url}\n`)
    const rpc = new RpcClient(node.host, node.port, 4)
    const sendPool = new RpcClient(node.host, node.port, o.connections)
    clients.push(rpc, sendPool)

    const ewoq = new Wallet(EWOQ_KEY)
    const chainId = BigInt(await rpc.call<string>('eth_chainId'))
    if (chainId !== CHAIN_ID) throw new Error(`expected chain ID ${CHAIN_ID}, node has ${chainId}`)
    const token = await deployToken(rpc, ewoq)
    const senders = senderWallets(o.senders)
    await fundSenders(rpc, ewoq, senders)
    process.stderr.write(`setup: TestToken at ${token}, ${senders.length} senders funded\n`)

    const reads: ReadBench[] = []
    if (o.only !== 'transfers') for (const spec of readSpecs(token)) reads.push(await benchRead(rpc, node.url, pid, spec, o))

    const transfers: TransferRun[] = []
    const nonceBase = senders.map(() => 0)
    let transferWarmup: TransferRun | undefined
    if (o.only !== 'reads') {
      // Warm-up round (not counted), as the reads get theirs: the first transactions through a fresh
      // process run the decode, execute and commit paths cold (unoptimised JIT code).
      const signed = await signRound(senders, senders.length * 10, nonceBase, await fees(rpc))
      signed.forEach((l, s) => {
        nonceBase[s] += l.length
      })
      transferWarmup = await transferRound(sendPool, rpc, signed, pid)
      process.stderr.write(`  transfers warm-up: ${Math.round(transferWarmup.tps)} mined/s (${transferWarmup.mined} in ${transferWarmup.seconds.toFixed(2)} s, not counted)\n`)
    }
    for (let i = 0; i < (o.only === 'reads' ? 0 : o.reps); i++) {
      const f = await fees(rpc)
      const signed = await signRound(senders, o.transfers, nonceBase, f)
      signed.forEach((l, s) => {
        nonceBase[s] += l.length
      })
      const run = await transferRound(sendPool, rpc, signed, pid)
      transfers.push(run)
      process.stderr.write(`  transfers run ${i + 1}: ${Math.round(run.tps)} mined/s (${run.mined} in ${run.seconds.toFixed(2)} s, ${run.blocks} blocks), ${Math.round(run.cpuUs)} µs CPU each\n`)
    }
    const transferMedian = transfers.length ? median(transfers.map((r) => r.tps)) : NaN
    const transferCpuUs = transfers.length ? median(transfers.map((r) => r.cpuUs)) : NaN
    const rss = rssOf(pid)
    const cpu = { model: cpus()[0]?.model ?? 'unknown', cores: availableParallelism() }

    const rows = [['benchmark', 'median', 'CPU µs/op', 'runs', 'target', 'non-2xx', 'rpc errors', 'conn errors', 'p99 ms']]
    for (const r of reads) {
      rows.push([
        `${r.name} (req/s)`,
        fmt(r.median),
        fmt(r.cpuUs),
        r.runs.map((x) => fmt(x.rps)).join(' / '),
        r.target === undefined ? '-' : fmt(r.target),
        String(r.runs.reduce((n, x) => n + x.non2xx, 0)),
        String(r.runs.reduce((n, x) => n + x.mismatches, 0)),
        String(r.runs.reduce((n, x) => n + x.errors, 0)),
        String(Math.max(...r.runs.map((x) => x.p99ms))),
      ])
    }
    if (transfers.length)
      rows.push([
        'transfers mined/s',
        fmt(transferMedian),
        fmt(transferCpuUs),
        transfers.map((x) => fmt(x.tps)).join(' / '),
        '1,000',
        '-',
        String(transfers.reduce((n, x) => n + x.sendErrors, 0)),
        '-',
        '-',
      ])
    process.stdout.write(`\ncchain-node bench: ${o.connections} connections, pipelining 1, ${o.duration} s runs after ${o.warmup} s warm-up, ${o.reps} repetitions\n`)
    process.stdout.write(`CPU: ${cpu.model}, ${cpu.cores} cores; node ${process.version}; node RSS at end ${rss ? (rss / 2 ** 20).toFixed(0) + ' MiB' : 'n/a'}\n`)
    process.stdout.write(
      `cold start (spawn to the first eth_chainId answer, polled every 10 ms): ${coldStart ? `${fmt(coldStart.ms)} ms, the node's CPU by then ${fmt(coldStart.cpuMs)} ms` : 'not measured'}\n\n`,
    )
    process.stdout.write(table(rows) + '\n')
    if (transfers.length)
      process.stdout.write(
        `transfers: ${o.transfers} pre-signed EIP-1559 transfers from ${o.senders} senders per run after a ${transferWarmup?.mined ?? 0}-transfer warm-up round; blocks per run ${transfers.map((x) => x.blocks).join(' / ')}\n`,
      )
    for (const r of reads) if (r.note) process.stdout.write(`${r.name}: ${r.note}\n`)
    for (const r of reads) if (r.sampleError) process.stdout.write(`${r.name}: first unexpected answer: ${r.sampleError}\n`)
    process.stdout.write("CPU µs/op: the node process's user + system time per request or mined transfer (/proc/<pid>/stat, 10 ms ticks), median of the runs\n")
    const missed = [...reads.filter((r) => r.target !== undefined && r.median < r.target).map((r) => r.name), ...(transferMedian < 1000 ? ['transfers'] : [])]
    process.stdout.write(missed.length ? `below target: ${missed.join(', ')}\n` : 'all targets met\n')

    if (o.json) {
      writeFileSync(
        o.json,
        JSON.stringify(
          {
            date: new Date().toISOString(),
            cpu,
            node: process.version,
            options: { ...o, json: undefined },
            reads: Object.fromEntries(reads.map((r) => [r.name, { median: r.median, cpuUsPerRequest: r.cpuUs, target: r.target, note: r.note, runs: r.runs, sampleError: r.sampleError }])),
            transfers: { median: transferMedian, cpuUsPerTransfer: transferCpuUs, target: 1000, runs: transfers, warmup: transferWarmup },
            nodeRssBytes: rss,
            coldStart,
          },
          null,
          2,
        ) + '\n',
      )
      process.stdout.write(`figures written to ${o.json}\n`)
    }
  } finally {
    await cleanup()
    clearTimeout(watchdog)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`)
  process.exit(1)
})

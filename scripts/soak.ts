/**
 * `npm run soak -- --minutes N` (default 30): starts the node as a child process on a temporary data
 * dir and keeps it busy with a mixed load: reads over HTTP, a stream of transfers, WebSocket
 * subscribers that come and go (half of them drop the TCP connection without a close), and filters
 * that are never uninstalled. Every sample period (default 60 s) it prints the node's RSS, heap
 * (the smallest heap seen in the period, which is close to the heap after GC), active handles and
 * open file descriptors, then a verdict per figure over the second half of the run: flat or growing
 * (docs/SECURITY.md, W6, E5: no leaks). Bounded caches fill during the first minutes: run it for 10 or more.
 *   npm run soak -- [--minutes 30] [--sample-seconds 60] [--readers 8] [--writers 4] [--json out.json]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet, id as keccakText } from 'ethers'
import WebSocket from 'ws'

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
const CHAIN_ID = 43112n
const FEE_CAP = 100_000_000_000n
const MIB = 1024 * 1024

interface Options {
  minutes: number
  sampleSeconds: number
  readers: number
  writers: number
  json?: string
}

function parseArgs(argv: string[]): Options {
  const o: Options = { minutes: 30, sampleSeconds: 60, readers: 8, writers: 4 }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = argv[i + 1]
    const num = (): number => {
      const n = Number(v)
      if (!Number.isFinite(n) || n <= 0) throw new Error(`bad value for ${a}: ${v}`)
      i++
      return n
    }
    switch (a) {
      case '--minutes':
        o.minutes = num()
        break
      case '--sample-seconds':
        o.sampleSeconds = num()
        break
      case '--readers':
        o.readers = Math.floor(num())
        break
      case '--writers':
        o.writers = Math.floor(num())
        break
      case '--json':
        if (v === undefined) throw new Error('--json needs a file')
        o.json = v
        i++
        break
      case '--help':
      case '-h':
        process.stdout.write('usage: npm run soak -- [--minutes 30] [--sample-seconds 60] [--readers 8] [--writers 4] [--json file]\n')
        process.exit(0)
        break
      default:
        throw new Error(`unknown argument ${a}`)
    }
  }
  return o
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 })

function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        text += c
      })
      res.on('end', () => resolve(text))
    })
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end(body)
  })
}

let nextId = 1
async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const r = JSON.parse(await post(url, JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }))) as { result?: unknown; error?: { message: string } }
  if (r.error !== undefined) throw new Error(`${method}: ${r.error.message}`)
  return r.result
}

async function startNode(dataDir: string): Promise<{ proc: ChildProcess; url: string; port: number }> {
  const main = join(import.meta.dirname, '../src/main.js')
  const proc = spawn(process.execPath, [main, '--http-port', '0', '--data-dir', dataDir, '--log-level', 'error'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('node did not start in 30 s')), 30_000)
    proc.once('exit', (code) => reject(new Error(`node exited with ${code}`)))
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /JSON-RPC\s+(http:\/\/127\.0\.0\.1:(\d+)\/ext\/bc\/C\/rpc)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve({ proc, url: m[1]!, port: Number(m[2]) })
      }
    })
  })
}

/** One line of the node's Prometheus text. */
function metric(text: string, name: string): number | undefined {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)
  return m === null ? undefined : Number(m[1])
}

interface Sample {
  minute: number
  rssMiB: number
  heapMiB: number
  heapTotalMiB: number
  externalMiB: number
  handles: number
  fds: number
  ops: number
  txs: number
  wsOpened: number
  filters: number
  errors: number
}

/** Least-squares slope per sample of `ys`. */
function slope(ys: number[]): number {
  const n = ys.length
  if (n < 2) return 0
  const mx = (n - 1) / 2
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my)
    den += (x - mx) ** 2
  })
  return num / den
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2))
  const dataDir = mkdtempSync(join(tmpdir(), 'cchain-soak-'))
  const node = await startNode(dataDir)
  const { url, port } = node
  const base = `http://127.0.0.1:${port}`
  const wsUrl = `ws://127.0.0.1:${port}/ext/bc/C/ws`
  const pid = node.proc.pid!
  process.stdout.write(`soak: node pid ${pid} at ${url}, ${o.minutes} min, a sample every ${o.sampleSeconds} s, ${o.readers} readers, ${o.writers} writers\n`)

  let running = true
  const counters = { ops: 0, txs: 0, wsOpened: 0, filters: 0, errors: 0 }
  const lastErrors: string[] = []
  const fail = (err: unknown): void => {
    counters.errors++
    if (lastErrors.length < 5) lastErrors.push(String((err as Error).message ?? err))
  }
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

  // Writers: fund them from ewoq, then each streams transfers with its own nonces.
  const ewoq = new Wallet(EWOQ_KEY)
  const writers = Array.from({ length: o.writers }, (_, i) => new Wallet(keccakText(`soak-writer-${i}`)))
  const sinks = Array.from({ length: 8 }, (_, i) => new Wallet(keccakText(`soak-sink-${i}`)).address)
  let ewoqNonce = Number(await rpc(url, 'eth_getTransactionCount', [ewoq.address, 'latest']))
  const signTx = (w: Wallet, nonce: number, to: string, value: bigint): Promise<string> =>
    w.signTransaction({ type: 2, chainId: CHAIN_ID, nonce, to, value, gasLimit: 21_000n, maxFeePerGas: FEE_CAP, maxPriorityFeePerGas: 1n })
  const recent: string[] = []
  for (const w of writers) await rpc(url, 'eth_sendRawTransaction', [await signTx(ewoq, ewoqNonce++, w.address, 10n ** 24n)])
  const waitReceipt = async (hash: string): Promise<any> => {
    for (let i = 0; i < 3000 && running; i++) {
      const r = await rpc(url, 'eth_getTransactionReceipt', [hash])
      if (r !== null) return r
      await sleep(10)
    }
    return null
  }
  const writer = async (w: Wallet, k: number): Promise<void> => {
    while (BigInt(await rpc(url, 'eth_getBalance', [w.address, 'latest'])) === 0n && running) await sleep(50)
    let nonce = Number(await rpc(url, 'eth_getTransactionCount', [w.address, 'latest']))
    while (running) {
      try {
        const hash = await rpc(url, 'eth_sendRawTransaction', [await signTx(w, nonce, sinks[(nonce + k) % sinks.length]!, 1n)])
        nonce++
        counters.txs++
        const r = await waitReceipt(hash)
        if (r !== null) {
          recent.push(hash)
          if (recent.length > 200) recent.shift()
        }
      } catch (err) {
        fail(err)
        nonce = Number(await rpc(url, 'eth_getTransactionCount', [w.address, 'latest']).catch(() => nonce))
        await sleep(100)
      }
      await sleep(20)
    }
  }

  // Readers: a mix of cheap and heavier reads.
  const reads: (() => Promise<unknown>)[] = [
    () => rpc(url, 'eth_blockNumber'),
    () => rpc(url, 'eth_chainId'),
    () => rpc(url, 'eth_getBalance', [sinks[counters.ops % sinks.length], 'latest']),
    () => rpc(url, 'eth_getBlockByNumber', ['latest', true]),
    () => rpc(url, 'eth_feeHistory', ['0x40', 'latest', [10, 50, 90]]),
    () => rpc(url, 'eth_gasPrice'),
    // A bounded range: a whole-chain query costs more with every block, which would hide a leak's trend.
    async () => {
      const head = Number(await rpc(url, 'eth_blockNumber'))
      return rpc(url, 'eth_getLogs', [{ fromBlock: '0x' + Math.max(0, head - 128).toString(16), toBlock: 'latest' }])
    },
    () => rpc(url, 'eth_call', [{ to: sinks[0], data: '0x' }, 'latest']),
    () => rpc(url, 'eth_estimateGas', [{ from: ewoq.address, to: sinks[1], value: '0x1' }]),
    () => (recent.length === 0 ? Promise.resolve() : rpc(url, 'eth_getTransactionReceipt', [recent[counters.ops % recent.length]])),
    () => post(url, JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber' })))),
    () => post(`${base}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{}}'),
    () => post(url, '{"jsonrpc":"2.0","id":1,"method":"nope_' + (counters.ops % 1000) + '"}'),
    () => post(url, '{"jsonrpc":"2.0","id":1,'),
  ]
  const reader = async (k: number): Promise<void> => {
    let i = k
    while (running) {
      try {
        await reads[i++ % reads.length]!()
        counters.ops++
      } catch (err) {
        fail(err)
      }
      await sleep(5)
    }
  }

  // Filters that are never uninstalled (they expire after 5 min; at most 1000 are kept).
  const filterMaker = async (): Promise<void> => {
    let i = 0
    while (running) {
      try {
        await rpc(url, i % 3 === 0 ? 'eth_newBlockFilter' : i % 3 === 1 ? 'eth_newPendingTransactionFilter' : 'eth_newFilter', i % 3 === 2 ? [{ address: sinks[0] }] : [])
        counters.filters++
      } catch (err) {
        fail(err)
      }
      i++
      await sleep(100)
    }
  }

  // WebSocket subscribers that come and go; every other one drops the TCP connection abruptly.
  const subscriber = async (k: number): Promise<void> => {
    let i = 0
    while (running) {
      const abrupt = (i++ + k) % 2 === 0
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(wsUrl)
        let done = false
        const finish = (): void => {
          if (!done) {
            done = true
            resolve()
          }
        }
        ws.on('error', (err) => {
          if (running) fail(err)
          finish()
        })
        ws.on('close', finish)
        ws.on('message', () => {
          counters.ops++
        })
        ws.on('open', () => {
          counters.wsOpened++
          const subs = [['newHeads'], ['logs', {}], ['newPendingTransactions'], ['newPendingTransactions', true]]
          subs.forEach((p, j) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: j, method: 'eth_subscribe', params: p })))
          setTimeout(
            () => {
              if (abrupt) ws.terminate()
              else ws.close()
            },
            500 + Math.floor(Math.random() * 3000),
          )
        })
      })
      await sleep(100)
    }
  }

  const tasks = [...writers.map((w, k) => writer(w, k)), ...Array.from({ length: o.readers }, (_, k) => reader(k)), filterMaker(), ...Array.from({ length: 4 }, (_, k) => subscriber(k))].map((p) =>
    p.catch(fail),
  )

  // Sampling: heap every second (its minimum per period approximates the heap after GC), the rest at each period's end.
  const samples: Sample[] = []
  const total = Math.round((o.minutes * 60) / o.sampleSeconds)
  const header = 'minute   rss MiB  heap MiB  heap total  ext MiB  handles  fds   ops/s  txs/s  ws opened  filters  errors'
  process.stdout.write(header + '\n')
  let prev = { ...counters }
  for (let s = 1; s <= total; s++) {
    let minHeap = Infinity
    let minExternal = Infinity
    let metricsText = ''
    const end = Date.now() + o.sampleSeconds * 1000
    while (Date.now() < end) {
      try {
        metricsText = await getText(`${base}/ext/metrics`)
        const h = metric(metricsText, 'nodejs_heap_size_used_bytes')
        if (h !== undefined) minHeap = Math.min(minHeap, h)
        const x = metric(metricsText, 'nodejs_external_memory_bytes')
        if (x !== undefined) minExternal = Math.min(minExternal, x)
      } catch (err) {
        fail(err)
      }
      await sleep(1000)
    }
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    const fds = readdirSync(`/proc/${pid}/fd`).length
    const handles = metric(metricsText, 'nodejs_active_handles_total') ?? NaN
    const sample: Sample = {
      minute: +((s * o.sampleSeconds) / 60).toFixed(2),
      rssMiB: +(rssKb / 1024).toFixed(1),
      heapMiB: +(minHeap / MIB).toFixed(1),
      heapTotalMiB: +((metric(metricsText, 'nodejs_heap_size_total_bytes') ?? NaN) / MIB).toFixed(1),
      externalMiB: +(minExternal / MIB).toFixed(1),
      handles,
      fds,
      ops: Math.round((counters.ops - prev.ops) / o.sampleSeconds),
      txs: +((counters.txs - prev.txs) / o.sampleSeconds).toFixed(1),
      wsOpened: counters.wsOpened - prev.wsOpened,
      filters: counters.filters - prev.filters,
      errors: counters.errors - prev.errors,
    }
    prev = { ...counters }
    samples.push(sample)
    process.stdout.write(
      `${String(sample.minute).padStart(6)} ${String(sample.rssMiB).padStart(9)} ${String(sample.heapMiB).padStart(9)} ${String(sample.heapTotalMiB).padStart(11)} ${String(sample.externalMiB).padStart(8)} ${String(handles).padStart(8)} ${String(fds).padStart(4)} ${String(sample.ops).padStart(7)} ${String(sample.txs).padStart(6)} ${String(sample.wsOpened).padStart(10)} ${String(sample.filters).padStart(8)} ${String(sample.errors).padStart(7)}\n`,
    )
  }
  running = false
  await Promise.race([Promise.all(tasks), sleep(10_000)])

  // Verdict on the second half of the run: the first is warm-up (JIT; the trie node cache, block and
  // receipt caches and the 1000-filter cap filling up, all bounded). A figure is growing when its
  // fitted trend over that half adds more than 10 % (and more than a small floor).
  const steady = samples.length > 3 ? samples.slice(Math.floor(samples.length / 2)) : samples
  const verdict = (name: keyof Sample, floor: number): { name: string; first: number; last: number; trend: number; verdict: string } => {
    const ys = steady.map((x) => x[name] as number)
    const trend = slope(ys) * (ys.length - 1)
    const growing = trend > floor && trend > 0.1 * ys[0]!
    return { name, first: ys[0]!, last: ys.at(-1)!, trend: +trend.toFixed(1), verdict: growing ? 'growing' : 'flat' }
  }
  const verdicts = [verdict('rssMiB', 16), verdict('heapMiB', 8), verdict('externalMiB', 8), verdict('handles', 8), verdict('fds', 8)]
  process.stdout.write('\n')
  for (const v of verdicts)
    process.stdout.write(`${v.name.padEnd(11)} ${String(v.first).padStart(8)} -> ${String(v.last).padStart(8)}  trend ${v.trend >= 0 ? '+' : ''}${v.trend} over the second half: ${v.verdict}\n`)
  const overall = verdicts.some((v) => v.verdict === 'growing') ? 'GROWING' : 'FLAT'
  process.stdout.write(`verdict: ${overall} (${counters.txs} transfers, ${counters.wsOpened} WebSocket connections, ${counters.filters} filters, ${counters.errors} client errors)\n`)
  if (lastErrors.length > 0) process.stdout.write(`first errors: ${lastErrors.join(' | ')}\n`)
  if (o.json !== undefined) writeFileSync(o.json, JSON.stringify({ options: o, samples, verdicts, overall }, null, 2))

  node.proc.kill('SIGTERM')
  await new Promise((r) => node.proc.once('exit', r))
  rmSync(dataDir, { recursive: true, force: true })
  agent.destroy()
  process.exit(overall === 'FLAT' ? 0 : 1)
}

function getText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        text += c
      })
      res.on('end', () => resolve(text))
    })
      .on('error', reject)
      .end()
  })
}

main().catch((err: unknown) => {
  process.stderr.write(`soak failed: ${(err as Error).stack ?? String(err)}\n`)
  process.exit(2)
})

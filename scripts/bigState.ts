/**
 * A big state within the memory budget (docs/PERFORMANCE.md, "Memory"): starts the node as
 * `npm start` would, with the chain config's `snapshot-cache` and `trie-clean-cache` set, loads
 * `--accounts` accounts (a balance each, every tenth with two storage slots) with anvil_loadState in
 * chunks, then reads back random ones (cold reads from LevelDB past the budget), sends transfers to
 * them, restarts the node on the same data and reads again. Prints the node's resident memory along
 * the way and every figure at the end; checks every balance read.
 *
 *   npm run build && node dist/scripts/bigState.js [--accounts 1000000] [--chunk 25000]
 *                                                  [--snapshot-cache 64] [--trie-clean-cache 64]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Wallet, keccak256, toUtf8Bytes } from 'ethers'
import { cpuUsOf, freePort } from './proc.js'

const args = process.argv.slice(2)
const value = (flag: string, fallback: string) => {
  const i = args.indexOf(flag)
  return i === -1 ? fallback : args[i + 1]!
}
const ACCOUNTS = Number(value('--accounts', '1000000'))
const CHUNK = Number(value('--chunk', '25000'))
const SNAPSHOT_CACHE = Number(value('--snapshot-cache', '64'))
const TRIE_CACHE = Number(value('--trie-clean-cache', '64'))
const READS = 5_000
const SENDS = 500
const ROOT = resolve(import.meta.dirname, '..', '..')
const ewoq = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')

/** The i-th loaded account: an address from a fixed seed, its balance and (every tenth) two slots. */
function account(i: number): { address: string; balance: bigint; slots: boolean } {
  return { address: `0x${keccak256(toUtf8Bytes(`big state ${i}`)).slice(26)}`, balance: BigInt(i + 1) * 1_000_000_007n, slots: i % 10 === 0 }
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

interface Node {
  proc: ChildProcess
  url: string
  pid: number
}

async function start(dataDir: string, configFile: string): Promise<Node> {
  const port = await freePort()
  const proc = spawn(process.execPath, [join(ROOT, 'dist/src/main.js'), '--http-port', String(port), '--data-dir', dataDir, '--chain-config-file', configFile, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`
  for (let i = 0; i < 600; i++) {
    try {
      await rpc(url, 'eth_blockNumber')
      return { proc, url, pid: proc.pid! }
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  proc.kill('SIGKILL')
  throw new Error('the node did not start')
}

async function stop(node: Node): Promise<void> {
  const exited = new Promise((r) => node.proc.once('exit', r))
  node.proc.kill('SIGTERM')
  await exited
}

let id = 0
async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

async function readRandom(node: Node, n: number): Promise<number> {
  const t0 = performance.now()
  for (let k = 0; k < n; k++) {
    const a = account(Math.floor(Math.random() * ACCOUNTS))
    const got = BigInt(await rpc(node.url, 'eth_getBalance', [a.address, 'latest']))
    // A transfer of a few wei may have reached it (sends below).
    if (got < a.balance || got > a.balance + 1000n) throw new Error(`balance of ${a.address}: ${got}, loaded ${a.balance}`)
  }
  return ((performance.now() - t0) * 1000) / n
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'big-state-'))
  const configFile = join(dataDir, 'chain.json')
  writeFileSync(configFile, JSON.stringify({ 'snapshot-cache': SNAPSHOT_CACHE, 'trie-clean-cache': TRIE_CACHE }))
  let node = await start(join(dataDir, 'node'), configFile)
  const report: string[] = []
  try {
    const t0 = performance.now()
    let peak = 0
    for (let from = 0; from < ACCOUNTS; from += CHUNK) {
      const accounts: Record<string, unknown> = {}
      for (let i = from; i < Math.min(ACCOUNTS, from + CHUNK); i++) {
        const a = account(i)
        accounts[a.address] = { nonce: 0, balance: `0x${a.balance.toString(16)}`, code: '0x', storage: a.slots ? { '0x1': '0x2a', '0x2': `0x${i.toString(16)}` } : {} }
      }
      await rpc(node.url, 'anvil_loadState', [`0x${gzipSync(JSON.stringify({ accounts })).toString('hex')}`])
      peak = Math.max(peak, rssMiB(node.pid))
      if ((from / CHUNK) % 4 === 3 || from + CHUNK >= ACCOUNTS) console.error(`${Math.min(ACCOUNTS, from + CHUNK)} accounts loaded, RSS ${rssMiB(node.pid).toFixed(0)} MiB`)
    }
    report.push(`loaded ${ACCOUNTS} accounts in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS peak while loading ${peak.toFixed(0)} MiB, after ${rssMiB(node.pid).toFixed(0)} MiB`)
    report.push(`eth_getBalance of a random loaded account: ${(await readRandom(node, READS)).toFixed(0)} µs per read (round trip), RSS ${rssMiB(node.pid).toFixed(0)} MiB`)
    const chainId = BigInt(await rpc(node.url, 'eth_chainId'))
    let nonce = Number(await rpc(node.url, 'eth_getTransactionCount', [ewoq.address, 'pending']))
    const cpu0 = cpuUsOf(node.pid)
    const t1 = performance.now()
    for (let k = 0; k < SENDS; k++) {
      const to = account(Math.floor(Math.random() * ACCOUNTS)).address
      const raw = await ewoq.signTransaction({ type: 2, chainId, nonce: nonce++, to, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
      await rpc(node.url, 'eth_sendRawTransaction', [raw])
    }
    report.push(
      `${SENDS} transfers to random loaded accounts, one at a time: ${((performance.now() - t1) / SENDS).toFixed(2)} ms each, node CPU ${((cpuUsOf(node.pid) - cpu0) / SENDS / 1000).toFixed(2)} ms; RSS ${rssMiB(node.pid).toFixed(0)} MiB`,
    )
    await stop(node)
    const t2 = performance.now()
    node = await start(join(dataDir, 'node'), configFile)
    report.push(`restart on the same data: ${(performance.now() - t2).toFixed(0)} ms to the first answer`)
    report.push(`after the restart: ${(await readRandom(node, READS)).toFixed(0)} µs per read, RSS ${rssMiB(node.pid).toFixed(0)} MiB`)
  } finally {
    await stop(node)
    rmSync(dataDir, { recursive: true, force: true })
  }
  console.log(`snapshot-cache ${SNAPSHOT_CACHE} MiB, trie-clean-cache ${TRIE_CACHE} MiB:`)
  for (const line of report) console.log(`- ${line}`)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})

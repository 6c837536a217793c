import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HDNodeWallet, Mnemonic } from 'ethers'
import { freePort } from '../proc.js'

/** The node a suite runs against: `cchain` (this repository's build), `hardhat` (the project's own `hardhat node`) or `anvil`. */
export type TargetName = 'cchain' | 'hardhat' | 'anvil'
export const TARGETS: readonly TargetName[] = ['cchain', 'hardhat', 'anvil']

/** A started node: its JSON-RPC URL, its process (for its CPU time), and how to stop it. */
export interface RunningTarget {
  url: string
  pid: number
  stop(): Promise<void>
}

/** What starting a target needs: this repository's root, the project's checkout, where logs go, anvil's extra flags. */
export interface TargetEnv {
  root: string
  checkout: string
  logFile: string
  anvilArgs: string[]
}

/** Hardhat's and anvil's test mnemonic: `hardhat node` and `anvil` fund its first accounts; the suite's network signs with 20 of them. */
const MNEMONIC = 'test test test test test test test test test test test junk'
const ACCOUNTS = 20
/** 10,000 of the native coin each, as `hardhat node` and `anvil` give. */
const BALANCE = `0x${(10_000n * 10n ** 18n).toString(16)}`
const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 10_000

/** Starts a target on a free loopback port and waits until it answers eth_chainId. */
export async function startTarget(name: TargetName, env: TargetEnv): Promise<RunningTarget> {
  const port = await freePort()
  const log = createWriteStream(env.logFile)
  let child: ChildProcess
  let url: string
  let dataDir: string | undefined
  if (name === 'cchain') {
    dataDir = mkdtempSync(join(tmpdir(), 'suite-cchain-'))
    child = spawn(process.execPath, [join(env.root, 'dist/src/main.js'), '--http-port', String(port), '--data-dir', dataDir, '--log-level', 'warn'], { detached: true })
    url = `http://127.0.0.1:${port}/ext/bc/C/rpc`
  } else if (name === 'hardhat') {
    // The project's own `hardhat node`, with its own Hardhat network config (hardfork, code size, precompiles).
    child = spawn(process.execPath, [join(env.checkout, 'node_modules/hardhat/internal/cli/cli.js'), 'node', '--port', String(port)], { cwd: env.checkout, detached: true })
    url = `http://127.0.0.1:${port}`
  } else {
    const anvil = join(env.root, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
    child = spawn(anvil, ['--port', String(port), '--accounts', String(ACCOUNTS), '--silent', ...env.anvilArgs], { detached: true })
    url = `http://127.0.0.1:${port}`
  }
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    // The whole process group, by its PID: npx and hardhat's CLI start children of their own.
    signal(child, 'SIGTERM')
    const killed = setTimeout(() => signal(child, 'SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(killed)
    log.end()
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitForChainId(url, child)
    if (name === 'cchain') await fundAccounts(url)
    // Each peer in its quietest mode, as the benchmark harness runs them (hardhat node logs every request otherwise).
    if (name === 'hardhat') await rpc(url, 'hardhat_setLoggingEnabled', [false])
  } catch (err) {
    await stop()
    throw err
  }
  return { url, pid: child.pid!, stop }
}

/** The test mnemonic's first accounts, as the suite's network config derives them. */
export function testAccounts(): string[] {
  const phrase = Mnemonic.fromPhrase(MNEMONIC)
  return Array.from({ length: ACCOUNTS }, (_, i) => HDNodeWallet.fromMnemonic(phrase, `m/44'/60'/0'/0/${i}`).address)
}

/** cchain-node funds only ewoq at genesis: give the test accounts what `hardhat node` gives them. */
async function fundAccounts(url: string): Promise<void> {
  for (const address of testAccounts()) await rpc(url, 'hardhat_setBalance', [address, BALANCE])
}

/** One JSON-RPC call; throws on an error answer. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

async function waitForChainId(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the node exited with code ${child.exitCode} before answering (see its log)`)
    try {
      await rpc(url, 'eth_chainId')
      return
    } catch {
      if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${START_TIMEOUT_MS / 1000} s`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return
  try {
    process.kill(-child.pid, sig)
  } catch {
    // Already gone.
  }
}

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { poll } from './chain.js'

/** Foundry's anvil from the npm package @foundry-rs/anvil-linux-amd64 (installed by test/tools, a devDependency; same version as cast). */
export const ANVIL = join(process.cwd(), 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')

/** anvil's first dev account (its default mnemonic), funded with 10,000 ETH there. */
export const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

export interface Anvil {
  /** http://127.0.0.1:<the port anvil printed> */
  readonly url: string
  readonly pid: number
  readonly proc: ChildProcess
  /** Ends this anvil (a signal to its PID) and waits for it to exit. */
  stop(): Promise<void>
}

export interface AnvilOptions {
  /** --chain-id (anvil's default: 31337) */
  chainId?: number
  /** more of anvil's arguments */
  args?: string[]
}

/** Starts anvil on 127.0.0.1 with a port of its choosing (port 0, read from its listening line); stopped by its PID only. A missing binary throws. */
export async function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  if (!existsSync(ANVIL)) throw new Error(`${ANVIL} is missing: run npm ci (the package @foundry-rs/anvil-linux-amd64)`)
  const args = ['--host', '127.0.0.1', '--port', '0', ...(opts.chainId === undefined ? [] : ['--chain-id', String(opts.chainId)]), ...(opts.args ?? [])]
  const proc = spawn(ANVIL, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  if (proc.pid === undefined) throw new Error(`${ANVIL} did not start`)
  const pid = proc.pid
  let out = ''
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  proc.stderr!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const exited = (): boolean => proc.exitCode !== null || proc.signalCode !== null
  const stop = async (): Promise<void> => {
    if (exited()) return
    const gone = new Promise((resolve) => proc.once('exit', resolve))
    process.kill(pid)
    await gone
  }
  const port = await poll(
    async () => {
      if (exited()) throw new Error(`anvil exited with ${proc.exitCode ?? proc.signalCode}: ${out}`)
      return /Listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1]
    },
    "anvil's listening line",
    15_000,
  ).catch(async (err: unknown) => {
    await stop()
    throw err
  })
  return { url: `http://127.0.0.1:${port}`, pid, proc, stop }
}

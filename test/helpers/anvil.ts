import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { poll } from './chain.js'

/** Foundry's anvil from the npm package @foundry-rs/anvil-linux-amd64 (a devDependency, same version as cast). */
export const ANVIL = join(process.cwd(), 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')

/** anvil's first dev account (its default mnemonic), funded with 10,000 ETH there. */
export const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

export interface Anvil {
  readonly url: string
  readonly proc: ChildProcess
  stop(): Promise<void>
}

/** Starts anvil on 127.0.0.1 with a port of its choosing; stopped by its PID only. A missing binary throws. */
export async function startAnvil(args: string[] = []): Promise<Anvil> {
  if (!existsSync(ANVIL)) throw new Error(`${ANVIL} is missing: run npm ci (the package @foundry-rs/anvil-linux-amd64)`)
  const proc = spawn(ANVIL, ['--host', '127.0.0.1', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  proc.stderr!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const port = await poll(
    async () => {
      if (proc.exitCode !== null) throw new Error(`anvil exited with ${proc.exitCode}: ${out}`)
      return /Listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1]
    },
    "anvil's listening line",
    15_000,
  )
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    async stop() {
      if (proc.exitCode !== null) return
      const exited = new Promise((resolve) => proc.once('exit', resolve))
      proc.kill()
      await exited
    },
  }
}

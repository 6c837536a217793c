import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { poll } from './chain.js'

/*
 * The real CLI (dist/src/main.js) as a child process, for tests that kill it (kill -9) and start
 * it again on the same data directory. `npm test` builds dist/ in `pretest`.
 */

export const MAIN = join(process.cwd(), 'dist/src/main.js')

export interface ChildNode {
  readonly proc: ChildProcess
  /** http://127.0.0.1:<port>/ext/bc/C/rpc, read from the start banner. */
  readonly url: string
  /** The start banner (one write: every chain's lines are in it). */
  readonly banner: string
}

/** Throws a clear error when dist/ has not been built. */
export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` (npm test does it in pretest)`)
}

/** Starts dist/src/main.js on port 0 and reads the URL from its start banner. */
export async function startChild(dataDir: string, extraArgs: string[] = []): Promise<ChildNode> {
  const proc = spawn(process.execPath, [MAIN, '--http-port', '0', '--data-dir', dataDir, '--log-level', 'error', '--avalanche-cli-dir', join(dataDir, 'no-avalanche-cli'), ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return { proc, ...(await readStart(proc)) }
}

/** Waits up to `timeoutMs` for the start banner on a node process's stdout; fails if the process exits first. */
export async function readStart(proc: ChildProcess, timeoutMs = 60_000): Promise<Omit<ChildNode, 'proc'>> {
  let out = ''
  let err = ''
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
  })
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const url = await poll(
    async () => {
      if (proc.exitCode !== null) throw new Error(`node exited with ${proc.exitCode}: ${err}`)
      return /JSON-RPC\s+(http:\/\/127\.0\.0\.1:\d+\/ext\/bc\/C\/rpc)/.exec(out)?.[1]
    },
    'the node start line',
    timeoutMs,
  )
  return { url, banner: out }
}

/** One JSON-RPC call to `url`; resolves to the result, throws on an error answer. */
export async function rpcAt(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

/** A batch of calls to `url`; resolves to the results in order, throws on any error answer. */
export async function batchAt(url: string, calls: [string, unknown[]][]): Promise<any[]> {
  if (calls.length === 0) return []
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))) })
  const body = (await res.json()) as { id: number; result?: unknown; error?: { message: string } }[]
  return body
    .sort((a, b) => a.id - b.id)
    .map((r) => {
      if (r.error) throw new Error(r.error.message)
      return r.result
    })
}

/** Resolves once the process has exited (at once if it already has). */
export function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((r) => proc.once('exit', () => r()))
}

/** SIGTERM and wait, unless it has exited already. */
export async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode === null && proc.signalCode === null) {
    proc.kill('SIGTERM')
    await exited(proc)
  }
}

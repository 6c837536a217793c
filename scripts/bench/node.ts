/** The bench's child node: spawned on a free port and a temp data dir, its cold start, stopped by its PID. */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { cpuUsOf, freePort } from '../proc.js'
import { sleep } from './types.js'

const STARTUP_TIMEOUT_MS = 30_000

let stopping = false

export interface NodeProc {
  child: ChildProcess
  url: string
  host: string
  port: number
  stderr: string[]
  /** Undefined when eth_chainId never answered at 127.0.0.1 (another --http-host). */
  coldStart: Promise<ColdStart | undefined>
}

/** Spawn to the first answer of eth_chainId, polled every 10 ms (as the peer harness's launcher does), and the node's CPU by then. */
export interface ColdStart {
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
export async function startNode(dataDir: string, extra: string[], nodeOptions: string[]): Promise<NodeProc> {
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
export async function stopNode(child: ChildProcess): Promise<void> {
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

export function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

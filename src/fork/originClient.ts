import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import { OriginHttpError, OriginRpcError, OriginUnreachableError } from './errors.js'

export interface OriginClientOptions {
  /** The origin's JSON-RPC URL (http or https). */
  url: string
  log: Logger
  /** HTTP requests in flight at once (a public endpoint throttles beyond a few). */
  concurrency?: number
  /** Calls sent together in one JSON-RPC batch. */
  maxBatch?: number
  /** Attempts per HTTP request when the network fails, times out or the origin answers 429/5xx. */
  attempts?: number
  /** ms one HTTP request may take. */
  timeoutMs?: number
}

interface Pending {
  method: string
  params: unknown[]
  resolve: (value: unknown) => void
  reject: (err: Error) => void
}

interface RpcReply {
  id?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown; data?: unknown }
}

/**
 * JSON-RPC to a fork's origin: calls made in the same tick go together as one batch, at most
 * `concurrency` HTTP requests are in flight, and a failed request is retried with a doubling
 * pause. A JSON-RPC error is the origin's answer (never retried); an origin that stays unreachable
 * is an OriginUnreachableError naming it. The URL may hold an API key, so only its scheme, host
 * and port name it in errors and logs (`name`).
 */
export class OriginClient {
  /** scheme://host[:port] of the origin. */
  readonly name: string
  private readonly queue: Pending[] = []
  private inFlight = 0
  private scheduled = false
  private batchesRefused = false
  private readonly concurrency: number
  private readonly maxBatch: number
  private readonly attempts: number
  private readonly timeoutMs: number

  constructor(private readonly opts: OriginClientOptions) {
    const url = new URL(opts.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`fork URL ${url.protocol}// is not http or https`)
    this.name = url.origin
    this.concurrency = opts.concurrency ?? 4
    this.maxBatch = opts.maxBatch ?? 50
    this.attempts = opts.attempts ?? 4
    this.timeoutMs = opts.timeoutMs ?? 30_000
  }

  /** One JSON-RPC call's result. */
  call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ method, params, resolve: resolve as (v: unknown) => void, reject })
      if (!this.scheduled) {
        this.scheduled = true
        queueMicrotask(() => {
          this.scheduled = false
          this.pump()
        })
      }
    })
  }

  /**
   * A client of another endpoint of the same origin (same options): `path` maps this URL's path to
   * the other's, undefined when there is none. The query stays (it may hold the API key).
   */
  sibling(path: (pathname: string) => string | undefined, opts: Pick<OriginClientOptions, 'maxBatch'> = {}): OriginClient | undefined {
    const url = new URL(this.opts.url)
    const other = path(url.pathname)
    if (other === undefined) return undefined
    url.pathname = other
    return new OriginClient({ ...this.opts, ...opts, url: url.toString() })
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.concurrency) {
      const batch = this.queue.splice(0, this.batchesRefused ? 1 : this.maxBatch)
      this.inFlight++
      this.send(batch)
        .catch((err: Error) => {
          for (const p of batch) p.reject(err)
        })
        .finally(() => {
          this.inFlight--
          this.pump()
        })
    }
  }

  private async send(batch: Pending[]): Promise<void> {
    const body = batch.length === 1 ? request(batch[0]!, 0) : batch.map(request)
    const reply = await this.post(body)
    const replies = Array.isArray(reply) ? (reply as RpcReply[]) : [reply as RpcReply]
    if (batch.length > 1 && !Array.isArray(reply)) {
      // An origin that refuses batches (some providers do): send each call alone from now on.
      this.batchesRefused = true
      this.opts.log.warn({ origin: this.name }, 'fork origin refused a JSON-RPC batch; sending calls one by one')
      this.queue.unshift(...batch)
      return
    }
    const byId = new Map(replies.map((r) => [r.id, r]))
    for (const [i, p] of batch.entries()) {
      const r = byId.get(i)
      if (r === undefined) p.reject(new OriginUnreachableError(`fork origin ${this.name} answered no reply to ${p.method}`))
      else if (r.error !== undefined && r.error !== null) {
        const code = typeof r.error.code === 'number' ? r.error.code : -32603
        const message = typeof r.error.message === 'string' ? r.error.message : JSON.stringify(r.error)
        p.reject(new OriginRpcError(this.name, code, message, r.error.data))
      } else p.resolve(r.result)
    }
  }

  /** POSTs a body and parses the JSON answer, retrying what may pass on a second try. */
  private async post(body: unknown): Promise<unknown> {
    const text = JSON.stringify(body)
    let last = ''
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      if (attempt > 0) await sleep(250 * 2 ** (attempt - 1))
      let res: Response
      try {
        res = await fetch(this.opts.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(this.timeoutMs) })
      } catch (err) {
        last = describeFetchError(err)
        this.opts.log.debug({ origin: this.name, attempt, err: last }, 'fork origin request failed')
        continue
      }
      if (res.status === 429 || res.status >= 500) {
        last = `HTTP ${res.status}`
        await res.body?.cancel()
        continue
      }
      const answer = await res.text()
      if (!res.ok) {
        // A common slip: an Avalanche node's base URL, whose C-Chain is at /ext/bc/C/rpc.
        const hint = res.status === 404 && new URL(this.opts.url).pathname === '/' ? ' (an Avalanche node serves the C-Chain at /ext/bc/C/rpc)' : ''
        throw new OriginHttpError(res.status, `fork origin ${this.name} answered HTTP ${res.status}${hint}: ${answer.slice(0, 120)}`)
      }
      try {
        return JSON.parse(answer)
      } catch {
        throw new OriginUnreachableError(`fork origin ${this.name} answered HTTP ${res.status} that is not JSON-RPC: ${answer.slice(0, 120)}`)
      }
    }
    throw new OriginUnreachableError(`fork origin ${this.name} is unreachable: ${last} (after ${this.attempts} attempts)`)
  }
}

function request(p: Pending, id: number): unknown {
  return { jsonrpc: '2.0', id, method: p.method, params: p.params }
}

function describeFetchError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } }
  if (e.name === 'TimeoutError') return 'timed out'
  return e.cause?.code ?? e.cause?.message ?? e.message
}

import type { EventEmitter } from 'node:events'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { Dispatcher, type DispatcherOptions } from '../rpc/dispatch.js'
import type { MethodTable } from '../rpc/types.js'
import { createHostCheck } from '../server/hostCheck.js'

const ignore = (): void => {}

/** What serves once the node is built: Fastify's request handler and server, and the chain's full dispatcher. */
export interface Takeover {
  /** Fastify's `routing`: what its own server would call for each request. */
  readonly routing: (req: IncomingMessage, res: ServerResponse) => void
  /** Fastify's (never listening) server: 'upgrade' and 'clientError' are re-emitted on it, where @fastify/websocket and Fastify listen. */
  readonly server: EventEmitter
  /** The chain's dispatcher, for a request whose body was read here before the takeover. */
  readonly rpc: Pick<Dispatcher, 'handle'>
}

export interface EarlyListenerOptions {
  readonly host: string
  readonly port: number
  /** The same timeouts and socket cap Fastify is given (src/server/server.ts; docs/SECURITY.md, L9, L10, L12). */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number; readonly keepAliveTimeoutMs: number; readonly maxConnections: number }
  readonly bodyLimit: number
  readonly allowedHosts: readonly string[]
  /** The path keys (`C`, its ID, its aliases) of the chain whose `early` methods are answered before the takeover. */
  readonly chainKeys: readonly string[]
  /** The chain's methods that need no engine (`eth_chainId`), served with the chain's dispatcher options. */
  readonly early: { readonly table: MethodTable; readonly options: DispatcherOptions }
  readonly log: Logger
}

/**
 * The node's HTTP listener from the moment its database is open: it answers the methods that need
 * nothing but the genesis (`eth_chainId`) at once and holds every other request, upgrade and client
 * error until the engine, the APIs and Fastify are built, then hands them over in arrival order and
 * passes everything on from then (docs/PERFORMANCE.md, "Start-up"). A held request waits; it never
 * gets an error or an answer the running node would not give.
 */
export class EarlyListener {
  private readonly server: Server
  private takeover: Takeover | undefined
  private readonly held: (() => void)[] = []
  private readonly waiting: ((t: Takeover) => void)[] = []
  private readonly paths: Set<string>
  private readonly earlyMethods: Set<string>
  private readonly early: Dispatcher
  private readonly hostAllowed: (host: string | undefined) => boolean

  private constructor(private readonly opts: EarlyListenerOptions) {
    this.paths = new Set(opts.chainKeys.map((k) => `/ext/bc/${k}/rpc`))
    this.earlyMethods = new Set(Object.keys(opts.early.table))
    this.early = new Dispatcher(opts.early.table, opts.early.options)
    this.hostAllowed = createHostCheck(opts.allowedHosts)
    // As Fastify sets up its own server (fastify: lib/server.js getServerInstance; src/server/server.ts).
    const server = createServer({ connectionsCheckingInterval: 1000 })
    server.keepAliveTimeout = opts.http.keepAliveTimeoutMs
    server.requestTimeout = opts.http.requestTimeoutMs
    server.headersTimeout = opts.http.headersTimeoutMs
    server.maxConnections = opts.http.maxConnections
    server.setTimeout(0)
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res))
    server.on('upgrade', (...args: unknown[]) => this.forward('upgrade', args))
    server.on('clientError', (...args: unknown[]) => this.forward('clientError', args))
    this.server = server
  }

  /** Listens on the node's host and port (a taken port rejects, as Fastify's listen does). */
  static async listen(opts: EarlyListenerOptions): Promise<EarlyListener> {
    const listener = new EarlyListener(opts)
    await new Promise<void>((resolve, reject) => {
      listener.server.once('error', reject)
      listener.server.listen({ host: opts.host, port: opts.port }, () => {
        listener.server.off('error', reject)
        resolve()
      })
    })
    return listener
  }

  address(): { host: string; port: number } {
    const addr = this.server.address() as AddressInfo
    return { host: addr.address, port: addr.port }
  }

  /** From now on Fastify serves: the held requests first, in arrival order. */
  takeOver(takeover: Takeover): void {
    this.takeover = takeover
    for (const run of this.held.splice(0)) run()
    for (const resolve of this.waiting.splice(0)) resolve(takeover)
  }

  /** Stops listening; connections still open are closed once their answers are written. */
  async close(): Promise<void> {
    if (this.takeover === undefined) this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private forward(event: 'upgrade' | 'clientError', args: unknown[]): void {
    if (this.takeover !== undefined) {
      this.takeover.server.emit(event, ...args)
      return
    }
    // Node drops its socket error listener before 'upgrade'; one here keeps a reset while held from crashing the process.
    const socket = event === 'upgrade' ? (args[1] as Duplex) : undefined
    socket?.on('error', ignore)
    this.held.push(() => {
      socket?.off('error', ignore)
      this.takeover!.server.emit(event, ...args)
    })
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (this.takeover !== undefined) {
      this.takeover.routing(req, res)
      return
    }
    if (!this.answerable(req)) {
      this.held.push(() => this.takeover!.routing(req, res))
      return
    }
    // A plain JSON-RPC POST to the chain: read here, answered by the early dispatcher when every call is one of its methods.
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      const rpc = this.takeover?.rpc ?? (this.onlyEarlyMethods(body) ? this.early : undefined)
      if (rpc !== undefined) this.reply(rpc, body, res)
      else this.waiting.push((t) => this.reply(t.rpc, body, res))
    })
  }

  /**
   * A request src/server/server.ts would hand straight to the chain's dispatcher: POST to the chain's
   * rpc path as written, an allowed Host, no Origin (no CORS to add), no upgrade, `application/json`,
   * a Content-Length within the body limit and no transfer or content encoding. Anything else waits for Fastify.
   */
  private answerable(req: IncomingMessage): boolean {
    const h = req.headers
    if (req.method !== 'POST' || !this.paths.has(req.url ?? '')) return false
    if (h.origin !== undefined || h.upgrade !== undefined || h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return false
    if (h['content-type'] !== 'application/json' || !this.hostAllowed(h.host)) return false
    const length = h['content-length']
    return length !== undefined && /^[1-9][0-9]{0,9}$/.test(length) && Number(length) <= this.opts.bodyLimit
  }

  /** Whether the body is a call, or a non-empty batch of calls, of the early dispatcher's methods only. */
  private onlyEarlyMethods(body: string): boolean {
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return false
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    return calls.length > 0 && calls.every((c) => typeof c === 'object' && c !== null && this.earlyMethods.has((c as { method?: unknown }).method as string))
  }

  /** As the chain route of src/server/server.ts answers (Fastify adds the charset to a JSON text): 200 with the dispatcher's text, empty for notifications. */
  private reply(rpc: Pick<Dispatcher, 'handle'>, body: string, res: ServerResponse): void {
    rpc.handle(body).then(
      (out) => {
        const text = out ?? ''
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text)
      },
      (err: unknown) => {
        this.opts.log.error({ err }, 'dispatcher failed')
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 15 }).end('internal error\n')
      },
    )
  }
}

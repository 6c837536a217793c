import type { EventEmitter } from 'node:events'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { type Answer, Dispatcher, type DispatcherOptions } from '../rpc/dispatch.js'
import type { MethodTable } from '../rpc/types.js'
import { createCors } from '../server/cors.js'
import { createHostCheck } from '../server/hostCheck.js'
import { createRpcFastPath, type RpcFastPathOptions } from '../server/rpcFastPath.js'
import { attachRpcSockets } from '../server/rpcSockets.js'

const ignore = (): void => {}

/** What serves once the node is built: the server Fastify runs on (never listening itself) and the chain's full dispatcher. */
export interface Takeover {
  /** Fastify's server (src/server/server.ts): 'request', 'upgrade' and 'clientError' are re-emitted on it, as if it had taken them. */
  readonly server: EventEmitter
  /** The chain's dispatcher, for a request whose body was read here before the takeover. */
  readonly rpc: Pick<Dispatcher, 'respond'>
  /** How Fastify's server serves the fast path (src/server/server.ts rpcPath); without it node:http reads every request after the takeover. */
  readonly rpcPath?: RpcFastPathOptions
}

export interface EarlyListenerOptions {
  readonly host: string
  readonly port: number
  /** The same timeouts and socket cap Fastify is given (src/server/server.ts; docs/SECURITY.md, L9, L10, L12). */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number; readonly keepAliveTimeoutMs: number; readonly maxConnections: number }
  readonly bodyLimit: number
  readonly allowedHosts: readonly string[]
  readonly allowedOrigins: readonly string[]
  /** The path keys (`C`, its ID, its aliases) of the chain whose `early` methods are answered before the takeover. */
  readonly chainKeys: readonly string[]
  /** Those of its keys also served at /ext/<key>/rpc (`C`, `evm`). */
  readonly roots?: readonly string[]
  /** The chain's methods that need no engine (`eth_chainId`), served with the chain's dispatcher options. */
  readonly early: { readonly table: MethodTable; readonly options: DispatcherOptions }
  readonly log: Logger
}

/**
 * The node's HTTP listener from the moment its database is open: it answers the methods that need
 * nothing but the genesis (`eth_chainId`) at once and holds every other request, upgrade and client
 * error until the engine, the APIs and Fastify are built, then hands them over in arrival order and
 * passes everything on from then (docs/PERFORMANCE.md, "Start-up"). A held request waits; it never
 * gets an error or an answer the running node would not give. A plain JSON-RPC POST to the chain is
 * read by the server's own fast path (src/server/rpcFastPath.ts), so its answer has the same bytes and
 * headers before and after the takeover.
 */
export class EarlyListener {
  private readonly server: Server
  private takeover: Takeover | undefined
  private readonly held: (() => void)[] = []
  private readonly waiting: ((t: Takeover) => void)[] = []
  private readonly earlyMethods: Set<string>
  private readonly early: Dispatcher
  private readonly fastPath: (req: IncomingMessage, res: ServerResponse) => boolean

  private constructor(opts: EarlyListenerOptions) {
    this.earlyMethods = new Set(Object.keys(opts.early.table))
    this.early = new Dispatcher(opts.early.table, opts.early.options)
    const chains = new Set(opts.chainKeys)
    const responder = { respond: (body: string) => this.respond(body) }
    const rpcPath: RpcFastPathOptions = {
      dispatcher: (chain) => (chains.has(chain) ? responder : undefined),
      bodyLimit: opts.bodyLimit,
      log: opts.log,
      hostAllowed: createHostCheck(opts.allowedHosts),
      cors: createCors(opts.allowedOrigins),
      roots: new Set(opts.roots),
      closing: () => false,
    }
    this.fastPath = createRpcFastPath(rpcPath)
    // As src/server/server.ts sets up the server Fastify runs on.
    const server = createServer({ connectionsCheckingInterval: 1000 })
    server.keepAliveTimeout = opts.http.keepAliveTimeoutMs
    server.requestTimeout = opts.http.requestTimeoutMs
    server.headersTimeout = opts.http.headersTimeoutMs
    server.maxConnections = opts.http.maxConnections
    server.setTimeout(0)
    attachRpcSockets(server, () => (this.takeover === undefined ? rpcPath : this.takeover.rpcPath))
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.takeover !== undefined || !this.fastPath(req, res)) this.forward('request', [req, res])
    })
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

  /** From now on Fastify's server serves: the held requests first, in arrival order. */
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

  /** A body read by the fast path: the early dispatcher's when every call is one of its methods, else the chain's once it runs. */
  private respond(body: string): Answer {
    if (this.takeover !== undefined) return this.takeover.rpc.respond(body)
    if (this.onlyEarlyMethods(body)) return this.early.respond(body)
    return new Promise((resolve) => this.waiting.push((t) => resolve(t.rpc.respond(body))))
  }

  private forward(event: 'request' | 'upgrade' | 'clientError', args: unknown[]): void {
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
}

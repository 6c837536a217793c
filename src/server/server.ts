import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import type { Logger } from 'pino'
import type { Dispatcher } from '../rpc/dispatch.js'
import type { GorillaDispatcher } from '../rpc/gorilla.js'
import type { HealthKind, HealthReply } from '../healthReporter.js'
import { createHostCheck, createOriginCheck } from './hostCheck.js'
import { serveWsConnection } from './wsConnection.js'
import { createRpcFastPath } from './rpcFastPath.js'
import { gethTransportHook, readRawBody } from './gethHttp.js'

/** HTTP body and WS message limit (docs/SECURITY.md, L1, W1; geth/coreth 5 MiB). */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024
/** Concurrent WebSocket connections (docs/SECURITY.md, L12); chain config `ws-max-connections`. */
export const MAX_WS_CONNECTIONS = 256
/** Per-connection send queue before a slow consumer is dropped (docs/SECURITY.md, W5); chain config `ws-max-buffered-bytes`. */
export const MAX_WS_BUFFERED = 16 * 1024 * 1024
/** Messages handed to a socket and not yet flushed to it before a slow consumer is dropped (docs/SECURITY.md, W5). */
export const MAX_WS_PENDING_MESSAGES = 10_000
/** Ping interval; a connection without a pong by the next tick is terminated (docs/SECURITY.md, W7). */
export const WS_PING_INTERVAL_MS = 30_000

const JSON_RPC_TYPES = ['application/json', 'application/json-rpc', 'application/jsonrequest']
const JSON_CT = 'application/json'
const TEXT_CT = 'text/plain; charset=utf-8'

/**
 * What /ext/bc/<chain>/rpc, /ws and /admin serve for one chain. `admin` only when the admin API is
 * enabled: otherwise its path is not registered at all (docs/SECURITY.md, N7). `unavailable`: the chain
 * failed to start, and its paths answer 503 with this text.
 */
export type ChainRoute = { rpc: Dispatcher; admin?: GorillaDispatcher; unavailable?: undefined } | { unavailable: string; rpc?: undefined; admin?: undefined }

export interface ServerOptions {
  host: string
  port: number
  bodyLimit?: number
  log: Logger
  /** Every EVM chain keyed by blockchain ID (CB58) and by each alias ('C', ...), several keys per chain. */
  chains: Map<string, ChainRoute>
  /** avalanchego's node APIs (gorilla JSON-RPC: gorilla/rpc v1.2.0, avalanchego: utils/json/codec.go) and the Prometheus endpoint. */
  node?: {
    info?: GorillaDispatcher
    health?: { rpc: GorillaDispatcher; report(kind: HealthKind, tags: readonly string[]): HealthReply }
    metrics?: { contentType: string; text(): Promise<string> }
    /** /ext/keystore, only when `--api-keystore-enabled`: otherwise not registered (404, as avalanchego). */
    keystore?: GorillaDispatcher
  }
  /**
   * Further gorilla JSON-RPC endpoints, each at one exact path: the atomic API (`avax` at
   * /ext/bc/C/avax, /ext/bc/<C-Chain ID>/avax, /ext/bc/evm/avax; `native` at /ext/bc/C/native and
   * /ext/bc/<C-Chain ID>/native). No CORS headers (docs/SECURITY.md, N3).
   */
  apis?: ReadonlyArray<{ path: string; rpc: GorillaDispatcher }>
  /** Host names accepted besides IP literals and `localhost` (`*` = any). */
  allowedHosts?: readonly string[]
  /** Browser origins allowed to open a WebSocket besides loopback ones (`*` = any). */
  allowedOrigins?: readonly string[]
  /** WebSocket limits; each defaults to the constant above. */
  ws?: {
    maxConnections?: number
    maxBufferedBytes?: number
    maxPendingMessages?: number
    pingIntervalMs?: number
  }
  /** HTTP timeouts (ms) and the socket cap (docs/SECURITY.md, L9, L10, L12); defaults as Fastify is set up below. */
  http?: {
    headersTimeoutMs?: number
    requestTimeoutMs?: number
    keepAliveTimeoutMs?: number
    maxConnections?: number
  }
}

export interface Server {
  listen(): Promise<{ host: string; port: number }>
  /** Open WebSocket connections. */
  readonly wsConnections: number
  close(): Promise<void>
  fastify: FastifyInstance
}

type ChainRequest = FastifyRequest<{ Params: { chain: string } }>

/** Routes served as avalanchego's gorilla/rpc servers answer transport faults (gorilla/rpc v1.2.0: v2/server.go; avalanchego: utils/json/codec.go). */
const GORILLA = { gorilla: true }

/** gorilla rpc.WriteError: text/plain, no trailing newline. */
function gorillaFault(reply: FastifyReply, status: number, msg: string): void {
  reply.code(status).header('content-type', TEXT_CT).send(msg)
}

/** The media type gorilla's ServeHTTP looks up: the Content-Type up to `;`. */
function gorillaContentType(header: string | undefined): string {
  const ct = header ?? ''
  const semi = ct.indexOf(';')
  return semi === -1 ? ct : ct.slice(0, semi)
}

/** 404 for an ID or alias no chain has; 503 for a chain that failed to start. Undefined when it is served. */
function chainFault(reply: FastifyReply, chains: Map<string, ChainRoute>, chain: string): Dispatcher | undefined {
  const route = chains.get(chain)
  if (route === undefined) {
    reply
      .code(404)
      .header('content-type', JSON_CT)
      .send(JSON.stringify({ error: `unknown blockchain ${JSON.stringify(chain)}: no EVM chain of this node has that ID or alias` }))
    return undefined
  }
  if (route.rpc === undefined) {
    reply
      .code(503)
      .header('content-type', JSON_CT)
      .send(JSON.stringify({ error: route.unavailable }))
    return undefined
  }
  return route.rpc
}

/** Fastify app for the chain endpoints: POST /ext/bc/:chain/rpc and GET /ext/bc/:chain/ws (docs/SECURITY.md, N, L, W). */
export function createServer(opts: ServerOptions): Server {
  const { log, chains } = opts
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT
  const maxWsConnections = opts.ws?.maxConnections ?? MAX_WS_CONNECTIONS
  const maxWsBuffered = opts.ws?.maxBufferedBytes ?? MAX_WS_BUFFERED
  const maxWsPending = opts.ws?.maxPendingMessages ?? MAX_WS_PENDING_MESSAGES
  const pingInterval = opts.ws?.pingIntervalMs ?? WS_PING_INTERVAL_MS
  const hostAllowed = createHostCheck(opts.allowedHosts)
  const originAllowed = createOriginCheck(opts.allowedOrigins)
  let closing = false
  const fastPath = createRpcFastPath({ dispatcher: (chain) => chains.get(chain)?.rpc, bodyLimit, log, hostAllowed, originAllowed, closing: () => closing })
  const requestTimeout = opts.http?.requestTimeoutMs ?? 30_000
  const keepAliveTimeout = opts.http?.keepAliveTimeoutMs ?? 72_000
  const fastify = Fastify({
    logger: false,
    bodyLimit,
    requestTimeout,
    connectionTimeout: 0,
    keepAliveTimeout,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // The server Fastify would make (fastify: lib/server.js getServerInstance), with the JSON-RPC fast path in front of its router.
    serverFactory: (handler) => {
      // Node checks headersTimeout/requestTimeout only every connectionsCheckingInterval (30 s by default).
      const server = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
        if (!fastPath(req, res)) handler(req, res)
      })
      server.keepAliveTimeout = keepAliveTimeout
      server.requestTimeout = requestTimeout
      server.setTimeout(0)
      return server
    },
  })
  fastify.server.headersTimeout = opts.http?.headersTimeoutMs ?? 10_000
  fastify.server.maxConnections = opts.http?.maxConnections ?? 512
  // From here on Fastify answers every request itself (503 while it drains).
  fastify.addHook('preClose', (done) => {
    closing = true
    done()
  })

  // Our parser returns the raw text: the dispatcher emits -32700/-32600 itself and keeps raw ids.
  // Every other content type gets Fastify's 415 before the body is read (docs/SECURITY.md, N4, L2).
  fastify.removeAllContentTypeParsers()
  fastify.addContentTypeParser(JSON_RPC_TYPES, { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body))

  // Registered before @fastify/websocket so upgrade requests pass through it too (docs/SECURITY.md, N2, N6).
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.headers.upgrade !== undefined) {
      // An upgrade socket answered with an HTTP error belongs to no one any more: close it here.
      reply.raw.once('finish', () => req.raw.socket.destroy())
      if (!originAllowed(req.headers.origin)) {
        reply.code(403).header('content-type', TEXT_CT).send('origin not allowed\n')
        return
      }
    }
    if (!hostAllowed(req.headers.host)) {
      reply.code(403).header('content-type', TEXT_CT).send('invalid host specified\n')
      return
    }
    done()
  })

  fastify.setNotFoundHandler((_req, reply) => {
    reply.code(404).header('content-type', TEXT_CT).send('404 page not found\n')
  })
  fastify.setErrorHandler((err: { statusCode?: number; message: string; code?: string }, req, reply) => {
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && (req.routeOptions.config as { gorilla?: boolean }).gorilla === true) {
      return gorillaFault(reply, 415, 'rpc: unrecognized Content-Type: ' + gorillaContentType(req.headers['content-type']))
    }
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status === 500) log.error({ err }, 'http request failed')
    reply
      .code(status)
      .header('content-type', TEXT_CT)
      .send(status === 500 ? 'internal error\n' : err.message + '\n')
  })

  /**
   * CORS on the EVM JSON-RPC only, for allowed origins only (loopback ones and --http-allowed-origins),
   * echoing the origin, never `*` and never credentials (docs/SECURITY.md, N3); gorilla routes get none.
   */
  const cors = (req: FastifyRequest, reply: FastifyReply): void => {
    const origin = req.headers.origin
    if (origin === undefined || !originAllowed(origin)) return
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
  }
  // geth's rules (server/gethHttp.ts): an empty GET is the health check, PUT and DELETE 405, other content types 415; the rest is JSON-RPC.
  const onRequest = gethTransportHook(bodyLimit, (req, reply) => {
    cors(req, reply)
    return chainFault(reply, chains, (req as ChainRequest).params.chain) !== undefined
  })
  const serve = (req: ChainRequest, reply: FastifyReply, body: unknown): void => {
    if (typeof body !== 'string') {
      reply.code(415).header('content-type', TEXT_CT).send('invalid content type, only application/json is supported\n')
      return
    }
    chains
      .get(req.params.chain)!
      .rpc!.handle(body)
      .then(
        (out) => reply.header('content-type', JSON_CT).send(out ?? ''),
        (err: unknown) => {
          log.error({ err }, 'dispatcher failed')
          reply.code(500).header('content-type', TEXT_CT).send('internal error\n')
        },
      )
  }
  fastify.route({ method: ['POST', 'PATCH', 'PUT', 'DELETE'], url: '/ext/bc/:chain/rpc', onRequest, handler: (req: ChainRequest, reply) => serve(req, reply, req.body) })
  // Fastify reads no GET body: a GET with a JSON body is served as geth serves it.
  fastify.route({
    method: 'GET',
    url: '/ext/bc/:chain/rpc',
    onRequest,
    handler: (req: ChainRequest, reply) => {
      readRawBody(req.raw, bodyLimit).then(
        (body) => serve(req, reply, body),
        (err: Error) => reply.send(err),
      )
    },
  })
  fastify.options('/ext/bc/:chain/rpc', (req, reply) => {
    cors(req, reply)
    if (reply.hasHeader('access-control-allow-origin')) {
      reply.header('access-control-allow-methods', 'POST, OPTIONS').header('access-control-allow-headers', 'Content-Type').header('access-control-max-age', '600')
    }
    reply.code(204).header('allow', 'POST, OPTIONS').send()
  })

  /**
   * A gorilla JSON-RPC endpoint: POST with `application/json` only (avalanchego registers that one
   * codec), other methods 405 unless `get` serves them. `exact`: any other spelling of the path
   * that the router would still match (percent-encoding) is 404 (docs/SECURITY.md, N7).
   */
  const gorillaRoute = (url: string, rpc: GorillaDispatcher, opts: { get?: (req: FastifyRequest, reply: FastifyReply) => void; exact?: boolean } = {}): void => {
    const onRequest =
      opts.exact === true
        ? (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
            const q = req.raw.url?.indexOf('?') ?? -1
            if ((q === -1 ? req.raw.url : req.raw.url!.slice(0, q)) !== url) {
              reply.code(404).header('content-type', TEXT_CT).send('404 page not found\n')
              return
            }
            done()
          }
        : undefined
    fastify.post(url, { config: GORILLA, ...(onRequest && { onRequest }) }, (req, reply) => {
      const ct = gorillaContentType(req.headers['content-type'])
      if (ct.toLowerCase() !== JSON_CT || typeof req.body !== 'string') return gorillaFault(reply, 415, 'rpc: unrecognized Content-Type: ' + ct)
      rpc.handle(req.body, { remoteAddress: req.ip }).then(
        (out) => {
          reply.header('content-type', 'application/json; charset=utf-8').header('x-content-type-options', 'nosniff').send(out)
        },
        (err: unknown) => {
          log.error({ err }, 'api dispatcher failed')
          reply.code(500).header('content-type', TEXT_CT).send('internal error\n')
        },
      )
    })
    const others = opts.get === undefined ? ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] : ['PUT', 'DELETE', 'PATCH', 'OPTIONS']
    fastify.route({
      method: others,
      url,
      config: GORILLA,
      ...(onRequest && { onRequest }),
      handler: (req, reply) => gorillaFault(reply, 405, 'rpc: POST method required, received ' + req.method),
    })
    if (opts.get !== undefined) fastify.get(url, { config: GORILLA, ...(onRequest && { onRequest }) }, opts.get)
  }
  for (const [alias, chain] of chains) {
    if (chain.admin !== undefined) gorillaRoute(`/ext/bc/${alias}/admin`, chain.admin, { exact: true })
  }
  for (const { path, rpc } of opts.apis ?? []) gorillaRoute(path, rpc, { exact: true })
  const api = opts.node ?? {}
  if (api.info !== undefined) gorillaRoute('/ext/info', api.info)
  if (api.keystore !== undefined) gorillaRoute('/ext/keystore', api.keystore, { exact: true })
  const health = api.health
  if (health !== undefined) {
    // GET answers 200 when healthy, 503 when not, with the report as body (api/health/handler.go).
    const getHealth =
      (kind: HealthKind) =>
      (req: FastifyRequest, reply: FastifyReply): void => {
        const tag = (req.query as Record<string, string | string[] | undefined>).tag
        const report = health.report(kind, tag === undefined ? [] : Array.isArray(tag) ? tag : [tag])
        reply
          .code(report.healthy ? 200 : 503)
          .header('content-type', JSON_CT)
          .send(JSON.stringify(report) + '\n')
      }
    gorillaRoute('/ext/health', health.rpc, { get: getHealth('health') })
    for (const kind of ['health', 'readiness', 'liveness'] as const) fastify.get(`/ext/health/${kind}`, getHealth(kind))
  }
  const metrics = api.metrics
  if (metrics !== undefined) {
    fastify.get('/ext/metrics', (_req, reply) => {
      metrics.text().then(
        (text) => {
          reply.header('content-type', metrics.contentType).send(text)
        },
        (err: unknown) => {
          log.error({ err }, 'metrics collection failed')
          reply.code(500).header('content-type', TEXT_CT).send('internal error\n')
        },
      )
    })
    fastify.route({
      method: ['POST', 'PUT', 'DELETE', 'PATCH'],
      url: '/ext/metrics',
      handler: (_req, reply) => {
        reply.code(405).header('allow', 'GET').header('content-type', TEXT_CT).send('method not allowed\n')
      },
    })
  }

  // Encapsulated so @fastify/websocket's hooks and handler wrapper stay off the HTTP hot path.
  let wsCount = 0
  let wsSeq = 0
  fastify.register(async (app) => {
    await app.register(websocket, { options: { maxPayload: bodyLimit, perMessageDeflate: false } })
    app.get(
      '/ext/bc/:chain/ws',
      {
        websocket: true,
        preValidation: (req: ChainRequest, reply, done) => {
          if (chainFault(reply, chains, req.params.chain) === undefined) return
          if (wsCount >= maxWsConnections) {
            reply.code(503).header('content-type', TEXT_CT).send('too many websocket connections\n')
            return
          }
          done()
        },
      },
      (socket: WebSocket, req: ChainRequest) => {
        const rpc = chains.get(req.params.chain)!.rpc!
        wsCount++
        serveWsConnection(socket, rpc, {
          id: ++wsSeq,
          pingInterval,
          maxBuffered: maxWsBuffered,
          maxPending: maxWsPending,
          log,
          onClosed: () => {
            wsCount--
          },
        })
      },
    )
  })

  return {
    fastify,
    get wsConnections() {
      return wsCount
    },
    async listen() {
      await fastify.listen({ host: opts.host, port: opts.port })
      const addr = fastify.server.address() as AddressInfo
      return { host: addr.address, port: addr.port }
    },
    async close() {
      await fastify.close()
    },
  }
}

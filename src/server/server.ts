import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import type { Logger } from 'pino'
import type { GorillaDispatcher } from '../rpc/gorilla.js'
import type { HealthKind, HealthReply } from '../healthReporter.js'
import { createHostCheck, createOriginCheck } from './hostCheck.js'
import { serveWsConnection } from './wsConnection.js'
import { createRpcFastPath, type RpcFastPathOptions } from './rpcFastPath.js'
import { attachRpcSockets } from './rpcSockets.js'
import { createCors } from './cors.js'
import { corsHook, preflightOr } from './corsHooks.js'
import { chainBases, chainFault, rpcRoutes, type ChainRoute } from './chainRoutes.js'
import { gorillaContentType, gorillaFault, gorillaRoute, JSON_CT, TEXT_CT } from './gorillaRoute.js'
import { type ExplorerOptions, registerExplorer } from './explorerRoutes.js'

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

export type { ChainRoute } from './chainRoutes.js'

export interface ServerOptions {
  host: string
  port: number
  bodyLimit?: number
  log: Logger
  /** Every EVM chain keyed by blockchain ID (CB58) and by each alias ('C', 'evm', ...), several keys per chain: /ext/bc/<key>/. */
  chains: Map<string, ChainRoute>
  /** Keys of `chains` also served at /ext/<key>/ (avalanchego's API aliases of the C-Chain: `C`, `evm`; genesis/aliases.go). */
  roots?: readonly string[]
  /** avalanchego's node APIs (gorilla JSON-RPC: gorilla/rpc v1.2.0, avalanchego: utils/json/codec.go) and the Prometheus endpoint. */
  node?: {
    info?: GorillaDispatcher
    health?: { rpc: GorillaDispatcher; report(kind: HealthKind, tags: readonly string[]): HealthReply }
    metrics?: { contentType: string; text(): Promise<string> }
    /** /ext/keystore, only when `--api-keystore-enabled`: otherwise not registered (404, as avalanchego). */
    keystore?: GorillaDispatcher
    /** `POST /aggregate-signatures` (icm-services' signature-aggregator API): a status and a JSON body for the request's. */
    aggregator?: (body: unknown) => { status: number; body: object }
  }
  /**
   * Further gorilla JSON-RPC endpoints, each at one exact path: the atomic API (`avax` and `native`
   * under each of the C-Chain's bases), the X-Chain's `avm` and the P-Chain's `platform` at theirs.
   * With CORS for allowed origins, as /rpc, /ext/info and /ext/health (docs/SECURITY.md, N3).
   */
  apis?: ReadonlyArray<{ path: string; rpc: GorillaDispatcher }>
  /** The explorer page at / (docs/EXPLORER.md), when it is on. */
  explorer?: ExplorerOptions
  /** Host names accepted besides IP literals and `localhost` (`*` = any). */
  allowedHosts?: readonly string[]
  /** Browser origins allowed (CORS, WebSocket) besides loopback ones (`*` = any). */
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
  /** How the fast path serves (src/server/rpcFastPath.ts): the early listener reads its sockets so once it hands over (src/startup/earlyListener.ts). */
  readonly rpcPath: RpcFastPathOptions
}

/** Fastify app for the chain endpoints (/ext/bc/:chain/rpc, /ws and the root aliases'), the gorilla APIs and the node APIs (docs/SECURITY.md, N, L, W). */
export function createServer(opts: ServerOptions): Server {
  const { log, chains } = opts
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT
  const maxWsConnections = opts.ws?.maxConnections ?? MAX_WS_CONNECTIONS
  const maxWsBuffered = opts.ws?.maxBufferedBytes ?? MAX_WS_BUFFERED
  const maxWsPending = opts.ws?.maxPendingMessages ?? MAX_WS_PENDING_MESSAGES
  const pingInterval = opts.ws?.pingIntervalMs ?? WS_PING_INTERVAL_MS
  const hostAllowed = createHostCheck(opts.allowedHosts)
  const originAllowed = createOriginCheck(opts.allowedOrigins)
  const cors = createCors(opts.allowedOrigins)
  const roots = opts.roots ?? []
  let closing = false
  const rpcPath: RpcFastPathOptions = { dispatcher: (chain) => chains.get(chain)?.rpc, bodyLimit, log, hostAllowed, cors, roots: new Set(roots), closing: () => closing }
  const fastPath = createRpcFastPath(rpcPath)
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
      attachRpcSockets(server, () => rpcPath)
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

  rpcRoutes(fastify, { chains, roots, cors, bodyLimit, log })
  for (const { path, rpc } of opts.apis ?? []) gorillaRoute(fastify, log, path, rpc, { exact: true, cors })
  const api = opts.node ?? {}
  if (api.info !== undefined) gorillaRoute(fastify, log, '/ext/info', api.info, { cors })
  if (api.keystore !== undefined) gorillaRoute(fastify, log, '/ext/keystore', api.keystore, { exact: true })
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
    gorillaRoute(fastify, log, '/ext/health', health.rpc, { get: getHealth('health'), cors })
    const onRequest = corsHook(cors)
    for (const kind of ['health', 'readiness', 'liveness'] as const) {
      fastify.get(`/ext/health/${kind}`, { onRequest }, getHealth(kind))
      fastify.options(
        `/ext/health/${kind}`,
        { onRequest },
        preflightOr(cors, (_req, reply) => {
          reply.code(404).header('content-type', TEXT_CT).send('404 page not found\n')
        }),
      )
    }
  }
  const aggregator = api.aggregator
  if (aggregator !== undefined) {
    // Go's json.Decoder reads the body whatever its content type: so does this route.
    fastify.register(async (app) => {
      app.removeAllContentTypeParsers()
      app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))
      app.post('/aggregate-signatures', (req, reply) => {
        let body: unknown
        try {
          body = JSON.parse(req.body as string)
        } catch {
          body = undefined
        }
        const answer = aggregator(body)
        reply.code(answer.status).header('content-type', JSON_CT).send(JSON.stringify(answer.body))
      })
    })
  }
  if (opts.explorer !== undefined) registerExplorer(fastify, opts.explorer)
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
    for (const base of chainBases(roots)) {
      app.get(
        `${base.url}/ws`,
        {
          websocket: true,
          preValidation: (req, reply, done) => {
            if (chainFault(reply, chains, base.chainOf(req)) === undefined) return
            if (wsCount >= maxWsConnections) {
              reply.code(503).header('content-type', TEXT_CT).send('too many websocket connections\n')
              return
            }
            done()
          },
        },
        (socket: WebSocket, req) => {
          const rpc = chains.get(base.chainOf(req))!.rpc!
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
    }
  })

  return {
    fastify,
    rpcPath,
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

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import type { Dispatcher } from '../rpc/dispatch.js'
import type { GorillaDispatcher } from '../rpc/gorilla.js'
import type { Cors } from './cors.js'
import { preflightOr } from './corsHooks.js'
import { gethTransportHook, readRawBody } from './gethHttp.js'
import { gorillaRoute, JSON_CT, TEXT_CT } from './gorillaRoute.js'

/**
 * What /ext/bc/<chain>/rpc, /ws and /admin serve for one chain. `admin` only when the admin API is
 * enabled: otherwise its path is not registered at all (docs/SECURITY.md, N7). `unavailable`: the chain
 * failed to start, and its paths answer 503 with this text.
 */
export type ChainRoute = { rpc: Dispatcher; admin?: GorillaDispatcher; unavailable?: undefined } | { unavailable: string; rpc?: undefined; admin?: undefined }

/** One base path of a chain's endpoints: `/ext/bc/:chain` (the name from the path) or `/ext/<root>` (that one name). */
export interface ChainBase {
  readonly url: string
  chainOf(req: FastifyRequest): string
}

/** `/ext/bc/:chain` for every chain key, and `/ext/<root>` for each root alias (avalanchego: genesis/aliases.go, `/ext/C/rpc`, `/ext/evm/ws`). */
export function chainBases(roots: readonly string[]): ChainBase[] {
  return [{ url: '/ext/bc/:chain', chainOf: (req) => (req.params as { chain: string }).chain }, ...roots.map((root) => ({ url: `/ext/${root}`, chainOf: () => root }))]
}

/** 404 for an ID or alias no chain has; 503 for a chain that failed to start. Undefined when it is served. */
export function chainFault(reply: FastifyReply, chains: ReadonlyMap<string, ChainRoute>, chain: string): Dispatcher | undefined {
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

/**
 * The EVM JSON-RPC at `<base>/rpc` for each base, under geth's HTTP rules (server/gethHttp.ts: an
 * empty GET is the health check, PUT and DELETE 405, other content types 415, a GET with a JSON body
 * served); OPTIONS answers a CORS preflight (docs/SECURITY.md, N3). With the admin API on,
 * `<base>/admin` for every chain key and root (gorilla transport, no CORS).
 */
export function rpcRoutes(fastify: FastifyInstance, opts: { chains: ReadonlyMap<string, ChainRoute>; roots: readonly string[]; cors: Cors; bodyLimit: number; log: Logger }): void {
  const { chains, cors, bodyLimit, log } = opts
  for (const base of chainBases(opts.roots)) {
    const url = `${base.url}/rpc`
    const onRequest = gethTransportHook(bodyLimit, (req, reply) => {
      for (const [name, value] of cors.actual(req.headers.origin, req.method)) reply.header(name, value)
      return chainFault(reply, chains, base.chainOf(req)) !== undefined
    })
    const serve = (req: FastifyRequest, reply: FastifyReply, body: unknown): void => {
      if (typeof body !== 'string') {
        reply.code(415).header('content-type', TEXT_CT).send('invalid content type, only application/json is supported\n')
        return
      }
      chains
        .get(base.chainOf(req))!
        .rpc!.handle(body)
        .then(
          (out) => reply.header('content-type', JSON_CT).send(out ?? ''),
          (err: unknown) => {
            log.error({ err }, 'dispatcher failed')
            reply.code(500).header('content-type', TEXT_CT).send('internal error\n')
          },
        )
    }
    fastify.route({ method: ['POST', 'PATCH', 'PUT', 'DELETE'], url, onRequest, handler: (req, reply) => serve(req, reply, req.body) })
    // Fastify reads no GET body: a GET with a JSON body is served as geth serves it.
    fastify.route({
      method: 'GET',
      url,
      onRequest,
      handler: (req, reply) => {
        readRawBody(req.raw, bodyLimit).then(
          (body) => serve(req, reply, body),
          (err: Error) => reply.send(err),
        )
      },
    })
    fastify.options(
      url,
      preflightOr(cors, (req, reply) => {
        for (const [name, value] of cors.actual(req.headers.origin, req.method)) reply.header(name, value)
        reply.code(204).header('allow', 'POST, OPTIONS').send()
      }),
    )
  }
  for (const [alias, chain] of chains) {
    if (chain.admin !== undefined) gorillaRoute(fastify, log, `/ext/bc/${alias}/admin`, chain.admin, { exact: true })
  }
  for (const root of opts.roots) {
    const admin = chains.get(root)?.admin
    if (admin !== undefined) gorillaRoute(fastify, log, `/ext/${root}/admin`, admin, { exact: true })
  }
}

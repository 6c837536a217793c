import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { Logger } from 'pino'
import type { GorillaDispatcher } from '../rpc/gorilla.js'
import type { Cors } from './cors.js'
import { corsHook, preflightOr } from './corsHooks.js'

export const JSON_CT = 'application/json'
export const TEXT_CT = 'text/plain; charset=utf-8'

/** Route config of the routes served as avalanchego's gorilla/rpc servers answer transport faults (gorilla/rpc v1.2.0: v2/server.go; avalanchego: utils/json/codec.go). */
export const GORILLA = { gorilla: true }

/** gorilla rpc.WriteError: text/plain, no trailing newline. */
export function gorillaFault(reply: FastifyReply, status: number, msg: string): void {
  reply.code(status).header('content-type', TEXT_CT).send(msg)
}

/** The media type gorilla's ServeHTTP looks up: the Content-Type up to `;`. */
export function gorillaContentType(header: string | undefined): string {
  const ct = header ?? ''
  const semi = ct.indexOf(';')
  return semi === -1 ? ct : ct.slice(0, semi)
}

export interface GorillaRouteOptions {
  /** Serves GET (the health report); otherwise GET is 405 as gorilla answers. */
  get?: (req: FastifyRequest, reply: FastifyReply) => void
  /** Any other spelling of the path that the router would still match (percent-encoding) is 404 (docs/SECURITY.md, N7). */
  exact?: boolean
  /** CORS headers and preflights for browser origins (docs/SECURITY.md, N3); absent: none (keystore, admin). */
  cors?: Cors
}

/**
 * A gorilla JSON-RPC endpoint: POST with `application/json` only (avalanchego registers that one
 * codec), other methods 405 unless `get` serves them; with `cors`, an OPTIONS preflight answers as
 * rs/cors does and every answer carries the CORS headers of its origin.
 */
export function gorillaRoute(fastify: FastifyInstance, log: Logger, url: string, rpc: GorillaDispatcher, opts: GorillaRouteOptions = {}): void {
  const hooks: onRequestHookHandler[] = []
  if (opts.exact === true) {
    hooks.push((req, reply, done) => {
      const q = req.raw.url?.indexOf('?') ?? -1
      if ((q === -1 ? req.raw.url : req.raw.url!.slice(0, q)) !== url) {
        reply.code(404).header('content-type', TEXT_CT).send('404 page not found\n')
        return
      }
      done()
    })
  }
  if (opts.cors !== undefined) hooks.push(corsHook(opts.cors))
  const base = { config: GORILLA, ...(hooks.length > 0 && { onRequest: hooks }) }
  fastify.post(url, base, (req, reply) => {
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
  const notPost = (req: FastifyRequest, reply: FastifyReply): void => gorillaFault(reply, 405, 'rpc: POST method required, received ' + req.method)
  const others = opts.get === undefined ? ['GET', 'PUT', 'DELETE', 'PATCH'] : ['PUT', 'DELETE', 'PATCH']
  fastify.route({ method: others, url, ...base, handler: notPost })
  fastify.route({ method: 'OPTIONS', url, ...base, handler: opts.cors !== undefined ? preflightOr(opts.cors, notPost) : notPost })
  if (opts.get !== undefined) fastify.get(url, base, opts.get)
}

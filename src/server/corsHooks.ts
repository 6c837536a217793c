import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import type { Cors } from './cors.js'

/** Whether rs/cors takes the request as a preflight: OPTIONS with a non-empty Access-Control-Request-Method. */
function preflightMethod(req: FastifyRequest): string | undefined {
  const method = req.headers['access-control-request-method']
  return req.method === 'OPTIONS' && typeof method === 'string' && method !== '' ? method : undefined
}

/** A route's onRequest hook: the CORS headers of an actual request (docs/SECURITY.md, N3), set before any handler or fault answers; a preflight gets its own. */
export function corsHook(cors: Cors) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (preflightMethod(req) === undefined) for (const [name, value] of cors.actual(req.headers.origin, req.method)) reply.header(name, value)
    done()
  }
}

/**
 * The OPTIONS handler of a CORS route: a preflight (Access-Control-Request-Method present) answers
 * 200 with an empty body, as rs/cors does in front of every avalanchego route (api/server/server.go);
 * any other OPTIONS request goes to `other`, the route's own answer.
 */
export function preflightOr(cors: Cors, other: RouteHandlerMethod): RouteHandlerMethod {
  return function (this: unknown, req, reply) {
    const method = preflightMethod(req)
    if (method === undefined) return other.call(this as never, req, reply)
    const requested = req.headers['access-control-request-headers']
    for (const [name, value] of cors.preflight(req.headers.origin, method, Array.isArray(requested) ? requested.join(',') : requested)) reply.header(name, value)
    reply.code(200).send()
  } as RouteHandlerMethod
}

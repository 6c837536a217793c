import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'

/*
 * The HTTP rules of geth's JSON-RPC server (rpc/http.go ServeHTTP and validateRequest, as coreth
 * v0.14.0 has them) for /ext/bc/<chain>/rpc: which requests are served, and what the others answer.
 */

/** geth acceptedContentTypes. */
const ACCEPTED = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])
/** One `; key=value` parameter (Go mime consumeMediaParam: a token, then a token or a quoted string). */
const PARAM = /^;[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*=[ \t]*("(?:[^"\\]|\\.)*"|[!#$%&'*+\-.^_`|~0-9A-Za-z]+)/

/** Whether Go's mime.ParseMediaType reads `header` without error as one of geth's accepted types. */
export function acceptedMediaType(header: string | undefined): boolean {
  if (header === undefined) return false
  const semi = header.indexOf(';')
  if (!ACCEPTED.has((semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase())) return false
  let rest = semi === -1 ? '' : header.slice(semi)
  const seen = new Set<string>()
  while (rest.length > 0) {
    rest = rest.trimStart()
    if (rest === '') break
    const m = PARAM.exec(rest)
    // Go ignores a trailing semicolon; anything else unparsable is ErrInvalidMediaParameter.
    if (m === null) return rest.trim() === ';'
    const key = m[1]!.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    rest = rest.slice(m[0].length)
  }
  return true
}

/** What geth does with a request before reading its body: serve it, answer the health check, or refuse it (http.Error's status and text). */
export type GethHttpVerdict = { serve: true } | { health: true } | { status: number; text: string }

const SERVE = { serve: true } as const

/**
 * geth ServeHTTP's checks, in its order: a GET without a body or a query is a health check (200,
 * empty: load balancers and docker use it); PUT and DELETE are 405; a declared length over the
 * limit is 413; OPTIONS passes; any other content type is 415. What passes is served as JSON-RPC,
 * whatever its method (a GET with a JSON body included).
 */
export function gethHttpVerdict(method: string, headers: IncomingHttpHeaders, hasQuery: boolean, bodyLimit: number): GethHttpVerdict {
  const length = headers['content-length']
  const chunked = headers['transfer-encoding'] !== undefined
  if (method === 'GET' && !hasQuery && !chunked && (length === undefined || Number(length) === 0)) return { health: true }
  if (method === 'PUT' || method === 'DELETE') return { status: 405, text: 'method not allowed\n' }
  if (length !== undefined && Number(length) > bodyLimit) return { status: 413, text: `content length too large (${length}>${bodyLimit})\n` }
  if (method === 'OPTIONS') return SERVE
  if (!acceptedMediaType(headers['content-type'])) return { status: 415, text: 'invalid content type, only application/json is supported\n' }
  return SERVE
}

/** `?` followed by something: Go's RawQuery is empty for a bare `?`. */
function hasQuery(url: string): boolean {
  const q = url.indexOf('?')
  return q !== -1 && q < url.length - 1
}

/**
 * The onRequest hook of the EVM JSON-RPC routes: `admit` runs first (CORS headers, the chain's
 * 404/503; false once it has answered), then geth's verdict answers what geth does not serve, with
 * http.Error's text/plain and nosniff.
 */
export function gethTransportHook(bodyLimit: number, admit: (req: FastifyRequest, reply: FastifyReply) => boolean) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!admit(req, reply)) return
    const verdict = gethHttpVerdict(req.method, req.headers, hasQuery(req.raw.url ?? ''), bodyLimit)
    if ('serve' in verdict) done()
    else if ('health' in verdict) reply.code(200).send()
    else reply.code(verdict.status).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(verdict.text)
  }
}

/** The body of a request Fastify does not parse (a GET), up to `limit` bytes; past it, a 413 error for Fastify's error handler. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return
      size += chunk.length
      // Go's MaxBytesReader error; the rest of the body is read and dropped.
      if (size > limit) reject(Object.assign(new Error('http: request body too large'), { statusCode: 413 }))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

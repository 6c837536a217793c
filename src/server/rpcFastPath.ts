import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { Answer, Dispatcher } from '../rpc/dispatch.js'
import type { Cors, HeaderPairs } from './cors.js'

/** What the fast path needs from the server: the same checks its Fastify route runs. */
export interface RpcFastPathOptions {
  /** The dispatcher serving a chain name (ID or alias); undefined when none does or the chain is unavailable. */
  dispatcher(chain: string): Pick<Dispatcher, 'respond'> | undefined
  bodyLimit: number
  log: Logger
  hostAllowed(host: string | undefined): boolean
  cors: Cors
  /** Chain names also served at /ext/<name>/rpc (avalanchego's API aliases: `C`, `evm`). */
  roots?: ReadonlySet<string>
  /** True once the server is closing: Fastify then answers 503 itself. */
  closing(): boolean
}

/** Content types taken here: Fastify's JSON-RPC parser would take each (server.ts JSON_RPC_TYPES); any other spelling goes to Fastify. */
const FAST_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'].flatMap((t) => [t, t + '; charset=utf-8', t + ';charset=utf-8']))
const PREFIX = '/ext/bc/'
const SUFFIX = '/rpc'
/** find-my-way's default maxParamLength: a longer chain name is Fastify's to answer. */
const MAX_CHAIN_LENGTH = 100
const JSON_CT = 'application/json; charset=utf-8'
const TEXT_CT = 'text/plain; charset=utf-8'

const ROOT_PREFIX = '/ext/'

/**
 * The chain name of `/ext/bc/<name>/rpc` when it is plain ASCII letters, digits, `-` or `_` (nothing
 * the router would decode), or of `/ext/<root>/rpc` for a root alias; else undefined.
 */
function chainOf(url: string, roots: ReadonlySet<string> | undefined): string | undefined {
  if (!url.startsWith(PREFIX)) {
    if (roots === undefined || !url.startsWith(ROOT_PREFIX) || !url.endsWith(SUFFIX)) return undefined
    const root = url.slice(ROOT_PREFIX.length, url.length - SUFFIX.length)
    return roots.has(root) ? root : undefined
  }
  if (!url.endsWith(SUFFIX)) return undefined
  const end = url.length - SUFFIX.length
  if (end <= PREFIX.length || end - PREFIX.length > MAX_CHAIN_LENGTH) return undefined
  for (let i = PREFIX.length; i < end; i++) {
    const c = url.charCodeAt(i)
    const ok = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f
    if (!ok) return undefined
  }
  return url.slice(PREFIX.length, end)
}

/**
 * The dispatcher answering a plain POST to `url` on the fast path: a served chain, a JSON content type,
 * a length within the body limit, an allowed Host, the server not closing. Undefined: Fastify answers it.
 */
export function fastDispatcher(opts: RpcFastPathOptions, url: string, contentType: string | undefined, length: number, host: string | undefined): Pick<Dispatcher, 'respond'> | undefined {
  const chain = chainOf(url, opts.roots)
  if (chain === undefined || contentType === undefined || !FAST_TYPES.has(contentType) || length > opts.bodyLimit || !opts.hostAllowed(host) || opts.closing()) return undefined
  return opts.dispatcher(chain)
}

/** What a fast-path answer is written with: the status, content type and text of the Fastify route's. */
export type FastReply = (status: number, type: string, text: string) => void

/** The answer to a body: 200 with the dispatcher's text, or 500 `internal error` when it throws (logged). */
export function answerBody(rpc: Pick<Dispatcher, 'respond'>, body: string, log: Logger, reply: FastReply): void {
  let answer: Answer
  try {
    answer = rpc.respond(body)
  } catch (err) {
    failed(log, reply, err)
    return
  }
  if (typeof answer === 'object')
    answer.then(
      (out) => reply(200, JSON_CT, out ?? ''),
      (err: unknown) => failed(log, reply, err),
    )
  else reply(200, JSON_CT, answer ?? '')
}

function failed(log: Logger, reply: FastReply, err: unknown): void {
  log.error({ err }, 'dispatcher failed')
  reply(500, TEXT_CT, 'internal error\n')
}

/**
 * The EVM JSON-RPC POST on node:http directly, before Fastify routes it: a plain request (POST to
 * `/ext/bc/<served chain>/rpc`, a JSON content type, a Content-Length within the body limit, an allowed
 * Host) is answered here with the bytes the Fastify route sends (docs/PERFORMANCE.md: Fastify's request
 * and reply objects cost more than the dispatch of a cheap method). Returns false, having touched
 * nothing, for any other request: Fastify then answers it, so every fault keeps its one code path.
 * Connections the socket path (src/server/rpcSockets.ts) keeps never come here.
 */
export function createRpcFastPath(opts: RpcFastPathOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { log } = opts
  return (req, res) => {
    if (req.method !== 'POST') return false
    const headers = req.headers
    const length = headers['content-length']
    if (length === undefined || headers['transfer-encoding'] !== undefined || headers.upgrade !== undefined) return false
    const rpc = fastDispatcher(opts, req.url!, headers['content-type'], Number(length), headers.host)
    if (rpc === undefined) return false
    const cors = opts.cors.actual(headers.origin, 'POST')
    const reply: FastReply = (status, type, text) => send(res, status, type, text, cors)
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('error', (err: Error) => {
      // The client went away mid-body; Fastify's body reader answers 400 with the error's text.
      if (!res.headersSent) reply(400, TEXT_CT, err.message + '\n')
    })
    req.on('end', () => answerBody(rpc, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'), log, reply))
    return true
  }
}

/** One write of status line, headers and body: Content-Length, never chunked; CORS headers first, as the Fastify route sets them. */
function send(res: ServerResponse, status: number, type: string, text: string, cors: HeaderPairs): void {
  const length = String(Buffer.byteLength(text))
  if (cors.length === 0) res.writeHead(status, ['content-type', type, 'content-length', length])
  else res.writeHead(status, [...cors.flat(), 'content-type', type, 'content-length', length])
  res.end(text)
}

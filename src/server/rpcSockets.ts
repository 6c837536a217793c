import { type Server, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { HeaderPairs } from './cors.js'
import { INCOMPLETE, NOT_PLAIN, PlainRequestReader } from './plainRequest.js'
import { answerBody, fastDispatcher, type RpcFastPathOptions } from './rpcFastPath.js'

/** Node's margin over keepAliveTimeout before it closes an idle connection (lib/_http_server.js HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const KEEP_ALIVE_MARGIN_MS = 1000
/** How often timeouts are checked, as node:http's connectionsCheckingInterval here (server.ts). */
const SWEEP_MS = 1000
const noop = (): void => {}

/** What every connection of one server shares. */
interface Room {
  readonly server: Server
  readonly route: () => RpcFastPathOptions | undefined
  /** node:http's own connection listener: a socket handed to it is node:http's from then on. */
  readonly toNode: (socket: Socket) => void
  readonly sockets: Set<RpcSocket>
  /** The Date header's value and until when it holds: made once a second, as node:http does (lib/_http_outgoing.js utcDate). */
  readonly date: { text: string; until: number }
}

/**
 * The EVM JSON-RPC over HTTP/1.1 keep-alive connections without node:http (docs/PERFORMANCE.md, "The
 * request path"): a connection is read here as long as each request is a plain POST the fast path
 * serves (src/server/plainRequest.ts, `fastDispatcher`), answered in order with the bytes node:http
 * writes for the fast path. The first request that is anything else (another method or path, a chunked
 * body, an upgrade, `Connection: close`, a refused Host, a closing server) hands the connection, from
 * that request's first byte on, to node:http, which owns it from then: every fault keeps its one code
 * path. A request that arrives in pieces waits here until it is whole, under node:http's clocks
 * (docs/SECURITY.md, L9, L10): its head must be whole within the headers timeout and all of it within
 * the request timeout, counted as node:http counts (from the connection's start for its first request),
 * else 408; an idle connection is closed after the keep-alive timeout. `route` says how requests are
 * served now (undefined: node:http takes every new request).
 */
export function attachRpcSockets(server: Server, route: () => RpcFastPathOptions | undefined): void {
  const listeners = server.listeners('connection')
  if (listeners.length !== 1) throw new Error('attachRpcSockets: the server must have only node:http connection listener')
  const toNode = listeners[0] as (socket: Socket) => void
  const room: Room = { server, route, toNode, sockets: new Set(), date: { text: '', until: 0 } }
  server.removeListener('connection', toNode)
  server.on('connection', (socket: Socket) => {
    // A per-socket inactivity timeout or a request cap is node:http's to keep.
    if (server.timeout > 0 || (server.maxRequestsPerSocket ?? 0) > 0 || route() === undefined) toNode.call(server, socket)
    else room.sockets.add(new RpcSocket(socket, room))
  })
  // While the server listens, as node:http runs its own checks (lib/_http_server.js setupConnectionsTracking).
  let sweep: NodeJS.Timeout | undefined
  const startSweep = (): void => {
    sweep ??= setInterval(() => {
      const now = Date.now()
      for (const s of room.sockets) s.checkTimeouts(now)
    }, SWEEP_MS).unref()
  }
  if (server.listening) startSweep()
  server.on('listening', startSweep)
  server.on('close', () => {
    clearInterval(sweep)
    sweep = undefined
  })
  // server.close() closes node:http's idle connections through this method (Fastify's close too): the ones read here as well.
  const closeIdle = server.closeIdleConnections
  server.closeIdleConnections = function (this: Server) {
    closeIdle.call(this)
    for (const s of room.sockets) if (s.idle()) s.socket.destroy()
  }
  const closeAll = server.closeAllConnections
  server.closeAllConnections = function (this: Server) {
    closeAll.call(this)
    for (const s of room.sockets) s.socket.destroy()
  }
}

/** node:http's errors for what it would find itself (lib/_http_server.js onRequestTimeout, socketOnEnd's parser.finish()): its clientError listener answers them. */
const timedOut = (): Error => Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })
const endedEarly = (): Error => Object.assign(new Error('Parse Error: Invalid EOF state'), { code: 'HPE_INVALID_EOF_STATE' })

/** One connection read here: its answers in request order, node:http's clocks, its hand-over to node:http. */
class RpcSocket {
  /** Answers not written yet, in request order; a slot's text is set once its answer is made. */
  private readonly queue: { text: string | undefined }[] = []
  /** When the last answer was written (the keep-alive clock). */
  private since = Date.now()
  /**
   * When the request not yet whole began, as node:http's clocks count it: its first byte (llhttp's
   * message begin), or the connection's start while nothing has arrived; undefined between requests.
   */
  private started: number | undefined = this.since
  /** The bytes of a request not yet whole, and how many make it whole (0: its head is not whole yet). */
  private parts: Buffer[] | undefined
  private partsLength = 0
  private need = 0
  /** Inside onData: answers made meanwhile are written in one go at its end. */
  private reading = false
  private pendingText = ''
  /** Set once a request is not plain: what node:http reads once the answers before it are written. */
  private rest: Buffer | undefined
  private readonly reader = new PlainRequestReader()
  private readonly onData = (chunk: Buffer): void => this.read(chunk)
  private readonly onEnd = (): void => {
    // As node:http (httpAllowHalfOpen false): the client's end ends the connection, answers still pending
    // included; with a request cut short, the parse error node:http's clientError listener answers.
    if (this.parts !== undefined) this.onError(endedEarly())
    else this.socket.end()
  }
  private readonly onClose = (): void => {
    this.room.sockets.delete(this)
  }
  private readonly onError = (err: Error): void => {
    // As node:http's socketOnError: the server's clientError listener (Fastify's) decides, else the socket goes.
    const socket = this.socket
    socket.removeListener('error', this.onError)
    if (socket.listenerCount('error') === 0) socket.on('error', noop)
    if (!this.room.server.emit('clientError', err, socket)) socket.destroy(err)
  }

  constructor(
    readonly socket: Socket,
    private readonly room: Room,
  ) {
    socket.on('data', this.onData)
    socket.on('end', this.onEnd)
    socket.on('close', this.onClose)
    socket.on('error', this.onError)
  }

  /** No request under way and no answer pending (node:http's idle connection). */
  idle(): boolean {
    return this.started === undefined && this.queue.length === 0 && this.rest === undefined
  }

  /**
   * node:http's checks (lib/_http_server.js checkConnections): a request whose head is not whole
   * within the headers timeout, or not whole within the request timeout, gets its 408; an idle
   * connection is closed after the keep-alive timeout.
   */
  checkTimeouts(now: number): void {
    const server = this.room.server
    const started = this.started
    if (started !== undefined) {
      const { headersTimeout, requestTimeout } = server
      if ((this.need === 0 && headersTimeout > 0 && now - started >= headersTimeout) || (requestTimeout > 0 && now - started >= requestTimeout)) {
        // Once, as node:http drops an expired connection from its checks.
        this.started = undefined
        this.onError(timedOut())
      }
    } else if (this.idle() && server.keepAliveTimeout > 0 && now - this.since >= server.keepAliveTimeout + KEEP_ALIVE_MARGIN_MS) {
      if (!server.emit('timeout', this.socket)) this.socket.destroy()
    }
  }

  private read(chunk: Buffer): void {
    if (this.rest !== undefined) {
      this.rest = Buffer.concat([this.rest, chunk])
      return
    }
    // The request at the chunk's start continues one that waits here, or begins now.
    let continued = this.parts !== undefined
    if (this.parts !== undefined) {
      this.parts.push(chunk)
      this.partsLength += chunk.length
      if (this.partsLength < this.need) return
      chunk = Buffer.concat(this.parts, this.partsLength)
      this.parts = undefined
    }
    const opts = this.room.route()
    this.reading = true
    let at = 0
    while (at < chunk.length) {
      if (!continued) this.started = undefined
      continued = false
      const req = opts === undefined ? NOT_PLAIN : this.reader.read(chunk, at)
      if (req === INCOMPLETE) {
        this.wait(chunk.subarray(at), 0)
        break
      }
      const rpc = req === NOT_PLAIN ? undefined : fastDispatcher(opts!, req.url, req.contentType, req.contentLength, req.host)
      if (rpc === undefined || req === NOT_PLAIN) {
        this.handOver(chunk.subarray(at))
        break
      }
      const end = req.bodyStart + req.contentLength
      if (end > chunk.length) {
        this.wait(chunk.subarray(at), end - at)
        break
      }
      this.started = undefined
      const cors = req.origin === undefined ? '' : headerText(opts!.cors.actual(req.origin, 'POST'))
      const slot: { text: string | undefined } = { text: undefined }
      this.queue.push(slot)
      answerBody(rpc, chunk.toString('utf8', req.bodyStart, end), opts!.log, (status, type, text) => {
        slot.text = this.response(status, type, text, cors)
        this.flush()
      })
      at = end
    }
    this.reading = false
    this.flush()
  }

  /** A request not yet whole waits here for the rest of its bytes (`need` of them; 0 until its head is whole), node:http's clocks running. */
  private wait(bytes: Buffer, need: number): void {
    this.parts = [bytes]
    this.partsLength = bytes.length
    this.need = need
    this.started ??= Date.now()
  }

  /** Writes the answers ready at the head of the queue (all of one read together); then node:http takes over, if it is to. */
  private flush(): void {
    const queue = this.queue
    while (queue.length > 0 && queue[0]!.text !== undefined) this.pendingText += queue.shift()!.text
    if (this.reading) return
    if (this.pendingText !== '') {
      const socket = this.socket
      // A client that does not read its answers stops being read, as node:http pauses it.
      if (socket.writable && !socket.write(this.pendingText) && this.rest === undefined) {
        socket.pause()
        socket.once('drain', () => {
          if (this.rest === undefined) socket.resume()
        })
      }
      this.pendingText = ''
      this.since = Date.now()
    }
    if (queue.length === 0 && this.rest !== undefined) this.toNode()
  }

  /** From the request at the start of `rest` on, the connection is node:http's, once every answer before it is written. */
  private handOver(rest: Buffer): void {
    this.socket.pause()
    this.rest = rest
    // node:http's clocks start again on these bytes once it has them.
    this.started = undefined
  }

  private toNode(): void {
    const { socket, room } = this
    room.sockets.delete(this)
    socket.removeListener('data', this.onData)
    socket.removeListener('end', this.onEnd)
    socket.removeListener('close', this.onClose)
    socket.removeListener('error', this.onError)
    if (this.rest!.length > 0) socket.unshift(this.rest!)
    room.toNode.call(room.server, socket)
    socket.resume()
  }

  private response(status: number, type: string, text: string, cors: string): string {
    return httpResponse(status, type, text, cors, this.room.server.keepAliveTimeout, this.utcDate())
  }

  private utcDate(): string {
    const date = this.room.date
    const now = Date.now()
    if (now >= date.until) {
      date.text = new Date(now).toUTCString()
      date.until = now - (now % 1000) + 1000
    }
    return date.text
  }
}

/**
 * The bytes node:http writes for the fast path's writeHead and end (src/server/rpcFastPath.ts send):
 * status line, the CORS lines, content type and length, then the Date and keep-alive lines it adds.
 */
export function httpResponse(status: number, type: string, text: string, cors: string, keepAliveMs: number, date: string): string {
  return (
    'HTTP/1.1 ' +
    status +
    ' ' +
    STATUS_CODES[status] +
    '\r\n' +
    cors +
    'content-type: ' +
    type +
    '\r\ncontent-length: ' +
    Buffer.byteLength(text) +
    '\r\nDate: ' +
    date +
    (keepAliveMs > 0 ? '\r\nConnection: keep-alive\r\nKeep-Alive: timeout=' + Math.floor(keepAliveMs / 1000) + '\r\n\r\n' : '\r\nConnection: keep-alive\r\n\r\n') +
    text
  )
}

/** CORS header pairs as header lines. */
export function headerText(pairs: HeaderPairs): string {
  let out = ''
  for (const [name, value] of pairs) out += name + ': ' + value + '\r\n'
  return out
}

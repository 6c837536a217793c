import type { Logger } from 'pino'
import type { RawData, WebSocket } from 'ws'
import type { Dispatcher } from '../rpc/dispatch.js'
import type { Connection } from '../rpc/connection.js'

const WS_OPEN = 1

/** What one connection needs from the server. */
export interface WsConnectionOptions {
  readonly id: number
  /** A connection without a pong by the next tick is terminated (docs/SECURITY.md, W7). */
  readonly pingInterval: number
  readonly maxBuffered: number
  readonly maxPending: number
  readonly log: Logger
  /** Called once, when the connection is gone (closed, errored or dropped as a slow consumer). */
  onClosed(): void
}

/** One WebSocket connection of /ext/bc/<chain>/ws: liveness pings, the slow-consumer check, the close callbacks of its subscriptions. */
export function serveWsConnection(socket: WebSocket, rpc: Dispatcher, opts: WsConnectionOptions): void {
  let alive = true
  let closed = false
  /** Frames handed to ws and not yet written to the socket. */
  let pending = 0
  let closeCallbacks: (() => void)[] = []
  const ping = setInterval(() => {
    if (!alive) {
      socket.terminate()
      return
    }
    alive = false
    socket.ping()
  }, opts.pingInterval)
  ping.unref()
  // On close, error or a slow-consumer drop: every subscription and per-connection state goes (docs/SECURITY.md, W6).
  const cleanup = (): void => {
    if (closed) return
    closed = true
    opts.onClosed()
    clearInterval(ping)
    const callbacks = closeCallbacks
    closeCallbacks = []
    for (const cb of callbacks) {
      try {
        cb()
      } catch (err) {
        opts.log.error({ err }, 'websocket close callback failed')
      }
    }
  }
  const written = (): void => {
    pending--
  }
  // Answers and notifications alike pass the slow-consumer check (docs/SECURITY.md, W5).
  const send = (text: string): boolean => {
    if (closed || socket.readyState !== WS_OPEN) return false
    if (socket.bufferedAmount > opts.maxBuffered || pending >= opts.maxPending) {
      socket.close(1008, 'send queue full')
      cleanup()
      return false
    }
    pending++
    socket.send(text, written)
    return true
  }
  const conn: Connection = {
    id: opts.id,
    get closed() {
      return closed
    },
    send,
    onClose(cb) {
      if (closed) cb()
      else closeCallbacks.push(cb)
    },
  }
  socket.on('pong', () => {
    alive = true
  })
  socket.on('message', (data: RawData) => {
    const text = Buffer.isBuffer(data) ? data.toString() : Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(data).toString()
    rpc.handle(text, conn).catch((err: unknown) => opts.log.error({ err }, 'dispatcher failed'))
  })
  socket.on('close', cleanup)
  socket.on('error', cleanup)
}

import WebSocket from 'ws'
import type { TestNode } from './testNode.js'

/*
 * JSON-RPC clients over either transport, so that one test body runs over HTTP and WebSocket
 * (as reth's crates/rpc/rpc-builder/tests/it/http.rs does), and a WebSocket client that keeps
 * eth_subscription notifications apart.
 */

export type Transport = 'http' | 'ws'

/** A whole JSON-RPC response object. */
export interface RpcResponse {
  jsonrpc: '2.0'
  id: unknown
  result?: any
  error?: { code: number; message: string; data?: unknown }
}

/** One eth_subscription notification's params. */
export interface Notification {
  subscription: string
  result: any
}

/** Ids this client gives its own requests start here, far from ids a test writes by hand. */
const FIRST_ID = 1_000_000_000

/**
 * A WebSocket JSON-RPC client: answers are matched to requests by id (answers to raw texts come
 * back in order), notifications are kept per subscription id in arrival order.
 */
export class WsClient {
  /** Every notification, per subscription id, in arrival order. */
  readonly notifications = new Map<string, any[]>()
  /** Every message in arrival order: a notification's subscription id, or 'answer'. */
  readonly arrivals: string[] = []
  private readonly waiting = new Map<number, (r: RpcResponse) => void>()
  private readonly rawWaiting: ((r: any) => void)[] = []
  private readonly watchers = new Set<() => void>()
  private nextId = FIRST_ID
  private closedPromise: Promise<void>

  private constructor(readonly socket: WebSocket) {
    // Listeners before any await (@fastify/websocket README, "Attaching event handlers").
    socket.on('message', (data) => this.onMessage(data.toString()))
    this.closedPromise = new Promise((resolve) => socket.once('close', () => resolve()))
  }

  static async connect(url: string): Promise<WsClient> {
    const client = new WsClient(new WebSocket(url))
    await new Promise<void>((resolve, reject) => {
      client.socket.once('open', () => resolve())
      client.socket.once('error', reject)
    })
    return client
  }

  private onMessage(text: string): void {
    const msg = JSON.parse(text)
    if (!Array.isArray(msg) && msg.method === 'eth_subscription') {
      const { subscription, result } = msg.params as Notification
      let list = this.notifications.get(subscription)
      if (list === undefined) this.notifications.set(subscription, (list = []))
      list.push(result)
      this.arrivals.push(subscription)
      for (const w of this.watchers) w()
      return
    }
    this.arrivals.push('answer')
    const waiter = !Array.isArray(msg) && typeof msg.id === 'number' ? this.waiting.get(msg.id) : undefined
    if (waiter !== undefined) {
      this.waiting.delete(msg.id)
      waiter(msg)
      return
    }
    this.rawWaiting.shift()?.(msg)
  }

  /** One request; resolves to the whole response object. */
  rpc(method: string, params: unknown[] = []): Promise<RpcResponse> {
    const id = this.nextId++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
  }

  /** Sends a text frame as is; resolves to the next answer that is not to an rpc() call. */
  raw(text: string): Promise<any> {
    return new Promise((resolve) => {
      this.rawWaiting.push(resolve)
      this.socket.send(text)
    })
  }

  /** eth_subscribe; resolves to the subscription id, throws on an error answer. */
  async subscribe(...params: unknown[]): Promise<string> {
    const r = await this.rpc('eth_subscribe', params)
    if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code })
    return r.result as string
  }

  /** Notifications received so far for `id`. */
  received(id: string): any[] {
    return this.notifications.get(id) ?? []
  }

  /** Resolves once `done` holds, checked at each notification; fails after `timeoutMs`. */
  until(done: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (done()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check)
        reject(new Error(`timed out waiting for ${what}`))
      }, timeoutMs)
      const check = (): void => {
        if (!done()) return
        clearTimeout(timer)
        this.watchers.delete(check)
        resolve()
      }
      this.watchers.add(check)
    })
  }

  /** Waits until `id` has at least `count` notifications; resolves to them. */
  async waitFor(id: string, count = 1, timeoutMs?: number): Promise<any[]> {
    await this.until(() => this.received(id).length >= count, `${count} notification(s) on ${id}`, timeoutMs)
    return this.received(id)
  }

  /** Closes the socket and waits for the close handshake. */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return
    this.socket.close()
    await this.closedPromise
  }

  /** Drops the TCP connection without a close handshake. */
  async terminate(): Promise<void> {
    this.socket.terminate()
    await this.closedPromise
  }
}

/** The same calls over HTTP or WebSocket. */
export interface RpcClient {
  readonly transport: Transport
  /** One request; resolves to the whole response object. */
  rpc(method: string, params?: unknown[]): Promise<RpcResponse>
  /** One request; resolves to the result, throws (with code and data) on an error answer. */
  call(method: string, params?: unknown[]): Promise<any>
  /** A raw request text (a batch, a malformed request); resolves to the parsed answer. */
  raw(text: string): Promise<any>
  close(): Promise<void>
}

/** A client of `node` over `transport`. */
export async function connectClient(node: TestNode, transport: Transport): Promise<RpcClient> {
  let rpc: (method: string, params?: unknown[]) => Promise<RpcResponse>
  let raw: (text: string) => Promise<any>
  let close: () => Promise<void>
  if (transport === 'ws') {
    const ws = await WsClient.connect(node.wsUrl)
    rpc = (method, params) => ws.rpc(method, params)
    raw = (text) => ws.raw(text)
    close = () => ws.close()
  } else {
    raw = async (text) => {
      const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
      return res.json()
    }
    let id = FIRST_ID
    rpc = (method, params = []) => raw(JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }))
    close = async () => {}
  }
  return {
    transport,
    rpc,
    raw,
    close,
    async call(method, params) {
      const r = await rpc(method, params)
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data })
      return r.result
    },
  }
}

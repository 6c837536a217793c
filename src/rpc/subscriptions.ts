import { randomBytes } from 'node:crypto'
import { limitExceeded, subscriptionNotFound } from './errors.js'
import type { Connection, ConnectionCall } from './connection.js'

/*
 * Server-side subscriptions (geth rpc/subscription.go): ids, per-connection bookkeeping, the
 * per-connection limit (docs/SECURITY.md, W4), isolation (W8), cleanup on close (W6), and notifications
 * whose result JSON is serialized once per event and spliced after each subscription's id.
 */

/** Subscriptions one connection may hold by default (docs/SECURITY.md, W4, chain config `ws-max-subscriptions-per-connection`). */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION = 100

const TAIL = '}}'

/** geth rpc.NewID: 16 random bytes as hex with leading zeros trimmed (an RPC quantity). */
export function newSubscriptionId(): string {
  return '0x' + (randomBytes(16).toString('hex').replace(/^0+/, '') || '0')
}

/** One subscription on one connection; `data` is what its topic needs (a log filter, a flag). */
export class Subscription<T = unknown> {
  /** The notification text up to its result: `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x…","result":`. */
  private readonly head: string
  /** Notifications held until the subscribe answer is written; undefined once active. */
  private held: string[] | undefined = []

  constructor(
    readonly id: string,
    readonly conn: Connection,
    readonly topic: Topic<T>,
    readonly data: T,
    namespace: string,
  ) {
    this.head = `{"jsonrpc":"2.0","method":"${namespace}_subscription","params":{"subscription":"${id}","result":`
  }

  /** Sends one result, given as JSON text. */
  notify(resultJson: string): void {
    const text = this.head + resultJson + TAIL
    if (this.held === undefined) this.conn.send(text)
    else this.held.push(text)
  }

  /** The subscription id has been written to the client: send what was held, then send directly. */
  activate(): void {
    const held = this.held
    if (held === undefined) return
    this.held = undefined
    for (const text of held) if (!this.conn.send(text)) return
  }
}

/**
 * Subscribers to one kind of event. `onActive(true)` runs when the first subscriber arrives and
 * `onActive(false)` when the last one leaves, so event listeners exist only while someone listens.
 */
export class Topic<T = unknown> {
  readonly subscribers = new Set<Subscription<T>>()

  constructor(
    readonly name: string,
    private readonly onActive?: (active: boolean) => void,
  ) {}

  get size(): number {
    return this.subscribers.size
  }

  /** Sends the same result JSON (serialized once by the caller) to every subscriber. */
  publish(resultJson: string): void {
    for (const sub of this.subscribers) sub.notify(resultJson)
  }

  add(sub: Subscription<T>): void {
    this.subscribers.add(sub)
    if (this.subscribers.size === 1) this.onActive?.(true)
  }

  delete(sub: Subscription<T>): void {
    if (this.subscribers.delete(sub) && this.subscribers.size === 0) this.onActive?.(false)
  }
}

export interface SubscriptionManagerOptions {
  /** docs/SECURITY.md, W4. */
  maxPerConnection: number
}

/** Every live subscription, by connection; an id is only found on the connection that opened it (docs/SECURITY.md, W8). */
export class SubscriptionManager {
  private readonly byConnection = new Map<Connection, Map<string, Subscription>>()
  private count = 0

  constructor(private readonly opts: SubscriptionManagerOptions) {}

  /** Live subscriptions, all connections together. */
  get size(): number {
    return this.count
  }

  /** Connections holding at least one subscription. */
  get connections(): number {
    return this.byConnection.size
  }

  /**
   * Opens a subscription on the call's connection; it notifies only once the answer carrying its
   * id has been written (geth Notifier.activate). Over the per-connection limit: -32005.
   */
  open<T>(call: ConnectionCall, topic: Topic<T>, data: T, namespace = 'eth'): string {
    const conn = call.conn
    let subs = this.byConnection.get(conn)
    if (subs !== undefined && subs.size >= this.opts.maxPerConnection) {
      throw limitExceeded(`too many subscriptions on this connection (limit ${this.opts.maxPerConnection})`)
    }
    let id = newSubscriptionId()
    // The answer to a closed connection is never read: nothing to keep.
    if (conn.closed) return id
    if (subs === undefined) {
      subs = new Map()
      this.byConnection.set(conn, subs)
      conn.onClose(() => this.closeConnection(conn))
    }
    while (subs.has(id)) id = newSubscriptionId()
    const sub = new Subscription(id, conn, topic, data, namespace)
    subs.set(id, sub as Subscription)
    this.count++
    topic.add(sub)
    call.afterReply(() => sub.activate())
    return id
  }

  /** eth_unsubscribe: true, or geth's "subscription not found" for an id this connection does not hold. */
  cancel(conn: Connection | undefined, id: string): true {
    const subs = conn === undefined ? undefined : this.byConnection.get(conn)
    const sub = subs?.get(id)
    if (subs === undefined || sub === undefined) throw subscriptionNotFound()
    subs.delete(id)
    this.count--
    sub.topic.delete(sub)
    return true
  }

  /** Drops every subscription of a closed connection (docs/SECURITY.md, W6). */
  private closeConnection(conn: Connection): void {
    const subs = this.byConnection.get(conn)
    if (subs === undefined) return
    this.byConnection.delete(conn)
    for (const sub of subs.values()) sub.topic.delete(sub)
    this.count -= subs.size
    subs.clear()
  }
}

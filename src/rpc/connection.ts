/** A persistent transport connection (a WebSocket) as methods see it. */
export interface Connection {
  /** Unique within the process. */
  readonly id: number
  /** True once the connection closed, errored or was dropped. */
  readonly closed: boolean
  /**
   * Writes one text frame, subject to the connection's slow-consumer limits (docs/SECURITY.md, W5);
   * false when the connection is closed, closing, or was just dropped for being too slow.
   */
  send(text: string): boolean
  /** Runs `cb` once when the connection closes, errors or is dropped (docs/SECURITY.md, W6). */
  onClose(cb: () => void): void
}

/** The connection a request arrived on, for connection-bound methods (eth_subscribe, eth_unsubscribe). */
export interface ConnectionCall {
  readonly conn: Connection
  /**
   * Runs `cb` right after the answer to this request (or to its whole batch) has been written,
   * so that a subscription's first notification never precedes its id (geth rpc Notifier.activate).
   */
  afterReply(cb: () => void): void
}

/** One message received on a connection: what its connection-bound methods see. */
export class MessageCall implements ConnectionCall {
  private after: (() => void)[] | undefined
  constructor(readonly conn: Connection) {}

  afterReply(cb: () => void): void {
    ;(this.after ??= []).push(cb)
  }

  /** The answer has been written: run what waited for it, in registration order. */
  replied(): void {
    const after = this.after
    if (after === undefined) return
    this.after = undefined
    for (const cb of after) cb()
  }
}

/** The node's own APIs, same origin: EVM JSON-RPC (HTTP and the WebSocket's newHeads) and avalanchego's gorilla JSON-RPC. */

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

type Answer = { id?: number; result?: unknown; error?: { code: number; message: string; data?: unknown } }

let nextId = 1

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new RpcError(`${path} answered HTTP ${res.status}: ${(await res.text()).trim()}`, res.status)
  return res.json()
}

function unwrap(answer: Answer): any {
  if (answer.error !== undefined) throw new RpcError(answer.error.message, answer.error.code, answer.error.data)
  return answer.result
}

/** One EVM chain's JSON-RPC at /ext/bc/<path>/rpc. */
export class EvmApi {
  readonly rpcPath: string
  constructor(readonly path: string) {
    this.rpcPath = `/ext/bc/${encodeURIComponent(path)}/rpc`
  }

  async call(method: string, params: unknown[] = []): Promise<any> {
    return unwrap((await post(this.rpcPath, { jsonrpc: '2.0', id: nextId++, method, params })) as Answer)
  }

  /** Several calls in one batch; each answer (or its error) in the calls' order. */
  async batch(calls: readonly { method: string; params: unknown[] }[]): Promise<({ ok: true; value: any } | { ok: false; error: RpcError })[]> {
    if (calls.length === 0) return []
    const first = nextId
    nextId += calls.length
    const answers = (await post(
      this.rpcPath,
      calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })),
    )) as Answer[]
    const byId = new Map(answers.map((a) => [a.id, a]))
    return calls.map((_, i) => {
      const a = byId.get(first + i)
      if (a === undefined) return { ok: false, error: new RpcError('no answer in the batch', -32603) }
      try {
        return { ok: true, value: unwrap(a) }
      } catch (err) {
        return { ok: false, error: err as RpcError }
      }
    })
  }
}

/** A gorilla JSON-RPC call (avalanchego style: `service.method`, one named-object argument). */
export async function gorilla(path: string, method: string, params: Record<string, unknown>): Promise<any> {
  return unwrap((await post(path, { jsonrpc: '2.0', id: nextId++, method, params })) as Answer)
}

/** The same call, undefined on an error answer (a tx one chain does not know). */
export async function gorillaOrUndefined(path: string, method: string, params: Record<string, unknown>): Promise<any> {
  try {
    return await gorilla(path, method, params)
  } catch (err) {
    if (err instanceof RpcError) return undefined
    throw err
  }
}

export type LiveState = 'connecting' | 'live' | 'offline'

/**
 * newHeads over /ext/bc/<path>/ws: `onHead` gets each new header; `onState` the connection's state.
 * A dropped connection is opened again after a pause (1 s, doubling to 10 s).
 */
export function subscribeHeads(path: string, onHead: (header: any) => void, onState: (state: LiveState) => void): () => void {
  let socket: WebSocket | undefined
  let stopped = false
  let delay = 1000
  let timer: number | undefined
  const open = () => {
    onState('connecting')
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(`${scheme}//${location.host}/ext/bc/${encodeURIComponent(path)}/ws`)
    socket = ws
    ws.onopen = () => {
      delay = 1000
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    }
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data))
      if (msg.id === 1 && msg.result !== undefined) onState('live')
      if (msg.method === 'eth_subscription') onHead(msg.params.result)
    }
    ws.onclose = () => {
      if (stopped) return
      onState('offline')
      timer = window.setTimeout(open, delay)
      delay = Math.min(delay * 2, 10_000)
    }
  }
  open()
  return () => {
    stopped = true
    if (timer !== undefined) window.clearTimeout(timer)
    // Closing a socket still connecting makes the browser log an error: let it open first.
    if (socket?.readyState === WebSocket.CONNECTING) socket.onopen = () => socket?.close()
    else socket?.close()
  }
}

import type { z } from 'zod'
import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import type { EthApiName } from '../ethApiNames.js'
import type { Engine } from '../engine/engine.js'
import type { AccountManager } from '../engine/accounts/accounts.js'
import type { SubscriptionManager } from './subscriptions.js'
import type { ConnectionCall } from './connection.js'
import type { AtomicService } from '../atomic/service.js'

/**
 * How a method is enabled: one service name, several (all must be enabled), or `always` for
 * methods served whatever the list says (geth serves any `<ns>_unsubscribe`).
 */
export type ServiceTag = EthApiName | readonly EthApiName[] | 'always'

/** One JSON-RPC method: a params schema parsed once by the dispatcher, and the handler it feeds. */
export interface MethodDef<S extends z.ZodType = z.ZodType> {
  readonly params: S
  /**
   * `call` is set only for a request that arrived on a connection (WebSocket); undefined over HTTP.
   * `origin`: the HTTP peer, passed by the gorilla endpoints (the keystore's per-client back-off).
   * `cancel`: set by the JSON-RPC dispatcher; aborted once the request's deadline passed (docs/SECURITY.md, L11).
   * `raw`: the params as the client sent them, before the schema parsed them (the arity checked, a null in an optional
   * position made absent as geth does); set by the JSON-RPC dispatcher, so a fork can forward a call to its origin verbatim.
   */
  readonly handler: (params: z.output<S>, call?: ConnectionCall, origin?: RequestOrigin, cancel?: RequestCancel, raw?: unknown) => unknown
  /** The coreth `eth-apis` service that serves it (src/rpc/ethApis.ts); unset: by its wire name. */
  readonly service?: ServiceTag
}

/** A request's cancellation: `aborted` turns true once its deadline passed (api-max-duration). */
export interface RequestCancel {
  readonly aborted: boolean
}

/** Where an HTTP request came from. */
export interface RequestOrigin {
  /** The peer's IP address (Fastify `req.ip`). */
  readonly remoteAddress: string
}

/** A namespace: exact wire name -> method. Looked up only through a Map (docs/SECURITY.md, L4). */
export type MethodTable = Record<string, MethodDef>

/** Builds a method entry; the handler's argument type is inferred from the schema. */
export function method<S extends z.ZodType>(params: S, handler: (params: z.output<S>, call?: ConnectionCall, origin?: RequestOrigin, cancel?: RequestCancel, raw?: unknown) => unknown): MethodDef {
  return { params, handler } as MethodDef
}

/** Tags the methods of `table` not tagged yet with the coreth `eth-apis` service that enables them. */
export function inService(service: ServiceTag, table: MethodTable): MethodTable {
  const out: MethodTable = {}
  for (const name of Object.keys(table)) {
    const def = table[name]!
    out[name] = def.service === undefined ? { ...def, service } : def
  }
  return out
}

/** One method tagged with its coreth `eth-apis` service (inside a table of another service). */
export function inServiceOne(service: ServiceTag, def: MethodDef): MethodDef {
  return { ...def, service }
}

/** Merges namespace tables; a duplicate wire name is a programming error, not a silent overwrite. */
export function mergeTables(...tables: MethodTable[]): MethodTable {
  const out: MethodTable = {}
  for (const table of tables) {
    for (const name of Object.keys(table)) {
      if (Object.hasOwn(out, name)) throw new Error(`duplicate method ${name}`)
      out[name] = table[name]!
    }
  }
  return out
}

/** What handlers may reach: built once in node.ts, nothing global. */
export interface RpcContext {
  readonly config: NodeConfig
  readonly log: Logger
  readonly engine: Engine
  /** eth_subscribe bookkeeping: per connection, built once per node. */
  readonly subscriptions: SubscriptionManager
  /** The keystore accounts (`<data-dir>/keystore`) of personal_ and the account methods. */
  readonly accounts: AccountManager
  /** Atomic txs: UTXOs, atomic mempool, atomic tx status (src/atomic/service.ts). */
  readonly atomic: AtomicService
}

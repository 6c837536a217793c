import type { z } from 'zod'
import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import type { Engine } from '../engine/engine.js'

/** One JSON-RPC method: a params schema parsed once by the dispatcher, and the handler it feeds. */
export interface MethodDef<S extends z.ZodType = z.ZodType> {
  readonly params: S
  readonly handler: (params: z.output<S>) => unknown
}

/** A namespace: exact wire name -> method. Looked up only through a Map (LIMITS.md L4). */
export type MethodTable = Record<string, MethodDef>

/** Builds a method entry; the handler's argument type is inferred from the schema. */
export function method<S extends z.ZodType>(params: S, handler: (params: z.output<S>) => unknown): MethodDef {
  return { params, handler } as MethodDef
}

/** Merges namespace tables; a duplicate wire name is a programming error, not a silent overwrite. */
export function mergeTables(...tables: MethodTable[]): MethodTable {
  const out: MethodTable = {}
  for (const table of tables) {
    for (const name of Object.keys(table)) {
      if (Object.prototype.hasOwnProperty.call(out, name)) throw new Error(`duplicate method ${name}`)
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
}

/** JSON-RPC error object as sent on the wire. */
export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

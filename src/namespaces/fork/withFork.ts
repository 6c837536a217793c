import type { Engine } from '../../engine/engine.js'
import type { BlockRef } from '../../engine/types.js'
import { hex, quantity } from '../../rpc/format.js'
import type { MethodDef, MethodTable } from '../../rpc/types.js'
import { OriginUnreachableError } from '../../fork/errors.js'
import { forkLogs, type LogLimits } from './forkLogs.js'
import { blockTarget, hashTarget, type NumberOrTag, stateTarget, type Target, txTarget } from './forkRoutes.js'
import { ABSENT, answerOnly, keepFound, type OriginProxy, type Verdict } from './originProxy.js'

export type Handler = MethodDef['handler']
type Args = Parameters<Handler>

/** Block getters by number or tag (the block at position 0); `keep` judges the origin's answer. */
const BY_NUMBER: Record<string, (r: unknown) => Verdict> = {
  eth_getBlockByNumber: keepFound,
  eth_getHeaderByNumber: keepFound,
  eth_getBlockTransactionCountByNumber: keepFound,
  eth_getTransactionByBlockNumberAndIndex: keepFound,
  eth_getRawTransactionByBlockNumberAndIndex: keepFound,
  eth_getUncleCountByBlockNumber: keepFound,
  eth_getUncleByBlockNumberAndIndex: keepFound,
  debug_traceBlockByNumber: answerOnly,
}

/** Block getters by hash (position 0). */
const BY_HASH: Record<string, (r: unknown) => Verdict> = {
  eth_getBlockByHash: keepFound,
  eth_getHeaderByHash: keepFound,
  eth_getBlockTransactionCountByHash: keepFound,
  eth_getTransactionByBlockHashAndIndex: keepFound,
  eth_getRawTransactionByBlockHashAndIndex: keepFound,
  eth_getUncleCountByBlockHash: keepFound,
  eth_getUncleByBlockHashAndIndex: keepFound,
  debug_traceBlockByHash: answerOnly,
}

/** Block getters by number, tag or hash (an EIP-1898 block reference at position 0). */
const BY_REF: Record<string, (r: unknown) => Verdict> = {
  eth_getBlockReceipts: keepFound,
  debug_getRawHeader: keepFound,
  debug_getRawBlock: keepFound,
  debug_getRawReceipts: keepFound,
}

/** Tx lookups by hash whose answer carries its `blockNumber` (checked against N on the answer itself). */
const TX_NUMBERED = ['eth_getTransactionByHash', 'eth_getTransactionReceipt']
/** Tx lookups by hash whose answer does not: the origin's tx is looked up first. */
const TX_OTHER: Record<string, (r: unknown) => Verdict> = {
  eth_getRawTransactionByHash: keepFound,
  debug_getRawTransaction: keepFound,
  debug_traceTransaction: answerOnly,
}

/** State reads and executions: the position of their block reference, and whether an answer is kept (state before N never changes). */
const STATE: Record<string, { at: number; keep: boolean }> = {
  eth_getBalance: { at: 1, keep: true },
  eth_getCode: { at: 1, keep: true },
  eth_getTransactionCount: { at: 1, keep: true },
  eth_getStorageAt: { at: 2, keep: true },
  eth_getStorageValues: { at: 1, keep: true },
  eth_getProof: { at: 2, keep: true },
  eth_call: { at: 1, keep: false },
  eth_estimateGas: { at: 1, keep: false },
  eth_createAccessList: { at: 1, keep: false },
  eth_simulateV1: { at: 1, keep: false },
  debug_traceCall: { at: 1, keep: false },
}

/**
 * A forked chain's method table (docs/FORK.md, "What a fork serves from its origin"): every served
 * method about blocks up to the fork point N, their txs, receipts and logs, or the state before N,
 * asks the fork's origin (src/namespaces/fork/forkRoutes.ts decides, from the parsed params) and
 * answers what the origin answered; the rest stays the local chain's. Methods the table does not
 * serve stay unserved.
 */
export function withFork(served: MethodTable, proxy: OriginProxy, engine: Engine, limits: LogLimits): MethodTable {
  const out: MethodTable = { ...served }
  const N = proxy.point
  const wrap = (name: string, route: (local: Handler, name: string) => Handler): void => {
    const def = served[name]
    if (def !== undefined) out[name] = { ...def, handler: route(def.handler, name) }
  }
  const localNumber = (hash: Uint8Array): bigint | undefined => engine.findBlock({ blockHash: hash })?.header.number
  /** Asks the origin; an answer not on the fork is the local handler's. */
  const viaOrigin = (local: Handler, args: Args, name: string, params: unknown[], judge: (r: unknown) => Verdict): Promise<unknown> =>
    proxy.ask(name, params, judge).then((r) => (r === ABSENT ? local(...args) : r))

  const byNumber =
    (at: number, judge: (r: unknown) => Verdict) =>
    (local: Handler, name: string) =>
    (...args: Args) => {
      const raw = rawList(args)
      const target = raw === undefined ? undefined : blockTarget((args[0] as unknown[])[at] as NumberOrTag, N, engine.head.header.number)
      if (raw === undefined || target === undefined || !target.origin) return local(...args)
      const params = withBlock(raw, at, target)
      const answer = viaOrigin(local, args, name, params, judge)
      // A tag naming block N: the local copy of that block when the origin cannot be reached.
      return target.at === undefined ? answer : answer.catch((err: unknown) => (err instanceof OriginUnreachableError ? local(...args) : Promise.reject(err)))
    }
  const byHash =
    (judge: (r: unknown) => Verdict) =>
    (local: Handler, name: string) =>
    (...args: Args) => {
      const raw = rawList(args)
      const hash = (args[0] as unknown[])[0] as Uint8Array
      if (raw === undefined || !hashTarget(localNumber(hash), N).origin) return local(...args)
      return originByHash(local, args, name, raw, hash, judge)
    }
  /** A block by hash asked of the origin: eth_getBlockByHash and eth_getHeaderByHash carry their number, the others look the block up first. */
  const originByHash = async (local: Handler, args: Args, name: string, raw: unknown[], hash: Uint8Array, judge: (r: unknown) => Verdict): Promise<unknown> => {
    if (name === 'eth_getBlockByHash' || name === 'eth_getHeaderByHash') return viaOrigin(local, args, name, raw, (r) => proxy.judgeNumbered(r, 'number'))
    if ((await proxy.blockNumber(hex(hash))) === undefined) return local(...args)
    return viaOrigin(local, args, name, raw, judge)
  }

  for (const [name, judge] of Object.entries(BY_NUMBER)) wrap(name, byNumber(0, judge))
  for (const [name, judge] of Object.entries(BY_HASH)) wrap(name, byHash(judge))
  for (const [name, judge] of Object.entries(BY_REF)) {
    wrap(name, (local, wire) => {
      const numbered = byNumber(0, judge)(local, wire)
      const hashed = byHash(judge)(local, wire)
      return (...args) => (typeof (args[0] as BlockRef[])[0] === 'object' ? hashed(...args) : numbered(...args))
    })
  }
  // eth_feeHistory(count, newest, percentiles): a history ending at or before N is the origin's.
  wrap('eth_feeHistory', byNumber(1, answerOnly))

  const localTx = (hash: Uint8Array): 'pooled' | bigint | undefined => {
    const found = engine.transaction(hash)
    if (found === undefined) return undefined
    return 'pooled' in found ? 'pooled' : found.mined.block.header.number
  }
  for (const name of TX_NUMBERED) {
    wrap(name, (local, wire) => (...args) => {
      const raw = rawList(args)
      if (raw === undefined || !txTarget(localTx((args[0] as Uint8Array[])[0]!), N).origin) return local(...args)
      return viaOrigin(local, args, wire, raw, (r) => proxy.judgeNumbered(r, 'blockNumber'))
    })
  }
  for (const [name, judge] of Object.entries(TX_OTHER)) {
    wrap(name, (local, wire) => (...args) => {
      const raw = rawList(args)
      const hash = (args[0] as Uint8Array[])[0]!
      if (raw === undefined || !txTarget(localTx(hash), N).origin) return local(...args)
      return proxy.txBlockNumber(hex(hash)).then((n) => (n === undefined ? local(...args) : viaOrigin(local, args, wire, raw, judge)))
    })
  }

  for (const [name, { at, keep }] of Object.entries(STATE)) {
    const judge = keep ? keepFound : answerOnly
    wrap(name, (local, wire) => (...args) => {
      const raw = rawList(args)
      const ref = (args[0] as unknown[])[at] as BlockRef | undefined
      const target = raw === undefined ? 'local' : stateTarget(ref, N, localNumber)
      if (target === 'local') return local(...args)
      if (target === 'origin') return viaOrigin(local, args, wire, raw!, judge)
      // A hash the local chain does not know: the origin's block, if it is before N (else the local "header for hash not found").
      return proxy.blockNumber(hex((ref as { blockHash: Uint8Array }).blockHash)).then((n) => (n === undefined || n >= N ? local(...args) : viaOrigin(local, args, wire, raw!, judge)))
    })
  }

  wrap('eth_getLogs', (local) => forkLogs(local, proxy, engine, limits))
  return out
}

/** The client's params as a list (the dispatcher's `raw`); undefined when the caller passed none, so the local handler answers. */
export function rawList(args: Args): unknown[] | undefined {
  const raw = args[4]
  return Array.isArray(raw) ? raw : undefined
}

/** The params with the block position set to the target's block (a tag resolved to N), else the client's own. */
function withBlock(raw: unknown[], at: number, target: Target): unknown[] {
  if (!target.origin || target.at === undefined) return raw
  const params = raw.slice()
  params[at] = quantity(target.at)
  return params
}

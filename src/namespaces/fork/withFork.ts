import type { Engine } from '../../engine/engine.js'
import type { Fork } from '../../engine/state/forkPoint.js'
import type { BlockRef } from '../../engine/base/types.js'
import { hex, quantity } from '../../rpc/format.js'
import type { MethodDef, MethodTable } from '../../rpc/types.js'
import { forkLogs, type LogLimits } from './forkLogs.js'
import { blockTarget, hashTarget, type NumberOrTag, stateTarget, txTarget } from './forkRoutes.js'
import { ABSENT, answerOnly, keepFound, numbered, type OriginProxy, type Verdict } from './originProxy.js'

type Handler = MethodDef['handler']
type Args = Parameters<Handler>
type Judge = (result: unknown) => Verdict

/** Block getters by number or tag (the block at position 0), and how the origin's answer is judged. */
const BY_NUMBER: Record<string, Judge> = {
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
const BY_HASH: Record<string, Judge> = {
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
const BY_REF: Record<string, Judge> = {
  eth_getBlockReceipts: keepFound,
  debug_getRawHeader: keepFound,
  debug_getRawBlock: keepFound,
  debug_getRawReceipts: keepFound,
  // A subnet-evm chain's fee config at a block (its state before N is the origin's).
  eth_feeConfig: keepFound,
}

/** Answers that carry their block's number: checked against N on the answer itself. */
const CARRY_NUMBER = new Set(['eth_getBlockByHash', 'eth_getHeaderByHash'])
/** Tx lookups by hash; those whose answer carries its `blockNumber` are checked on it, the others look the origin's tx up first. */
const BY_TX: Record<string, Judge | 'carries'> = {
  eth_getTransactionByHash: 'carries',
  eth_getTransactionReceipt: 'carries',
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
 * A chain's method table that answers as a fork when the chain is one (docs/FORK.md, "What a fork
 * serves from its origin"): every served method about blocks up to the fork point N, their txs,
 * receipts and logs, or the state before N, asks the fork's origin (forkRoutes.ts decides, from the
 * parsed params) and answers what the origin answered; the rest, and everything on a chain that is
 * not a fork, stays the local handler's. Methods the table does not serve stay unserved.
 */
export function withFork(served: MethodTable, proxy: OriginProxy, engine: Engine, limits: LogLimits): MethodTable {
  const out: MethodTable = { ...served }
  /** Replaces a served method's handler: `route` answers on a fork, with the client's raw params. */
  const wrap = (name: string, route: (fork: Fork, raw: unknown[], args: Args, local: Handler) => unknown): void => {
    const def = served[name]
    if (def === undefined) return
    const local = def.handler
    // Named arguments, not a rest array: a chain that is not a fork pays one call here (every state read and block getter comes through).
    const handler: Handler = (params, call, origin, cancel, raw) => {
      const fork = proxy.current()
      return fork === undefined || !Array.isArray(raw) ? local(params, call, origin, cancel, raw) : route(fork, raw, [params, call, origin, cancel, raw], local)
    }
    out[name] = { ...def, handler }
  }
  const localNumber = (hash: Uint8Array): bigint | undefined => engine.findBlock({ blockHash: hash })?.header.number
  /** The origin's answer, or the local handler's when the origin's is not on the fork. */
  const viaOrigin = (fork: Fork, name: string, params: unknown[], judge: Judge, args: Args, local: Handler): Promise<unknown> =>
    proxy.ask(fork, name, params, judge).then((r) => (r === ABSENT ? local(...args) : r))

  const byNumber = (name: string, at: number, judge: Judge) => (fork: Fork, raw: unknown[], args: Args, local: Handler) => {
    const target = blockTarget((args[0] as unknown[])[at] as NumberOrTag, fork.point.number, engine.head.header.number)
    if (!target.origin) return local(...args)
    if (target.at === undefined) return viaOrigin(fork, name, raw, judge, args, local)
    // A tag naming block N: asked as N (the local copy of block N holds its header only, never its txs).
    const params = raw.slice()
    params[at] = quantity(target.at)
    return viaOrigin(fork, name, params, judge, args, local)
  }
  const byHash = (name: string, judge: Judge) => async (fork: Fork, raw: unknown[], args: Args, local: Handler) => {
    const ref = (args[0] as unknown[])[0] as Uint8Array | { blockHash: Uint8Array }
    const hash = ref instanceof Uint8Array ? ref : ref.blockHash
    if (!hashTarget(localNumber(hash), fork.point.number).origin) return local(...args)
    if (CARRY_NUMBER.has(name)) return viaOrigin(fork, name, raw, numbered(fork, 'number'), args, local)
    // Any other answer is looked up once the origin's block is known to be on the fork.
    if ((await proxy.blockNumber(fork, hex(hash))) === undefined) return local(...args)
    return viaOrigin(fork, name, raw, judge, args, local)
  }

  // The pending block is the local head's next one (src/engine/mining/pendingBlock.ts), on a fork too.
  for (const [name, judge] of Object.entries(BY_NUMBER)) {
    const route = byNumber(name, 0, judge)
    wrap(name, (fork, raw, args, local) => ((args[0] as unknown[])[0] === 'pending' ? local(...args) : route(fork, raw, args, local)))
  }
  for (const [name, judge] of Object.entries(BY_HASH)) wrap(name, byHash(name, judge))
  for (const [name, judge] of Object.entries(BY_REF)) {
    const numberedRoute = byNumber(name, 0, judge)
    const hashedRoute = byHash(name, judge)
    wrap(name, (fork, raw, args, local) => (typeof (args[0] as BlockRef[])[0] === 'object' ? hashedRoute : numberedRoute)(fork, raw, args, local))
  }
  // eth_feeHistory(count, newest, percentiles): a history ending at or before N is the origin's.
  wrap('eth_feeHistory', byNumber('eth_feeHistory', 1, answerOnly))

  const localTx = (hash: Uint8Array): 'pooled' | bigint | undefined => {
    const found = engine.transaction(hash)
    if (found === undefined) return undefined
    return 'pooled' in found ? 'pooled' : found.mined.block.header.number
  }
  for (const [name, judge] of Object.entries(BY_TX)) {
    wrap(name, async (fork, raw, args, local) => {
      const hash = (args[0] as Uint8Array[])[0]!
      if (!txTarget(localTx(hash), fork.point.number).origin) return local(...args)
      if (judge === 'carries') return viaOrigin(fork, name, raw, numbered(fork, 'blockNumber'), args, local)
      if ((await proxy.txBlockNumber(fork, hex(hash))) === undefined) return local(...args)
      return viaOrigin(fork, name, raw, judge, args, local)
    })
  }

  for (const [name, { at, keep }] of Object.entries(STATE)) {
    // State at a block before N never changes: an empty code or a zero slot is kept too.
    const judge: Judge = keep ? () => 'cache' : answerOnly
    wrap(name, (fork, raw, args, local) => {
      const ref = (args[0] as unknown[])[at] as BlockRef | undefined
      const target = stateTarget(ref, fork.point.number, localNumber)
      if (target === 'local') return local(...args)
      if (target === 'origin') return viaOrigin(fork, name, raw, judge, args, local)
      // A hash the local chain does not know: the origin's block, if it is before N (else the local "header for hash not found").
      return proxy
        .blockNumber(fork, hex((ref as { blockHash: Uint8Array }).blockHash))
        .then((n) => (n === undefined || n >= fork.point.number ? local(...args) : viaOrigin(fork, name, raw, judge, args, local)))
    })
  }

  wrap('eth_getLogs', (fork, raw, args, local) => forkLogs(fork, raw, args, local, proxy, engine, limits))
  return out
}

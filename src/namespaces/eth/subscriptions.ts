import { z } from 'zod'
import type { Block } from '../../engine/chain/block.js'
import type { BlockRef } from '../../engine/base/types.js'
import { type LogCriteria, logMatches } from '../../engine/logs/logFilter.js'
import type { Receipt } from '../../engine/chain/receipt.js'
import type { PoolTx } from '../../engine/pool/txPool.js'
import { invalidParams, notificationsUnsupported, unknownSubscription } from '../../rpc/errors.js'
import { formatHeaderJSON, formatLog, formatTx, hex } from '../../rpc/format.js'
import { Bool, FilterId, type LogFilterRequest } from '../../rpc/schemas.js'
import { chainLogFilter } from './filters.js'
import { Topic } from '../../rpc/subscriptions.js'
import { type MethodTable, type RpcContext, inServiceOne, method } from '../../rpc/types.js'

/** A `logs` subscription's filter; numbered bounds restrict delivered logs (geth filters.filterLogs). */
interface LogSubscription {
  criteria: LogCriteria
  from: bigint | undefined
  to: bigint | undefined
}

/** geth rpc.BlockNumber values of the tags (rpc/types.go). */
const EARLIEST = -5n
const SAFE = -4n
const FINALIZED = -3n
const LATEST = -2n
const PENDING = -1n

function blockNumberOf(ref: Exclude<BlockRef, { blockHash: Uint8Array }> | undefined): bigint {
  switch (ref) {
    case undefined:
    case 'latest':
      return LATEST
    case 'pending':
      return PENDING
    case 'safe':
      return SAFE
    case 'finalized':
      return FINALIZED
    case 'earliest':
      return EARLIEST
    default:
      return ref
  }
}

/** geth EventSystem.SubscribeLogs: which block ranges a subscription accepts, with geth 1.16's errors. */
function logSubscription(f: LogFilterRequest | undefined): LogSubscription {
  if (f === undefined) return { criteria: { addresses: [], topics: [] }, from: undefined, to: undefined }
  let from = blockNumberOf(f.fromBlock)
  const to = blockNumberOf(f.toBlock)
  if (from === PENDING || to === PENDING) throw invalidParams('pending logs are not supported')
  // The history is never pruned here: the cutoff geth maps `earliest` to is block 0.
  if (from === EARLIEST) from = 0n
  const ok = (from === LATEST && to === LATEST) || (from >= 0n && to >= 0n && to >= from) || (from >= 0n && to === LATEST)
  if (!ok) throw invalidParams('invalid block range params')
  return {
    criteria: { addresses: f.addresses, topics: f.topics },
    from: typeof f.fromBlock === 'bigint' ? f.fromBlock : undefined,
    to: typeof f.toBlock === 'bigint' ? f.toBlock : undefined,
  }
}

/** `true` for full transaction objects (geth's `fullTx *bool`; null or absent = hashes). */
function fullTxFlag(params: readonly unknown[]): boolean {
  if (params.length < 2 || params[1] === undefined) return false
  const parsed = Bool.safeParse(params[1])
  if (!parsed.success) throw invalidParams(`invalid argument 1: ${parsed.error.issues[0]!.message}`)
  return parsed.data
}

/**
 * eth_subscribe / eth_unsubscribe (geth eth/filters/api.go, coreth's newAcceptedTransactions, geth
 * eth/downloader/api.go for `syncing`). Engine listeners exist only while a topic has subscribers;
 * each event's result is serialized once and shared by every subscriber.
 */
export function ethSubscriptionMethods(ctx: Pick<RpcContext, 'engine' | 'subscriptions' | 'config'>): MethodTable {
  const { engine, subscriptions } = ctx
  const LogFilter = chainLogFilter(ctx.config.chain)
  const chainEvents = engine.headEvents
  const poolEvents = engine.events

  let headListening = false
  let poolListening = false
  const listen = (): void => {
    const head = newHeads.size + logs.size + accepted.size > 0
    if (head !== headListening) {
      headListening = head
      if (head) chainEvents.on('head', onHead)
      else chainEvents.off('head', onHead)
    }
    const pool = pending.size > 0
    if (pool !== poolListening) {
      poolListening = pool
      if (pool) poolEvents.on('pendingTx', onPendingTx)
      else poolEvents.off('pendingTx', onPendingTx)
    }
  }
  const newHeads = new Topic<null>('newHeads', listen)
  const logs = new Topic<LogSubscription>('logs', listen)
  /** data: full transaction objects rather than hashes. */
  const pending = new Topic<boolean>('newPendingTransactions', listen)
  const accepted = new Topic<boolean>('newAcceptedTransactions', listen)
  // This node never syncs: geth's downloader sends nothing to a `syncing` subscriber until a sync starts.
  const syncing = new Topic<null>('syncing')

  function onHead(block: Block, receipts: readonly Receipt[]): void {
    if (newHeads.size > 0) newHeads.publish(JSON.stringify(formatHeaderJSON(block)))
    if (logs.size > 0) publishLogs(block, receipts)
    if (accepted.size > 0) {
      for (const tx of block.txs) {
        const hash = JSON.stringify(hex(tx.hash()))
        let full: string | undefined
        for (const sub of accepted.subscribers) sub.notify(sub.data ? (full ??= JSON.stringify(formatTx(tx))) : hash)
      }
    }
  }

  /** One notification per matching log, in block order; each log's JSON is built once, when first matched. */
  function publishLogs(block: Block, receipts: readonly Receipt[]): void {
    const number = block.header.number
    let logIndex = 0
    for (let txIndex = 0; txIndex < receipts.length; txIndex++) {
      let txHash: string | undefined
      for (const log of receipts[txIndex]!.logs) {
        let json: string | undefined
        for (const sub of logs.subscribers) {
          const f = sub.data
          if ((f.from !== undefined && number < f.from) || (f.to !== undefined && number > f.to) || !logMatches(f.criteria, log)) continue
          txHash ??= hex(block.txs[txIndex]!.hash())
          json ??= JSON.stringify(formatLog({ log, block, txIndex, logIndex }, txHash))
          sub.notify(json)
        }
        logIndex++
      }
    }
  }

  function onPendingTx(ptx: PoolTx): void {
    const hash = JSON.stringify(ptx.hash)
    let full: string | undefined
    for (const sub of pending.subscribers) sub.notify(sub.data ? (full ??= JSON.stringify(formatTx(ptx.tx))) : hash)
  }

  /** Per name: how many arguments after the name (geth's callback arity), and how to open it. */
  // biome-ignore lint/suspicious/noExplicitAny: each kind opens a topic of its own payload type
  const kinds = new Map<string, { arity: number; open: (params: readonly unknown[]) => [Topic<any>, unknown] }>([
    ['newHeads', { arity: 0, open: () => [newHeads, null] }],
    [
      'logs',
      {
        arity: 1,
        open: (params) => {
          // geth: the filter is a non-pointer argument, so it is required ({} or null for "all logs").
          if (params.length < 2) throw invalidParams('missing value for required argument 1')
          let f: LogFilterRequest | undefined
          if (params[1] !== undefined) {
            const parsed = LogFilter.safeParse(params[1])
            if (!parsed.success) throw invalidParams(`invalid argument 1: ${parsed.error.issues[0]!.message}`)
            f = parsed.data
          }
          return [logs, logSubscription(f)]
        },
      },
    ],
    ['newPendingTransactions', { arity: 1, open: (params) => [pending, fullTxFlag(params)] }],
    ['newAcceptedTransactions', { arity: 1, open: (params) => [accepted, fullTxFlag(params)] }],
    ['syncing', { arity: 0, open: () => [syncing, null] }],
  ])

  return {
    /**
     * Handler for `eth_subscribe`. Arguments are checked in geth's order (rpc/handler.go
     * handleSubscribe): transport, name, then the named subscription's own arguments.
     */
    eth_subscribe: inServiceOne(
      'eth-filter',
      method(z.tuple([z.unknown().optional()], z.unknown()), (params, call) => {
        if (call === undefined) throw notificationsUnsupported()
        const name = params[0]
        if (typeof name !== 'string') throw invalidParams('expected subscription name as first argument')
        const kind = kinds.get(name)
        if (kind === undefined) throw unknownSubscription('eth', name)
        if (params.length > kind.arity + 1) throw invalidParams(`too many arguments, want at most ${kind.arity + 1}`)
        const [topic, data] = kind.open(params)
        return subscriptions.open(call, topic, data)
      }),
    ),
    /** Handler for `eth_unsubscribe`: true, or -32000 `subscription not found` (also over HTTP, as geth). */
    eth_unsubscribe: inServiceOne(
      'always',
      method(z.tuple([FilterId]), ([id], call) => subscriptions.cancel(call?.conn, id)),
    ),
  }
}

/**
 * `eth_subscribe` while `eth-filter` is off: geth's rpc handler still answers the call itself
 * (rpc/handler.go handleSubscribe) but finds no subscription in the `eth` namespace.
 */
export function ethSubscribeDisabled(): MethodTable {
  return {
    /** Handler for `eth_subscribe` without the eth-filter service. */
    eth_subscribe: inServiceOne(
      'always',
      method(z.tuple([z.unknown().optional()], z.unknown()), (params, call) => {
        if (call === undefined) throw notificationsUnsupported()
        const name = params[0]
        if (typeof name !== 'string') throw invalidParams('expected subscription name as first argument')
        throw unknownSubscription('eth', name)
      }),
    ),
  }
}

import { z } from 'zod'
import { hex, logsJson } from '../../rpc/format.js'
import { FilterId, logFilterSchema, type LogFilterRequest } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'
import type { ChainConfigFile } from '../../config.js'
import { checkNotPending, type LogQuery } from '../../engine/logs/logQuery.js'

function toQuery(f: LogFilterRequest): LogQuery {
  const q: LogQuery = { criteria: { addresses: f.addresses, topics: f.topics } }
  if (f.blockHash !== undefined) q.blockHash = f.blockHash
  if (f.fromBlock !== undefined) q.fromBlock = f.fromBlock
  if (f.toBlock !== undefined) q.toBlock = f.toBlock
  return q
}

/** The log filter schema under a chain config's `logs-max-addresses` and `logs-max-topic-alternatives`. */
export function chainLogFilter(chain: ChainConfigFile): ReturnType<typeof logFilterSchema> {
  return logFilterSchema({ maxAddresses: chain['logs-max-addresses'], maxTopicAlternatives: chain['logs-max-topic-alternatives'] })
}

/** Logs and polling filters (geth eth/filters/api.go). */
export function ethFilterMethods(ctx: Pick<RpcContext, 'engine' | 'config'>): MethodTable {
  const { engine } = ctx
  const { filters } = engine
  const LogFilter = chainLogFilter(ctx.config.chain)
  return inService('eth-filter', {
    /** Handler for `eth_getLogs`. */
    eth_getLogs: method(z.tuple([LogFilter]), async ([f], _call, _origin, cancel) => logsJson(await engine.getLogs(toQuery(f), cancel))),
    /** Handler for `eth_newFilter`: numbered bounds are fixed, tags follow the head. */
    eth_newFilter: method(z.tuple([LogFilter]), ([f]) => {
      if (f.blockHash === undefined) checkNotPending(f)
      const bounds = {
        from: typeof f.fromBlock === 'bigint' ? f.fromBlock : f.fromBlock === 'earliest' ? 0n : undefined,
        to: typeof f.toBlock === 'bigint' ? f.toBlock : f.toBlock === 'earliest' ? 0n : undefined,
      }
      return filters.newLogFilter({ addresses: f.addresses, topics: f.topics }, bounds, f.blockHash)
    }),
    /** Handler for `eth_newBlockFilter`. */
    eth_newBlockFilter: method(z.tuple([]), () => filters.newBlockFilter()),
    /** Handler for `eth_newPendingTransactionFilter`. */
    eth_newPendingTransactionFilter: method(z.tuple([z.boolean().nullish()]), () => filters.newPendingTransactionFilter()),
    /** Handler for `eth_getFilterChanges`: logs, or block / transaction hashes, since the last poll. */
    eth_getFilterChanges: method(z.tuple([FilterId]), ([id]) => {
      const c = filters.changes(id)
      if (c.kind === 'logs') return logsJson(c.logs)
      return c.hashes.map((h) => (typeof h === 'string' ? h : hex(h)))
    }),
    /** Handler for `eth_getFilterLogs`: the whole query of a log filter, run now. */
    eth_getFilterLogs: method(z.tuple([FilterId]), async ([id]) => {
      const f = filters.logFilter(id)
      const q: LogQuery = { criteria: f.criteria }
      if (f.blockHash !== undefined) q.blockHash = f.blockHash
      else {
        if (f.bounds.from !== undefined) q.fromBlock = f.bounds.from
        if (f.bounds.to !== undefined) q.toBlock = f.bounds.to
      }
      return logsJson(await engine.getLogs(q))
    }),
    /** Handler for `eth_uninstallFilter`. */
    eth_uninstallFilter: method(z.tuple([FilterId]), ([id]) => filters.uninstall(id)),
  })
}

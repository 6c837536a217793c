import type { Chain } from '../chain/chain.js'
import { EngineError, InvalidParamsError, NotFoundError, RequestTimeoutError } from '../base/errors.js'
import type { Cancellation } from '../exec/evmGuard.js'
import type { LogCriteria } from './logFilter.js'
import type { FoundLog, LogIndex } from './logIndex.js'
import type { BlockRef } from '../base/types.js'

/** eth_getLogs stops scanning after this many ms (docs/SECURITY.md, E4), then -32002. */
const LOG_QUERY_TIMEOUT_MS = 5000

/** The bounds of one eth_getLogs: the engine's `logs` option. */
export interface LogLimits {
  /** Widest eth_getLogs block range; 0 = no limit (`api-max-blocks-per-request`). */
  maxBlockRange: bigint
  /** Logs one query answers at most (`logs-max-results`). */
  maxResults: number
}

/** A log query after parsing: one block by hash, or a range of numbers/tags. */
export interface LogQuery {
  blockHash?: Uint8Array
  fromBlock?: Exclude<BlockRef, { blockHash: Uint8Array }>
  toBlock?: Exclude<BlockRef, { blockHash: Uint8Array }>
  criteria: LogCriteria
}

/** A block reference of a log query as a number: tags follow the head (`pending` was refused before). */
function blockNumberOf(chain: Chain, ref: LogQuery['fromBlock']): bigint {
  if (ref === 'safe' || ref === 'finalized') return chain.opts.helicon ? chain.lastSettled().header.number : chain.head.header.number
  if (ref === undefined || typeof ref === 'string') return ref === 'earliest' ? 0n : chain.head.header.number
  return ref
}

/** geth filters: pending logs are not supported (eth/filters/filter.go Logs, filter_system.go SubscribeLogs), -32602. */
export function checkNotPending(q: Pick<LogQuery, 'fromBlock' | 'toBlock'>): void {
  if (q.fromBlock === 'pending' || q.toBlock === 'pending') throw new InvalidParamsError('pending logs are not supported')
}

/** eth_getLogs (geth filters.GetLogs, coreth's api-max-blocks-per-request); a scan stops after 5 s. */
export async function queryLogs(chain: Chain, logs: LogIndex, q: LogQuery, limits: LogLimits, cancel?: Cancellation): Promise<FoundLog[]> {
  if (q.blockHash !== undefined) {
    const block = chain.blockByHash(q.blockHash)
    if (block === undefined) throw new NotFoundError('unknown block')
    return logs.inBlock(q.criteria, block)
  }
  checkNotPending(q)
  const from = blockNumberOf(chain, q.fromBlock)
  const to = blockNumberOf(chain, q.toBlock)
  if (from > to) throw new InvalidParamsError('invalid block range params')
  if (to > chain.head.header.number) throw new InvalidParamsError('block range extends beyond current head block')
  const max = limits.maxBlockRange
  if (max > 0n && to - from >= max) {
    throw new EngineError(`requested too many blocks from ${from} to ${to}, maximum is set to ${max}`)
  }
  const deadline = performance.now() + LOG_QUERY_TIMEOUT_MS
  return logs.find(q.criteria, from, to, limits.maxResults, () => {
    if (performance.now() > deadline || cancel?.aborted === true) throw new RequestTimeoutError()
  })
}

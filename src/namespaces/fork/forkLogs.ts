import type { ChainConfigFile } from '../../config.js'
import type { Engine } from '../../engine/engine.js'
import { EngineError, InvalidParamsError, LimitExceededError } from '../../engine/base/errors.js'
import { hex, logsJson, quantity } from '../../rpc/format.js'
import { RawJson } from '../../rpc/rawJson.js'
import type { LogFilterRequest } from '../../rpc/schemas.js'
import type { MethodDef } from '../../rpc/types.js'
import { hashTarget, type NumberOrTag, splitLogRange } from './forkRoutes.js'
import type { OriginProxy, Verdict } from './originProxy.js'
import type { Fork } from '../../engine/state/forkPoint.js'

type Handler = MethodDef['handler']
type Args = Parameters<Handler>

/** The node's eth_getLogs limits, on the whole range a fork answers (coreth api-max-blocks-per-request, logs-max-results). */
export interface LogLimits {
  /** Widest range (0 = none). */
  readonly maxBlockRange: bigint
  /** Logs one query answers at most. */
  readonly maxResults: number
}

/** The limits of a chain config. */
export function logLimits(chain: ChainConfigFile): LogLimits {
  return { maxBlockRange: BigInt(chain['api-max-blocks-per-request']), maxResults: chain['logs-max-results'] }
}

/** A range bound as a number: tags are the local head, `earliest` block 0 (src/engine/logs/logQuery.ts). */
function boundOf(ref: NumberOrTag | undefined, head: bigint): bigint {
  if (ref === undefined || typeof ref === 'string') return ref === 'earliest' ? 0n : head
  return ref
}

/**
 * eth_getLogs on a fork: the part of the range up to the fork point N is the origin's (its query with
 * toBlock clipped to N), the part after N the local chain's, concatenated in block order; the range
 * and result limits hold on the whole, with the local chain's texts. A blockHash query is the origin's
 * for a block at or before N.
 */
export async function forkLogs(fork: Fork, raw: unknown[], args: Args, local: Handler, proxy: OriginProxy, engine: Engine, limits: LogLimits): Promise<unknown> {
  const N = fork.point.number
  const f = (args[0] as LogFilterRequest[])[0]!
  const filter = raw[0] as Record<string, unknown>
  if (f.blockHash !== undefined) {
    if (!hashTarget(engine.findBlock({ blockHash: f.blockHash })?.header.number, N).origin) return local(...args)
    // A block of the origin after N is not on the fork: the local "unknown block".
    if ((await proxy.blockNumber(fork, hex(f.blockHash))) === undefined) return local(...args)
    return proxy.ask(fork, 'eth_getLogs', raw, keepAll)
  }
  // The local handler answers geth's "pending logs are not supported".
  if (f.fromBlock === 'pending' || f.toBlock === 'pending') return local(...args)
  const head = engine.head.header.number
  const from = boundOf(f.fromBlock, head)
  const to = boundOf(f.toBlock, head)
  if (from > N) return local(...args)
  // The local checks (src/engine/logs/logQuery.ts), on the whole range.
  if (from > to) throw new InvalidParamsError('invalid block range params')
  if (to > head) throw new InvalidParamsError('block range extends beyond current head block')
  const max = limits.maxBlockRange
  if (max > 0n && to - from >= max) throw new EngineError(`requested too many blocks from ${from} to ${to}, maximum is set to ${max}`)
  const split = splitLogRange(from, to, N)
  const part = split.origin!
  const asked = (await proxy.ask(fork, 'eth_getLogs', [{ ...filter, fromBlock: quantity(part.from), toBlock: quantity(part.to) }], keepAll)) as RawJson
  const originCount = asked.text === '[]' ? 0 : (JSON.parse(asked.text) as unknown[]).length
  const tooMany = (): never => {
    throw new LimitExceededError(`query returned more than ${limits.maxResults} results`)
  }
  if (originCount > limits.maxResults) tooMany()
  if (split.local === undefined) return asked
  const found = await engine.getLogs({ criteria: { addresses: f.addresses, topics: f.topics }, fromBlock: split.local.from, toBlock: split.local.to }, args[3])
  if (originCount + found.length > limits.maxResults) tooMany()
  if (found.length === 0) return asked
  const localText = logsJson(found).text
  return originCount === 0 ? new RawJson(localText) : new RawJson(asked.text.slice(0, -1) + ',' + localText.slice(1))
}

/** Logs of a range or block at or before N never change: kept, an empty list too. */
const keepAll = (): Verdict => 'cache'

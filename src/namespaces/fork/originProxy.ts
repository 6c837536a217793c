import type { Logger } from 'pino'
import type { Fork } from '../../engine/state/forkPoint.js'
import { OriginRpcError } from '../../fork/errors.js'
import { RpcError } from '../../rpc/errors.js'
import { hex } from '../../rpc/format.js'
import { RawJson } from '../../rpc/rawJson.js'
import type { OriginCache } from '../../store/originCache.js'
import { onFork } from './forkRoutes.js'

/** What an origin's answer is to this fork: kept for good (`cache`), answered once (`answer`), or not on the fork (`absent`: the local chain answers). */
export type Verdict = 'cache' | 'answer' | 'absent'

/** The origin's answer is not about this fork (a block or tx after N, or unknown): answer as the local chain does. */
export const ABSENT: unique symbol = Symbol('absent')

/** A found block, tx, receipt or raw encoding never changes; null (not found) may, so it is not kept. */
export const keepFound = (result: unknown): Verdict => (result === null || result === '0x' ? 'answer' : 'cache')
/** Answered, never kept (traces, executions). */
export const answerOnly = (): Verdict => 'answer'

/**
 * Calls a fork's origin on behalf of a client: the answer goes back verbatim (its JSON text), an
 * origin's JSON-RPC error with the origin's own code, message and data (a proxied call is
 * transparent), and an answer about the origin's immutable history is cached (src/store/originCache.ts)
 * so a restarted fork answers it without the origin. The fork is the chain's current one
 * (`current`): anvil_reset may fork again, elsewhere or at another block.
 */
export class OriginProxy {
  constructor(
    /** The chain's fork now; undefined on a chain of its own. */
    readonly current: () => Fork | undefined,
    private readonly cache: OriginCache,
    private readonly log: Logger,
  ) {}

  /** The origin's answer to `method(params)`, or ABSENT when `judge` says it is not on this fork. */
  async ask(fork: Fork, method: string, params: unknown[], judge: (result: unknown) => Verdict): Promise<RawJson | typeof ABSENT> {
    const scope = fork.point.hash
    const hit = this.cache.get(scope, method, params) ?? forkBlockJson(fork, method, params)
    if (hit !== undefined) return new RawJson(hit)
    const result = await fork.origin.call(method, params).catch(relay)
    const verdict = judge(result)
    if (verdict === 'absent') return ABSENT
    const text = JSON.stringify(result) ?? 'null'
    if (verdict === 'cache') {
      // A cache entry that failed to land (the database closing) is only fetched again.
      await this.cache.put(scope, method, params, text).catch((err: unknown) => this.log.debug({ err, method }, 'fork origin answer not cached'))
    }
    return new RawJson(text)
  }

  /** The number of the origin's block with this hash (0x-hex), when that block is on the fork (at or before N). */
  async blockNumber(fork: Fork, hash: string): Promise<bigint | undefined> {
    const found = await this.ask(fork, 'eth_getBlockByHash', [hash, false], numbered(fork, 'number'))
    return found === ABSENT ? undefined : BigInt((JSON.parse(found.text) as { number: string }).number)
  }

  /** The number of the origin's block that mined this tx (0x-hex), when it is on the fork (mined at or before N). */
  async txBlockNumber(fork: Fork, hash: string): Promise<bigint | undefined> {
    const found = await this.ask(fork, 'eth_getTransactionByHash', [hash], numbered(fork, 'blockNumber'))
    return found === ABSENT ? undefined : BigInt((JSON.parse(found.text) as { blockNumber: string }).blockNumber)
  }
}

/**
 * Block N without its txs, as the fork record holds it (the origin's eth_getBlockByNumber answer when
 * the fork started), for eth_getBlockByNumber / eth_getBlockByHash naming N with `false`: so the fork's
 * first block needs no origin, ever.
 */
function forkBlockJson(fork: Fork, method: string, params: unknown[]): string | undefined {
  if (params[1] !== false || typeof params[0] !== 'string') return undefined
  const ref = params[0].toLowerCase()
  const { point } = fork
  if (method === 'eth_getBlockByNumber') return /^0x[0-9a-f]+$/.test(ref) && BigInt(ref) === point.number ? point.blockJson : undefined
  if (method === 'eth_getBlockByHash') return ref === hex(point.hash) ? point.blockJson : undefined
  return undefined
}

/** A block, tx or receipt of the origin: kept when its `field` (number, blockNumber) is at or before N, else not on the fork. */
export function numbered(fork: Fork, field: 'number' | 'blockNumber'): (result: unknown) => Verdict {
  return (result) => {
    if (result === null || typeof result !== 'object') return 'absent'
    return onFork((result as Record<string, unknown>)[field], fork.point.number) ? 'cache' : 'absent'
  }
}

/** An origin's JSON-RPC error answered as the origin answered it; anything else (the origin unreachable) as it is. */
function relay(err: unknown): never {
  if (err instanceof OriginRpcError) throw new RpcError(err.code, err.originMessage, err.data)
  throw err
}

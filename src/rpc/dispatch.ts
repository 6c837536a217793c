// The global `performance` is a getter in Node 20: each read of it is a call.
import { performance } from 'node:perf_hooks'
import type { z } from 'zod'
import type { Logger } from 'pino'
import { type Connection, MessageCall } from './connection.js'
import type { MethodDef, MethodTable } from './types.js'
import { resultJson } from './rawJson.js'
import { batchNeedsRawIds, needsRawId, rawIds } from './rawIds.js'
import { batchTooLargeText } from './batchTooLarge.js'
import { RpcStats, type MethodStats } from './stats.js'
import { depthExceeds, isThenable } from './depthExceeds.js'
import { type Cancel, answerWithin, batchWithin } from './deadline.js'
import { SLOW, quickTuple } from './quickParse.js'
import {
  PARSE_ERROR,
  INVALID_REQUEST,
  REQUEST_TIMED_OUT,
  zodParamsError,
  invalidParams,
  invalidRequest,
  methodNameTooLong,
  methodNotFound,
  parseError,
  requestTimedOut,
  responseTooLarge,
  toJsonRpcError,
  type JsonRpcErrorObject,
} from './errors.js'

/** Default longest accepted method name (geth rpc/handler.go maxMethodNameLength). */
export const MAX_METHOD_NAME_LENGTH = 2048
/** Default deepest accepted params nesting (docs/SECURITY.md, L8). */
export const MAX_PARAMS_DEPTH = 128

export interface DispatcherOptions {
  /** coreth `batch-request-limit` (docs/SECURITY.md, L6). */
  batchRequestLimit: number
  /** coreth `batch-response-max-size` in bytes (docs/SECURITY.md, L7). */
  batchResponseMaxSize: number
  /** coreth `api-max-duration` in ms: the deadline of a request, a batch as a whole (docs/SECURITY.md, L11); 0 or absent = none. */
  requestTimeoutMs?: number
  /** Longest method name; longer is -32601 (docs/SECURITY.md, L4); default MAX_METHOD_NAME_LENGTH. */
  maxMethodNameLength?: number
  /** Deepest params nesting; deeper is -32600 (docs/SECURITY.md, L8); default MAX_PARAMS_DEPTH. */
  maxParamsDepth?: number
  log: Logger
  /** Request, latency and error counters (/ext/metrics); a private instance when absent. */
  stats?: RpcStats
}

/** A method with what the dispatcher precomputes about its params schema. */
interface Entry {
  readonly def: MethodDef
  /** Positional (z.tuple) params: arity is checked before the schema runs. */
  readonly tuple: boolean
  /** Tuple items; -1 when the tuple has a rest element (no upper bound). */
  readonly max: number
  /** Number of leading items that must be present. */
  readonly required: number
  /** z.tuple([]): the schema is skipped, the handler gets []. */
  readonly empty: boolean
  /** Calls and latency of this method (/ext/metrics). */
  readonly stats: MethodStats
  /** The schema's result made without zod for plain valid params (src/rpc/quickParse.ts), else SLOW. */
  readonly quick?: (list: unknown[]) => unknown[] | typeof SLOW
}

type Obj = Record<string, unknown>
/** A response text, or its promise when a call answers asynchronously. */
export type Answer = string | undefined | Promise<string | undefined>

const HEAD = '{"jsonrpc":"2.0","id":'
const errorText = (idText: string, err: JsonRpcErrorObject): string => HEAD + idText + ',"error":' + JSON.stringify(err) + '}'
const PARSE_ERROR_TEXT = errorText('null', parseError().toObject())
const INVALID_REQUEST_JSON = JSON.stringify(invalidRequest().toObject())
const INVALID_REQUEST_TEXT = errorText('null', invalidRequest().toObject())
const EMPTY_BATCH_TEXT = errorText('null', invalidRequest('empty batch').toObject())
const TOO_LARGE_JSON = JSON.stringify(responseTooLarge().toObject())
const TIMED_OUT_JSON = JSON.stringify(requestTimedOut().toObject())
const NO_PARAMS: readonly unknown[] = Object.freeze([])

/** Id as response text; undefined = absent (notification), null = not a valid id (docs/SECURITY.md, L3). */
function idToText(id: unknown, raw: string | undefined): string | undefined | null {
  if (typeof id === 'number') return raw ?? '' + id
  if (typeof id === 'string') return JSON.stringify(id)
  if (id === undefined) return undefined
  return id === null ? 'null' : null
}

function describeSchema(def: MethodDef, stats: MethodStats): Entry {
  const zod = (def.params as z.ZodType)._zod
  if (zod.def.type !== 'tuple') return { def, tuple: false, max: -1, required: 0, empty: false, stats }
  const tdef = zod.def as unknown as { items: z.ZodType[]; rest: z.ZodType | null }
  const items = tdef.items
  let required = 0
  for (let i = 0; i < items.length; i++) if (items[i]!._zod.optin === undefined) required = i + 1
  const max = tdef.rest === null ? items.length : -1
  return { def, tuple: true, max, required, empty: max === 0, stats, quick: quickTuple(def.params) }
}

/**
 * JSON-RPC 2.0 over any transport: takes a request body, returns the response text
 * (undefined when there is nothing to send: notifications only). Envelope rules follow
 * geth rpc/json.go and docs/SECURITY.md, L3-L8.
 */
export class Dispatcher {
  private readonly methods = new Map<string, Entry>()
  private readonly batchRequestLimit: number
  private readonly batchResponseMaxSize: number
  private readonly requestTimeoutMs: number
  private readonly maxMethodNameLength: number
  private readonly maxParamsDepth: number
  /** A body shorter than this cannot hold params nested deeper than maxParamsDepth (two bytes a level). */
  private readonly depthCheckMinBody: number
  private readonly log: Logger
  private readonly stats: RpcStats
  /** Inside a batch's loop: when the last call's clock read was, the next call's start (one read a call, not two). */
  private clock: number | undefined
  /** The method asked last: clients ask the same few methods over and over, and a name fresh from JSON.parse is hashed anew for the map. */
  private lastName = ''
  private lastEntry: Entry | undefined

  constructor(table: MethodTable, opts: DispatcherOptions) {
    this.stats = opts.stats ?? new RpcStats()
    for (const name of Object.keys(table)) this.methods.set(name, describeSchema(table[name]!, this.stats.method(name)))
    this.batchRequestLimit = opts.batchRequestLimit
    this.batchResponseMaxSize = opts.batchResponseMaxSize
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 0
    this.maxMethodNameLength = opts.maxMethodNameLength ?? MAX_METHOD_NAME_LENGTH
    this.maxParamsDepth = opts.maxParamsDepth ?? MAX_PARAMS_DEPTH
    this.depthCheckMinBody = 2 * this.maxParamsDepth
    this.log = opts.log
  }

  /**
   * Handles one HTTP body (resolves to the response text; undefined when there is nothing to
   * send) or one message received on `conn`: then the answer is written to `conn` by the
   * dispatcher itself, before the first notification of any subscription the message opened
   * (geth handler.handleMsg), and the promise resolves to undefined.
   */
  handle(body: string, conn?: Connection): Promise<string | undefined> {
    return conn === undefined ? Promise.resolve(this.answer(body, undefined)) : this.answerOn(body, conn)
  }

  /** One HTTP body as handle() answers it, but synchronously when every call answered synchronously (the server's fast path). */
  respond(body: string): Answer {
    return this.answer(body, undefined)
  }

  private async answerOn(body: string, conn: Connection): Promise<undefined> {
    const call = new MessageCall(conn)
    const out = await this.answer(body, call)
    if (out !== undefined) conn.send(out)
    call.replied()
    return undefined
  }

  private answer(body: string, scope: MessageCall | undefined): Answer {
    let msg: unknown
    try {
      msg = JSON.parse(body)
    } catch {
      this.stats.error(PARSE_ERROR)
      return PARSE_ERROR_TEXT
    }
    const deep = body.length > this.depthCheckMinBody
    const debug = this.log.isLevelEnabled('debug')
    if (Array.isArray(msg)) return this.batch(msg, body, deep, debug, scope)
    if (msg === null || typeof msg !== 'object') return this.invalid(INVALID_REQUEST_TEXT)
    // JSON.parse rounds integers past 2^53 and reprints 1e3 as 1000: echo the raw token instead (docs/SECURITY.md, L5).
    const raw = needsRawId((msg as Obj).id, body) ? rawIds(body)[0] : undefined
    const cancel: Cancel | undefined = this.requestTimeoutMs > 0 ? { aborted: false } : undefined
    const answer = this.call(msg as Obj, raw, deep, debug, scope, cancel)
    if (typeof answer === 'string' || answer === undefined || cancel === undefined) return answer
    const idText = idToText((msg as Obj).id, raw)
    return answerWithin(answer, this.requestTimeoutMs, cancel, () => {
      this.stats.error(REQUEST_TIMED_OUT)
      return idText == null ? undefined : HEAD + idText + ',"error":' + TIMED_OUT_JSON + '}'
    })
  }

  private batch(items: unknown[], body: string, deep: boolean, debug: boolean, scope: MessageCall | undefined): Answer {
    if (items.length === 0) return this.invalid(EMPTY_BATCH_TEXT)
    if (items.length > this.batchRequestLimit) return this.invalid(batchTooLargeText(items, body))
    const raws = batchNeedsRawIds(items, body) ? rawIds(body) : []
    const answers: Answer[] = new Array(items.length)
    const cancel: Cancel | undefined = this.requestTimeoutMs > 0 ? { aborted: false } : undefined
    let sync = true
    const outer = this.clock
    this.clock = performance.now()
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      // A nested batch or a non-object is an invalid request (one error per such item, as geth).
      const a = item === null || typeof item !== 'object' || Array.isArray(item) ? this.invalid(INVALID_REQUEST_TEXT) : this.call(item as Obj, raws[i], deep, debug, scope, cancel)
      if (typeof a === 'object') sync = false
      answers[i] = a
    }
    this.clock = outer
    // Every call answered at once (eth_blockNumber and the like): no promise to wait for.
    if (sync) return this.joinBatch(answers as (string | undefined)[], items, raws)
    const done =
      cancel === undefined
        ? Promise.all(answers)
        : batchWithin(answers, this.requestTimeoutMs, cancel, (i) => {
            const idText = idToText((items[i] as Obj).id, raws[i])
            this.stats.error(REQUEST_TIMED_OUT)
            return idText === undefined ? undefined : HEAD + (idText ?? 'null') + ',"error":' + TIMED_OUT_JSON + '}'
          })
    return done.then((texts) => this.joinBatch(texts, items, raws))
  }

  /** A batch's answers as one array text, under the response size limit; undefined when all were notifications. */
  private joinBatch(done: (string | undefined)[], items: unknown[], raws: (string | undefined)[]): string | undefined {
    const limit = this.batchResponseMaxSize
    let out = ''
    let count = 0
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the answers are counted in bytes only once 3 bytes a unit could pass the limit.
    let units = 0
    let size = -1
    let tooLarge = false
    for (let i = 0; i < done.length; i++) {
      let text = done[i]
      if (text === undefined) continue
      if (tooLarge) {
        const item = items[i]
        const idText = item !== null && typeof item === 'object' ? idToText((item as Obj).id, raws[i]) : null
        text = HEAD + (idText ?? 'null') + ',"error":' + TOO_LARGE_JSON + '}'
      }
      if (size !== -1) size += Buffer.byteLength(text)
      else if ((units += text.length) * 3 > limit) size = Buffer.byteLength(out) - count + Buffer.byteLength(text)
      // geth handleBatch: the answer that crosses the limit is kept, every later one gets -32003.
      if (size > limit) tooLarge = true
      out += out === '' ? '[' + text : ',' + text
      count++
    }
    return out === '' ? undefined : out + ']'
  }

  /** One request object; undefined for a notification. */
  private call(req: Obj, raw: string | undefined, deep: boolean, debug: boolean, scope: MessageCall | undefined, cancel: Cancel | undefined): Answer {
    const idText = idToText(req.id, raw)
    if (idText === null) return this.invalid(INVALID_REQUEST_TEXT)
    const name = req.method
    // geth parsePositionalArguments: `"params": null` is no params; any other non-array is -32602 "non-array args" (invoke).
    const params = req.params ?? undefined
    if (req.jsonrpc !== '2.0' || typeof name !== 'string' || name === '') {
      // Without a valid envelope it is not a notification either: answer with id null (geth isNotification).
      return this.invalid(idText === undefined ? INVALID_REQUEST_TEXT : HEAD + idText + ',"error":' + INVALID_REQUEST_JSON + '}')
    }
    if (!debug) return this.run(name, params, idText, deep, scope, cancel)
    const t0 = performance.now()
    const answer = this.run(name, params, idText, deep, scope, cancel)
    const done = (): void => {
      this.log.debug({ method: name.slice(0, 64), id: idText, ms: +(performance.now() - t0).toFixed(3) }, 'rpc call')
    }
    if (typeof answer === 'string' || answer === undefined) done()
    else void answer.finally(done)
    return answer
  }

  private run(name: string, params: unknown, idText: string | undefined, deep: boolean, scope: MessageCall | undefined, cancel: Cancel | undefined): Answer {
    if (name.length > this.maxMethodNameLength) return this.reply(idText, methodNameTooLong())
    let entry = name === this.lastName ? this.lastEntry : undefined
    if (entry === undefined) {
      entry = this.methods.get(name)
      if (entry === undefined) return this.reply(idText, methodNotFound(name))
      this.lastName = name
      this.lastEntry = entry
    }
    const inBatch = this.clock !== undefined
    const t0 = inBatch ? this.clock! : performance.now()
    const answer = this.invoke(entry, params, idText, deep, scope, cancel)
    const stats = entry.stats
    if (typeof answer === 'string' || answer === undefined) {
      const t1 = performance.now()
      stats.observe(t1 - t0)
      if (inBatch) this.clock = t1
      return answer
    }
    if (inBatch) this.clock = performance.now()
    return answer.then((text) => {
      stats.observe(performance.now() - t0)
      return text
    })
  }

  private invoke(entry: Entry, params: unknown, idText: string | undefined, deep: boolean, scope: MessageCall | undefined, cancel: Cancel | undefined): Answer {
    if (deep && depthExceeds(params, this.maxParamsDepth)) return this.reply(idText, invalidRequest('params nested too deeply'))
    let args: unknown
    if (entry.tuple) {
      if (params === undefined) args = NO_PARAMS
      else if (!Array.isArray(params)) return this.reply(idText, invalidParams('non-array args'))
      else args = params
      const list = args as unknown[]
      if (entry.max >= 0 && list.length > entry.max) return this.reply(idText, invalidParams(`too many arguments, want at most ${entry.max}`))
      if (list.length < entry.required) return this.reply(idText, invalidParams(`missing value for required argument ${list.length}`))
      // geth: null in an optional position is the same as leaving the argument out.
      for (let i = entry.required; i < list.length; i++) {
        if (list[i] === null) {
          args = list.map((v, j) => (j >= entry.required && v === null ? undefined : v))
          break
        }
      }
    } else {
      // Named-argument methods (gorilla/rpc json2, as avalanchego serves them) also accept [ {…} ].
      args = params === undefined ? {} : Array.isArray(params) && params.length === 1 ? params[0] : params
    }
    // What the client sent (arity checked, null-as-absent applied), kept for a handler that forwards it (a fork's origin proxy).
    const raw = args
    const quick = entry.quick === undefined ? SLOW : entry.quick(args as unknown[])
    if (quick !== SLOW) {
      args = quick
    } else if (!entry.empty) {
      const parsed = entry.def.params.safeParse(args)
      if (!parsed.success) return this.reply(idText, zodParamsError(parsed.error))
      args = parsed.data
    } else if (args === NO_PARAMS) {
      args = []
    }
    let result: unknown
    try {
      result = entry.def.handler(args, scope, undefined, cancel, raw)
    } catch (err) {
      return this.reply(idText, err)
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => this.result(idText, value),
        (err: unknown) => this.reply(idText, err),
      )
    }
    return this.result(idText, result)
  }

  private result(idText: string | undefined, value: unknown): string | undefined {
    if (idText === undefined) return undefined
    let json: string | undefined
    try {
      json = resultJson(value)
    } catch (err) {
      return this.reply(idText, err)
    }
    return HEAD + idText + ',"result":' + (json === undefined ? 'null' : json) + '}'
  }

  /** Counts a canned -32600 answer. */
  private invalid(text: string): string {
    this.stats.error(INVALID_REQUEST)
    return text
  }

  private reply(idText: string | undefined, err: unknown): string | undefined {
    const obj = toJsonRpcError(err, this.log)
    this.stats.error(obj.code)
    return idText === undefined ? undefined : errorText(idText, obj)
  }
}

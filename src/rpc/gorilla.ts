/**
 * avalanchego's JSON-RPC for its non-EVM APIs (/ext/info, /ext/health, /ext/bc/C/admin): gorilla/rpc
 * v2 json2 v1.2.0 behind avalanchego utils/json/codec.go. Differs from the geth
 * style of /rpc: `service.method` names (the first letter after the dot must be lower-case), one
 * named-object argument (or `[ {…} ]`), no batches, and every method or argument error is -32000
 * with `"data":null`; only the envelope errors keep -32700/-32600, with the request echoed as data.
 */
import { z } from 'zod'
import type { Logger } from 'pino'
import type { MethodDef, MethodTable, RequestOrigin } from './types.js'
import { MAX_PARAMS_DEPTH } from './dispatch.js'
import { depthExceeds, isThenable } from './depthExceeds.js'
import { rawIds } from './rawIds.js'
import { RawJson } from './rawJson.js'
import { RpcStats, type MethodStats } from './stats.js'
import { INVALID_REQUEST, PARSE_ERROR, SERVER_ERROR, toGorillaError } from './errors.js'

export { APIError } from './errors.js'

/** avalanchego utils/json/codec.go errInvalidArg. */
export const ERR_INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"
/** avalanchego utils/json/codec.go errUppercaseMethod. */
export const ERR_UPPERCASE_METHOD = 'method must start with a non-uppercase letter'

/** A Go `string` field: absent or null is the zero value "". */
export const GoString = z
  .string()
  .nullish()
  .transform((v) => v ?? '')

interface Entry {
  readonly def: MethodDef
  readonly stats: MethodStats
  /** Keys of the object schema, for Go's case-insensitive field matching. */
  readonly keys: readonly string[]
}

type Obj = Record<string, unknown>

const UPPER = /^\p{Lu}/u

/** The Go encoder's escaping of <, >, &, U+2028 and U+2029 in JSON text. */
function goEscape(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/** Go's json.Marshal of a value (the Go encoder also escapes <, > and &). */
function goJson(value: unknown): string {
  return goEscape(JSON.stringify(value) ?? 'null')
}

/**
 * A result as Go's encoder writes it: a RawJson field (json.RawMessage, e.g. getTx's `tx` for
 * `encoding: "json"`) spliced in as it is, with the same HTML escaping Go applies to it.
 */
function goResultJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).some((v) => v instanceof RawJson)) return goJson(value)
  const fields = Object.entries(value).filter(([, v]) => v !== undefined)
  return '{' + fields.map(([k, v]) => goJson(k) + ':' + (v instanceof RawJson ? goEscape(v.text) : goJson(v))).join(',') + '}'
}

/** The Go type name gorilla's decoder reports for a JSON value it cannot put into a field. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array'
  if (v === null) return 'null'
  return typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v
}

/**
 * Go's encoding/json field matching: an exact key wins, else a case-insensitive one; unknown keys
 * are ignored (zod's default strip does the rest).
 */
function matchFields(input: Obj, keys: readonly string[]): Obj {
  if (keys.length === 0) return input
  let out: Obj | undefined
  for (const k of Object.keys(input)) {
    if (keys.includes(k)) continue
    const lower = k.toLowerCase()
    const key = keys.find((s) => s.toLowerCase() === lower)
    if (key !== undefined && !Object.hasOwn(input, key)) (out ??= { ...input })[key] = input[k]
  }
  return out ?? input
}

/**
 * One gorilla rpc server: a table of `service.method` wire names (`info.getNetworkID`), each with a
 * z.object params schema. `handle()` takes the raw body and returns the exact response text
 * (`json.Encoder` output: key order jsonrpc, result|error, id and a trailing newline).
 */
export class GorillaDispatcher {
  private readonly methods = new Map<string, Entry>()
  private readonly services = new Set<string>()
  private readonly stats: RpcStats

  /**
   * `unknownMethodCode`: the code of `rpc: can't find method` (gorilla: -32000). The P-Chain answers
   * its out-of-scope staking, subnet and validator methods -32601, as issue 7 asks.
   */
  constructor(
    table: MethodTable,
    private readonly opts: { log: Logger; stats?: RpcStats; unknownMethodCode?: number },
  ) {
    this.stats = opts.stats ?? new RpcStats()
    for (const name of Object.keys(table)) {
      const dot = name.indexOf('.')
      if (dot <= 0 || name.indexOf('.', dot + 1) !== -1) throw new Error(`gorilla method ${name} must be service.method`)
      const def = table[name]!
      const shape = (def.params as unknown as { shape?: Record<string, unknown> }).shape
      this.methods.set(name, { def, stats: this.stats.method(name), keys: shape === undefined ? [] : Object.keys(shape) })
      this.services.add(name.slice(0, dot))
    }
  }

  /** Handles one POST body; '' = nothing to send (a notification: no id, or id null). `origin` reaches handlers. */
  async handle(body: string, origin?: RequestOrigin): Promise<string> {
    let msg: unknown
    try {
      msg = JSON.parse(body)
    } catch (err) {
      this.stats.error(PARSE_ERROR)
      return this.envelopeError(PARSE_ERROR, body.trim() === '' ? 'EOF' : (err as Error).message, {})
    }
    if (msg === null) {
      // Go decodes `null` into the zero request: no version, no id, so no answer at all.
      this.stats.error(INVALID_REQUEST)
      return ''
    }
    if (typeof msg !== 'object' || Array.isArray(msg)) {
      // encoding/json reports a top-level non-object (a batch too) as an unmarshal type error.
      this.stats.error(PARSE_ERROR)
      return this.envelopeError(PARSE_ERROR, `json: cannot unmarshal ${jsonKind(msg)} into Go value of type json2.serverRequest`, {})
    }
    const req = msg as Obj
    // gorilla keeps the id as json.RawMessage: numbers are echoed as written (1e400, 1.0, 2^64).
    const rawId = typeof req.id === 'number' ? (rawIds(body)[0] ?? String(req.id)) : undefined
    for (const field of ['jsonrpc', 'method'] as const) {
      const v = req[field]
      if (v !== undefined && v !== null && typeof v !== 'string') {
        this.stats.error(PARSE_ERROR)
        return this.envelopeError(PARSE_ERROR, `json: cannot unmarshal ${jsonKind(v)} into Go struct field serverRequest.${field} of type string`, req, rawId)
      }
    }
    if (req.jsonrpc !== '2.0') {
      this.stats.error(INVALID_REQUEST)
      return this.envelopeError(INVALID_REQUEST, 'jsonrpc must be 2.0', req, rawId)
    }
    // gorilla echoes the raw id token; null or absent = a notification, answered with no body.
    const idText = req.id === undefined || req.id === null ? undefined : (rawId ?? goJson(req.id))
    const name = typeof req.method === 'string' ? req.method : ''
    const debug = this.opts.log.isLevelEnabled('debug')
    const t0 = performance.now()
    const out = await this.run(name, req.params, idText, origin)
    if (debug) this.opts.log.debug({ method: name.slice(0, 64), id: idText, ms: +(performance.now() - t0).toFixed(3) }, 'api call')
    return out
  }

  private async run(name: string, params: unknown, idText: string | undefined, origin?: RequestOrigin): Promise<string> {
    // avalanchego's codec upper-cases the first letter after the dot; gorilla splits on every dot.
    const dot = name.indexOf('.')
    let internal = name
    if (dot !== -1) {
      const fn = name.slice(dot + 1)
      if (UPPER.test(fn)) return this.error(idText, ERR_UPPERCASE_METHOD)
      const first = String.fromCodePoint(fn.codePointAt(0) ?? 0)
      if (fn !== '') internal = name.slice(0, dot + 1) + first.toUpperCase() + fn.slice(first.length)
    }
    const parts = internal.split('.')
    if (parts.length !== 2) return this.error(idText, `rpc: service/method request ill-formed: ${goJson(internal)}`)
    if (!this.services.has(parts[0]!)) return this.error(idText, `rpc: can't find service ${goJson(internal)}`)
    const entry = this.methods.get(name)
    if (entry === undefined) return this.error(idText, `rpc: can't find method ${goJson(internal)}`, this.opts.unknownMethodCode)
    const args = this.args(entry, params)
    if (args === undefined) return this.error(idText, ERR_INVALID_ARG)
    const t0 = performance.now()
    try {
      let result = entry.def.handler(args, undefined, origin)
      if (isThenable(result)) result = await result
      return this.result(idText, result)
    } catch (err) {
      const { code, message } = toGorillaError(err, this.opts.log, name)
      return this.error(idText, message, code)
    } finally {
      entry.stats.observe(performance.now() - t0)
    }
  }

  /** gorilla json2 ReadRequest: an object, else `[ object ]`; null, absent or `[]` = zero values. */
  private args(entry: Entry, params: unknown): unknown {
    let obj: unknown = params
    if (Array.isArray(params)) obj = params[0]
    if (obj === undefined || obj === null) obj = {}
    if (typeof obj !== 'object' || Array.isArray(obj)) return undefined
    if (depthExceeds(obj, MAX_PARAMS_DEPTH)) return undefined
    const parsed = entry.def.params.safeParse(matchFields(obj as Obj, entry.keys))
    return parsed.success ? (parsed.data ?? {}) : undefined
  }

  private result(idText: string | undefined, value: unknown): string {
    if (idText === undefined) return ''
    return '{"jsonrpc":"2.0","result":' + goResultJson(value ?? {}) + ',"id":' + idText + '}\n'
  }

  /** A method-level error: code -32000, data null (gorilla json2 WriteError with a plain error). */
  private error(idText: string | undefined, message: string, code = SERVER_ERROR): string {
    this.stats.error(code)
    if (idText === undefined) return ''
    return '{"jsonrpc":"2.0","error":{"code":' + code + ',"message":' + goJson(message) + ',"data":null},"id":' + idText + '}\n'
  }

  /**
   * -32700/-32600 from gorilla's request decoding: data is the decoded request (serverRequest) and
   * the answer is sent even without an id for a parse error (json2 isParseErrorResponse).
   */
  private envelopeError(code: number, message: string, req: Obj, rawId?: string): string {
    const str = (v: unknown): string => (typeof v === 'string' ? v : '')
    const raw = (v: unknown): unknown => (v === undefined ? null : v)
    const hasId = req.id !== undefined && req.id !== null
    if (code !== PARSE_ERROR && !hasId) return ''
    const idText = rawId ?? (hasId ? goJson(req.id) : 'null')
    const data = '{"jsonrpc":' + goJson(str(req.jsonrpc)) + ',"method":' + goJson(str(req.method)) + ',"params":' + goJson(raw(req.params)) + ',"id":' + idText + '}'
    return '{"jsonrpc":"2.0","error":{"code":' + code + ',"message":' + goJson(message) + ',"data":' + data + '},"id":' + idText + '}\n'
  }
}

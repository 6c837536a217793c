/**
 * JSON-RPC error codes: the only file that knows the numbers, and the one place where a domain
 * error thrown by a handler becomes a code and message, for the geth-style /rpc (toJsonRpcError)
 * and for the gorilla-style endpoints (toGorillaError: /avax, /native, /ext/info, /ext/health,
 * /ext/keystore, X, P, admin). Codes are geth's (rpc/errors.go, internal/ethapi/errors.go) and,
 * on the gorilla side, avalanchego's (utils/json/codec.go, gorilla/rpc json2: -32000 for every
 * method error).
 *
 *   -32700  parse error            body is not JSON
 *   -32600  invalid request        envelope, empty/oversized/nested batch, nesting too deep
 *   -32601  method not found       unknown, disabled or prototype names
 *   -32602  invalid params         arity, schema failures, InvalidParamsError
 *   -32603  internal error         anything unexpected (the cause is logged, never sent)
 *   -32000  server error           any other domain error (geth's default code; gorilla's E_SERVER)
 *   -32002  request timed out      request deadline (api-max-duration), RequestTimeoutError
 *   -32003  response too large     batch response over batch-response-max-size
 *   -32005  limit exceeded         LimitExceededError, TooManyAttemptsError (a throttled keystore client)
 *   -38026  client limit exceeded  geth clientLimitExceededError (eth_getStorageValues slot cap)
 *        3  execution reverted     ExecutionRevertedError, data = return data (geth internal/ethapi/errors.go)
 *   -32603 / -32000               TxFailedInBlockError: hardhat node's answer to a send that failed in its block
 *   -38010..-38026, -32015        eth_simulateV1's SimulateError kinds and failed calls (SIMULATE_CODES below)
 */
import { z } from 'zod'
import type { Logger } from 'pino'
import { EngineError, ExecutionRevertedError, InvalidParamsError, LimitExceededError, RequestTimeoutError, SimulateError, type SimulateErrorKind, TxFailedInBlockError } from '../engine/base/errors.js'
import { AvalancheError } from '../avalanche/errors.js'
import { KeystoreError, TooManyAttemptsError } from '../keystore/errors.js'
import { ProfilerError } from '../profiler.js'
import { ForkError } from '../fork/errors.js'

/** JSON-RPC error object as sent on the wire. */
export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603
export const SERVER_ERROR = -32000
export const REQUEST_TIMED_OUT = -32002
export const RESPONSE_TOO_LARGE = -32003
export const LIMIT_EXCEEDED = -32005
export const CLIENT_LIMIT_EXCEEDED = -38026
export const EXECUTION_REVERTED = 3
/** geth errCodeVMError: a simulated call that failed for a reason other than REVERT. */
export const VM_ERROR = -32015

/** geth internal/ethapi/errors.go codes of eth_simulateV1's errors. */
const SIMULATE_CODES: Record<SimulateErrorKind, number> = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  feeCapTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  initCodeTooLarge: -38025,
  clientLimitExceeded: CLIENT_LIMIT_EXCEEDED,
  invalidParams: INVALID_PARAMS,
  internal: INTERNAL_ERROR,
}

/** An error that already carries its JSON-RPC code (thrown by the dispatcher or a handler). */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data }
  }
}

/** -32700, geth's text. */
export function parseError(): RpcError {
  return new RpcError(PARSE_ERROR, 'parse error')
}

/** -32600. */
export function invalidRequest(msg = 'invalid request'): RpcError {
  return new RpcError(INVALID_REQUEST, msg)
}

/** -32601 with geth's text (rpc/errors.go methodNotFoundError). */
export function methodNotFound(name: string): RpcError {
  return new RpcError(METHOD_NOT_FOUND, `the method ${name} does not exist/is not available`)
}

/** -32602. */
export function invalidParams(msg: string): RpcError {
  return new RpcError(INVALID_PARAMS, msg)
}

/** -32601 for names over the length limit (not echoed back). */
export function methodNameTooLong(): RpcError {
  return new RpcError(METHOD_NOT_FOUND, 'method name too long')
}

/** -32601 for eth_subscribe without a connection (HTTP): geth rpc/errors.go notificationsUnsupportedError. */
export function notificationsUnsupported(): RpcError {
  return new RpcError(METHOD_NOT_FOUND, 'notifications not supported')
}

/** -32601 for an unknown subscription name: geth rpc/errors.go subscriptionNotFoundError. */
export function unknownSubscription(namespace: string, name: string): RpcError {
  return new RpcError(METHOD_NOT_FOUND, `no ${JSON.stringify(name)} subscription in ${namespace} namespace`)
}

/** -32000 for an id this connection does not hold: geth rpc/subscription.go ErrSubscriptionNotFound. */
export function subscriptionNotFound(): RpcError {
  return new RpcError(SERVER_ERROR, 'subscription not found')
}

/** -32005: a per-connection or per-query limit (docs/SECURITY.md W4 and others). */
export function limitExceeded(msg: string): RpcError {
  return new RpcError(LIMIT_EXCEEDED, msg)
}

/** -32003, geth's text (rpc/errors.go errMsgResponseTooLarge). */
export function responseTooLarge(): RpcError {
  return new RpcError(RESPONSE_TOO_LARGE, 'response too large')
}

/** -32002, geth's text (rpc/errors.go errMsgTimeout): the request's deadline passed. */
export function requestTimedOut(): RpcError {
  return new RpcError(REQUEST_TIMED_OUT, 'request timed out')
}

/**
 * geth's wording for a bad positional argument: `invalid argument N: <reason>` (rpc/json.go
 * parseArgumentArray). Only the first issue is reported, as geth stops at the first bad argument.
 */
/** Marks a params issue geth raises after decoding the arguments (params of a custom zod issue): its text alone, -32000. */
export const AFTER_DECODE = { afterDecode: true } as const

/** A failed params parse: -32602 `invalid argument N: ...`, or an AFTER_DECODE issue's own text as a -32000 error. */
export function zodParamsError(err: z.ZodError): Error {
  const issue = err.issues[0]
  if (issue?.code === 'custom' && issue.params?.afterDecode === true) return new EngineError(issue.message)
  return invalidParams(formatZodError(err))
}

export function formatZodError(err: z.ZodError): string {
  const issue = err.issues[0]
  if (issue === undefined) return 'invalid params'
  const head = issue.path[0]
  if (typeof head === 'number') return `invalid argument ${head}: ${issue.message}`
  if (issue.path.length > 0) return `invalid argument ${issue.path.map(String).join('.')}: ${issue.message}`
  return issue.message
}

function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/**
 * The errors whose message is meant for the client: every layer's domain errors (engine, Avalanche
 * primitives, atomic, X/P chains, keystore, profiler). Each endpoint answers them with their own text.
 */
export function isDomainError(err: unknown): err is Error {
  return err instanceof EngineError || err instanceof AvalancheError || err instanceof KeystoreError || err instanceof ProfilerError || err instanceof ForkError
}

/** A client over a limit: a query's result cap, or a keystore client throttled after failed passwords (docs/SECURITY.md E4, K5). */
function isLimitExceeded(err: unknown): err is Error {
  return err instanceof LimitExceededError || err instanceof TooManyAttemptsError
}

/** Maps anything thrown by dispatch or a handler to the wire error; unknown causes are logged, never sent. */
export function toJsonRpcError(err: unknown, log?: Logger): JsonRpcErrorObject {
  if (err instanceof RpcError) return err.toObject()
  if (err instanceof ExecutionRevertedError) return { code: EXECUTION_REVERTED, message: err.message, data: toHex(err.returnData) }
  if (err instanceof SimulateError) return { code: SIMULATE_CODES[err.kind], message: err.message }
  if (err instanceof TxFailedInBlockError) return txFailedInBlock(err)
  if (err instanceof InvalidParamsError) return { code: INVALID_PARAMS, message: err.message }
  if (isLimitExceeded(err)) return { code: LIMIT_EXCEEDED, message: err.message }
  if (err instanceof RequestTimeoutError) return { code: REQUEST_TIMED_OUT, message: err.message }
  if (isDomainError(err)) return { code: SERVER_ERROR, message: err.message }
  if (err instanceof z.ZodError) return toJsonRpcError(zodParamsError(err))
  log?.error({ err }, 'internal error in JSON-RPC handler')
  return { code: INTERNAL_ERROR, message: 'internal error' }
}

/** hardhat node's answer to a send whose transaction failed in its automined block: -32000 when it ran out of gas, else -32603. */
function txFailedInBlock(err: TxFailedInBlockError): JsonRpcErrorObject {
  return { code: err.outOfGas ? SERVER_ERROR : INTERNAL_ERROR, message: err.message, data: { message: err.message, txHash: err.txHash, data: toHex(err.returnData) } }
}

/**
 * A gorilla service method's failure that already carries its final message: -32000 (gorilla json2
 * E_SERVER) unless `code` says otherwise. Handlers throw it for the API's own checks ("no addresses
 * provided"); domain errors need no wrapping (toGorillaError maps them).
 */
export class APIError extends Error {
  override name = 'APIError'
  constructor(
    message: string,
    readonly code: number = SERVER_ERROR,
  ) {
    super(message)
  }
}

/**
 * The gorilla answer to anything a handler threw: an APIError as it says, a domain error with its
 * message (-32005 when over a limit, else -32000, as avalanchego answers every method error), and
 * anything else `internal error` (-32000), logged and never sent.
 */
export function toGorillaError(err: unknown, log?: Logger, method?: string): { code: number; message: string } {
  if (err instanceof APIError) return { code: err.code, message: err.message }
  if (isDomainError(err)) return { code: isLimitExceeded(err) ? LIMIT_EXCEEDED : SERVER_ERROR, message: err.message }
  log?.error({ err, method }, 'internal error in API handler')
  return { code: SERVER_ERROR, message: 'internal error' }
}

/**
 * Runs `run` (sync or async); a domain error it throws becomes an APIError reading `context` +
 * its message, with the code toGorillaError gives it: avalanchego's `fmt.Errorf("problem ...: %w", err)`.
 * Anything else (an APIError included) passes through unchanged.
 */
export function withContext<T>(context: string, run: () => T): T {
  const wrap = (err: unknown): never => {
    if (!isDomainError(err)) throw err
    const { code, message } = toGorillaError(err)
    throw new APIError(context + message, code)
  }
  let out: T
  try {
    out = run()
  } catch (err) {
    return wrap(err)
  }
  return (out instanceof Promise ? out.catch(wrap) : out) as T
}

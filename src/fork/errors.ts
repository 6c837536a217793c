/**
 * Errors of a fork's origin (the node a fork started from). Their messages name the origin, so a
 * user sees which endpoint failed; src/rpc/errors.ts maps them to codes.
 */
export class ForkError extends Error {
  override name = 'ForkError'
}

/** The origin could not be reached or did not answer JSON-RPC (after retries): -32000. */
export class OriginUnreachableError extends ForkError {
  override name = 'OriginUnreachableError'
}

/** The origin answered an HTTP error status (a 404 at a path it does not serve): -32000. */
export class OriginHttpError extends OriginUnreachableError {
  override name = 'OriginHttpError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The origin answered a JSON-RPC error: relayed with its code and text, prefixed with the origin's name. */
export class OriginRpcError extends ForkError {
  override name = 'OriginRpcError'
  constructor(
    readonly origin: string,
    readonly code: number,
    readonly originMessage: string,
    readonly data?: unknown,
  ) {
    super(`fork origin ${origin}: ${originMessage}`)
  }
}

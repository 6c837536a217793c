/**
 * Domain errors of the chain engine. They say what happened, never a JSON-RPC code:
 * src/rpc/errors.ts is the one place that maps them to codes.
 * Messages copy geth/coreth wording because clients (ethers, viem) match them by text.
 */
export class EngineError extends Error {
  override name = 'EngineError'
}

/** A transaction the pool or the chain refuses (geth's txpool/core errors, code -32000). */
export class TxRejectedError extends EngineError {
  override name = 'TxRejectedError'
}

/** eth_call / eth_estimateGas hit REVERT: code 3 with the return data (geth internal/ethapi/errors.go). */
export class ExecutionRevertedError extends EngineError {
  override name = 'ExecutionRevertedError'
  constructor(
    readonly returnData: Uint8Array,
    reason?: string,
  ) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`)
  }
}

/**
 * A sent transaction failed in its automined block, answered as hardhat node answers it
 * (src/engine/mining/hardhatFailure.ts): still mined; the error names its hash and return data.
 */
export class TxFailedInBlockError extends EngineError {
  override name = 'TxFailedInBlockError'
  constructor(
    message: string,
    readonly txHash: string,
    readonly returnData: Uint8Array,
    readonly outOfGas: boolean,
  ) {
    super(message)
  }
}

/** Execution failed for another reason (out of gas, invalid opcode...): -32000 with geth's text. */
export class ExecutionFailedError extends EngineError {
  override name = 'ExecutionFailedError'
}

/** A block, tx or state that the request names does not exist (geth: "header not found"...). */
export class NotFoundError extends EngineError {
  override name = 'NotFoundError'
}

/** A params value that passed the schema but is wrong in context: -32602 with this text. */
export class InvalidParamsError extends EngineError {
  override name = 'InvalidParamsError'
}

/** A limit was hit (result count, subscriptions, throttling): -32005. */
export class LimitExceededError extends EngineError {
  override name = 'LimitExceededError'
}

/**
 * The state of a block is not on disk (pruned, or never kept): coreth's hashdb answer,
 * `missing trie node <root> (path ) state 0x<root> is not available, not found` (-32000).
 */
export class StateUnavailableError extends EngineError {
  override name = 'StateUnavailableError'

  /** For a root (libevm trie.MissingNodeError around hashdb's Reader error: graft/evm/triedb/hashdb/database.go Reader). */
  static of(root: Uint8Array): StateUnavailableError {
    const hex = Buffer.from(root).toString('hex')
    return new StateUnavailableError(`missing trie node ${hex} (path ) state 0x${hex} is not available, not found`)
  }
}

/** Why eth_simulateV1 refused a block or call; src/rpc/errors.ts maps each kind to geth's code (internal/ethapi/errors.go). */
export type SimulateErrorKind =
  | 'nonceTooHigh'
  | 'nonceTooLow'
  | 'feeCapTooLow'
  | 'intrinsicGas'
  | 'insufficientFunds'
  | 'blockGasLimitReached'
  | 'blockNumberInvalid'
  | 'blockTimestampInvalid'
  | 'initCodeTooLarge'
  | 'clientLimitExceeded'
  | 'invalidParams'
  | 'internal'

/** An eth_simulateV1 validation failure: a transaction-validation or block-ordering error with geth's wording. */
export class SimulateError extends EngineError {
  override name = 'SimulateError'
  constructor(
    readonly kind: SimulateErrorKind,
    message: string,
  ) {
    super(message)
  }
}

/**
 * RPC-initiated execution stopped before it finished (docs/SECURITY.md, E2): the wall-time limit of
 * eth_call & co. (geth internal/ethapi "execution aborted (timeout = 5s)") or a tracer's own
 * timeout ("execution timeout"). -32000.
 */
export class ExecutionAbortedError extends EngineError {
  override name = 'ExecutionAbortedError'
}

/** The request's deadline passed and its work was cancelled (docs/SECURITY.md, L11, E4): -32002 "request timed out". */
export class RequestTimeoutError extends ExecutionAbortedError {
  override name = 'RequestTimeoutError'
  constructor() {
    super('request timed out')
  }
}

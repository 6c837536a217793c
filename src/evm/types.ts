import type { Account, Address } from '@ethereumjs/util'
import type { GasLedger } from './gasLedger.js'

/*
 * The interpreter's boundary: what it reads, what it is asked to run, what it answers. Nothing in
 * src/evm/ knows the chain, the store or the engine; src/engine/exec/ adapts them to these shapes.
 */

/**
 * The state a message runs on. The engine's OverlayState (src/engine/state/overlayState.ts) has this
 * shape; so does @ethereumjs/statemanager's MerkleStateManager (tests). The interpreter reads each
 * account, slot and code at most once per message and caches it, so it awaits only on a miss.
 */
export interface EvmState {
  getAccount(address: Address): Promise<Account | undefined>
  /** `key` is 32 bytes; the value comes without leading zeros (empty for zero), as ethereumjs stores it. */
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>
  getCode(address: Address): Promise<Uint8Array>
}

/** The block a message runs in (the EVM's NUMBER, TIMESTAMP, COINBASE, GASLIMIT, BASEFEE, PREVRANDAO, BLOBBASEFEE). */
export interface EvmBlock {
  number: bigint
  timestamp: bigint
  /** 20 bytes. */
  coinbase: Uint8Array
  gasLimit: bigint
  baseFee: bigint
  /** 32 bytes: the header's mixHash, which PREVRANDAO reads from Paris on. */
  prevRandao: Uint8Array
  blobBaseFee: bigint
}

/** What the interpreter asks of its host besides state. */
export interface EvmHost {
  /** BLOCKHASH of block `number` (the interpreter checks the 256-block window first). */
  blockHash(number: bigint): Promise<Uint8Array>
}

/** One top-level message, as ethereumjs's `evm.runCall` takes it (src/engine/exec/directCall.ts runs that today). */
export interface EvmMessage {
  /** 20 bytes. */
  caller: Uint8Array
  /** ORIGIN; the caller when absent. */
  origin?: Uint8Array
  /** 20 bytes; undefined for a creation. */
  to: Uint8Array | undefined
  value: bigint
  data: Uint8Array
  /** Gas for execution: the transaction's gas limit less its intrinsic gas. */
  gasLimit: bigint
  gasPrice: bigint
  block: EvmBlock
  /** BLOBHASH's hashes (none for a call). */
  blobHashes?: Uint8Array[]
  /**
   * Warm from the start (EIP-2929/2930): the access list's addresses and slots. The interpreter warms
   * the precompiles, the caller, `to` and (EIP-3651) the coinbase itself, as runTx does.
   */
  accessList?: [Uint8Array, Uint8Array[]][]
  /** The chain's own precompiles by address (lower-case hex without 0x), warm from the start as the others are. */
  chainPrecompiles?: ReadonlyMap<string, ChainPrecompile>
  /** ethereumjs runCall's skipNonceIncrement: a call leaves the caller's nonce alone (eth_call); a creation bumps it. */
  skipNonceIncrement?: boolean
  /**
   * Called before each JUMPDEST runs (every loop passes one), to bound a request's time: a promise it
   * returns is awaited (the event loop gets in) and the JUMPDEST runs again; what it throws ends the
   * message with that error (the engine's EvmGuard: a timeout, a cancelled request).
   */
  /** Kept when given: what the run shows of the gas limits it would run the same way under (gasLedger.ts). */
  gasLedger?: GasLedger
  onJumpdest?: () => Promise<void> | undefined
}

/**
 * A precompile of the chain's own (Avalanche's Warp): unlike Ethereum's it sees who calls it and
 * whether the call is static, and it may log. Runs synchronously; a failure (`error`) uses all the
 * gas it was given, and its logs are dropped.
 */
export interface ChainPrecompile {
  /** Not among the chain's active precompiles: a transaction does not start with it warm (coreth's Warp). */
  cold?: boolean
  run(call: { caller: Uint8Array; data: Uint8Array; gas: bigint; isStatic: boolean }): { returnData: Uint8Array; gasUsed: bigint; error?: string; logs: EvmLog[] }
}

/** A log as ethereumjs reports it. */
export interface EvmLog {
  /** 20 bytes. */
  address: Uint8Array
  topics: Uint8Array[]
  data: Uint8Array
}

/**
 * What a message changed, in the shape of the engine's StateChanges (src/engine/state/overlayState.ts):
 * addresses as lower-case hex without 0x, slots as hex of the 32-byte key without 0x, values without
 * leading zeros (empty = zero).
 */
export interface EvmStateChanges {
  /** the account after the message; null = deleted (self-destructed in its creating transaction) */
  accounts: Map<string, Account | null>
  storage: Map<string, Map<string, Uint8Array>>
  /** accounts whose earlier storage is gone before `storage` applies */
  cleared: Set<string>
  /** new contract code by code hash (hex without 0x) */
  codes: Map<string, Uint8Array>
}

/**
 * Where a frame halted exceptionally, for geth's error texts (`stack underflow (0 <=> 2)`, `invalid
 * opcode: INVALID`, `return data out of bounds`): the opcode, the stack's height before it ran, and
 * whether a RETURNDATACOPY read past the return data (ethereumjs reports that as out of gas).
 */
export interface EvmFault {
  op: number
  stackLen: number
  returnDataOutOfBounds: boolean
}

/** A message's outcome, field for field what ethereumjs's runCall answers (its execResult and createdAddress). */
export interface EvmResult {
  returnData: Uint8Array
  /** ethereumjs executionGasUsed: gas the message used, before refunds. */
  executionGasUsed: bigint
  /** ethereumjs gasRefund: the refund counter at the end (the cap of EIP-3529 is the transaction's to apply). */
  gasRefund: bigint
  logs: EvmLog[]
  /** ethereumjs's EVMError name when the top-level message failed ('revert', 'out of gas', 'invalid opcode', ...). */
  error?: string
  /** Where the top-level frame halted, when `error` is an exceptional halt in its own code. */
  fault?: EvmFault
  /** The creation's address (20 bytes), as runCall reports it: also when the creation failed (collision, code size, revert). */
  createdAddress?: Uint8Array
  /** Every effect on state, as the state stands after the message (what ethereumjs leaves once it reverted a failed message). */
  changes: EvmStateChanges
  /** Addresses (lower-case hex without 0x) and their slots accessed, for eth_createAccessList (runTx's report). */
  accessed: Map<string, Set<string>>
}

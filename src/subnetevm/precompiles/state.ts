/*
 * What the stateful precompiles read and write: a state interface of their own, which the node's
 * state (either EVM's) implements. Addresses are 20 bytes, storage slots and values 32 bytes.
 */

/** The state a precompile call, an activation or a reader works on. */
export interface PrecompileState {
  /** The value at a 32-byte slot; shorter or empty reads as zero-padded on the left (empty = 0). */
  getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>
  /** Writes 32 bytes at a slot (all zeros: the slot is cleared, as geth's SetState of the zero hash). */
  putStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>
  /**
   * Adds to an account's balance, creating the account if absent. The sum wraps modulo 2^256, as
   * uint256.Int.Add in the StateDB's AddBalance; adding 0 still creates (touches) the account.
   */
  addBalance(address: Uint8Array, amount: bigint): Promise<void>
  setCode(address: Uint8Array, code: Uint8Array): Promise<void>
  setNonce(address: Uint8Array, nonce: bigint): Promise<void>
  /**
   * Deletes the account outright, balance, nonce, code and storage: subnet-evm's SelfDestruct followed
   * by Finalise(true) when a precompile is disabled (subnet-evm core/state_processor_ext.go).
   */
  destroyAccount(address: Uint8Array): Promise<void>
}

/** A log a precompile emits (subnet-evm's types.Log without the block fields the node fills in). */
export interface PrecompileLog {
  address: Uint8Array
  topics: Uint8Array[]
  data: Uint8Array
}

/** A call/transaction request as eth_call, eth_estimateGas and eth_createAccessList take it (already parsed). */
export interface CallRequest {
  from?: Uint8Array
  to?: Uint8Array | null
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  input?: Uint8Array
  nonce?: bigint
  chainId?: bigint
  accessList?: AccessListItem[]
  type?: bigint
}

export interface AccessListItem {
  address: Uint8Array
  storageKeys: Uint8Array[]
}

/** geth's StateOverride entry (internal/ethapi/override). */
export interface AccountOverride {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  state?: Record<string, Uint8Array>
  stateDiff?: Record<string, Uint8Array>
  /** eth_simulateV1: moves the precompile at this address to another address (geth MovePrecompileTo). */
  movePrecompileToAddress?: Uint8Array
}
export type StateOverride = Record<string, AccountOverride>

/** A block reference after parsing: a tag, a number, or a hash (EIP-1898). */
export type BlockRef = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized' | bigint | { blockHash: Uint8Array; requireCanonical?: boolean }

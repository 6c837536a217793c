/**
 * The atomic-transaction service the native/avax API calls (coreth: plugin/evm/atomic/vm/api.go,
 * vm.go). Implemented in src/atomic/atomicService.ts over the engine (mempool, block inclusion) and
 * the store (shared memory, accepted atomic txs); this file is the contract between the two.
 */
import type { AtomicTx } from './tx.js'

/** avalanchego atomic status strings (atomic/status.go). */
export type AtomicStatus = 'Accepted' | 'Processing' | 'Dropped' | 'Unknown'

/** A UTXO listing cursor: the address (20-byte short ID) and the UTXO ID (32 bytes) last returned. */
export interface UTXOCursor {
  address: Uint8Array
  utxoID: Uint8Array
}

export interface GetUTXOsQuery {
  /** Short addresses (20 bytes), already parsed from C-Chain bech32 or CB58. */
  addresses: Uint8Array[]
  /** The chain the UTXOs come from (X or P chain ID, 32 bytes). */
  sourceChain: Uint8Array
  /** Already clamped to 1..1024. */
  limit: number
  startIndex?: UTXOCursor
}

/** Like GetUTXOsQuery, for the UTXOs the C-Chain exported (outbound shared memory). */
export interface GetExportedUTXOsQuery {
  /** Short addresses (20 bytes). */
  addresses: Uint8Array[]
  /** The chain the UTXOs were exported to (X or P chain ID, 32 bytes). */
  destinationChain: Uint8Array
  /** Already clamped to 1..1024. */
  limit: number
  startIndex?: UTXOCursor
}

export interface GetUTXOsResult {
  /** UTXO codec bytes (with the codec version). */
  utxos: Uint8Array[]
  /** The last address iterated and the last UTXO ID of it (32 zero bytes if it had none). */
  endIndex: UTXOCursor
}

export interface AtomicService {
  /**
   * Parses, verifies at the tip (coreth: plugin/evm/atomic/vm/vm.go verifyTxAtTip) and queues a signed
   * atomic tx for the next block; returns its ID. `parsed`, when the caller parsed `signedBytes`
   * already (native.issueTx), is used instead of parsing again. "already known" counts as success.
   * Errors carry coreth's wording.
   */
  issueTx(signedBytes: Uint8Array, parsed?: AtomicTx): Promise<Uint8Array>
  /** Status and, when Accepted, the height of the block that holds it. */
  status(txID: Uint8Array): { status: AtomicStatus; blockHeight?: bigint }
  /** The signed tx bytes if known (accepted, processing or dropped), with the height when accepted. */
  getTx(txID: Uint8Array): { tx: Uint8Array; status: AtomicStatus; blockHeight?: bigint } | undefined
  /**
   * UTXOs in shared memory that `sourceChain` exported to the C-Chain, for these addresses: ascending
   * address order, newest UTXO first per address (avalanchego: chains/atomic/state.go). On a fork,
   * the origin's UTXOs of an address are fetched first, once (src/atomic/originUTXOs.ts).
   */
  getUTXOs(q: GetUTXOsQuery): Promise<GetUTXOsResult>
  /**
   * UTXOs accepted exports put into shared memory for `destinationChain` (what X/P would list with
   * sourceChain C), same order and paging. Added after the first draft of this contract.
   */
  getExportedUTXOs(q: GetExportedUTXOsQuery): GetUTXOsResult
  /**
   * Puts a UTXO into shared memory as if `sourceChain` had exported it to the C-Chain (the X/P
   * counterparts use this; tests seed imports with it). Written durably.
   */
  putInbound(sourceChain: Uint8Array, utxoBytes: Uint8Array): Promise<void>
}

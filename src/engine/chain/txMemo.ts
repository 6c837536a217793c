import type { Common } from '@ethereumjs/common'
import { createTxFromBlockBodyData, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'

/*
 * What a transaction object yields once, kept beside it for as long as the object lives: its
 * EIP-2718 encoding (a block's tx root, its stored body) and its sender (every answer naming
 * `from`). ethereumjs caches the hash and the sender's public key on a frozen transaction, but
 * re-encodes on each serialize() and re-hashes the public key on each getSenderAddress().
 */
const encodings = new WeakMap<TypedTransaction, Uint8Array>()
const senders = new WeakMap<TypedTransaction, Address>()

/**
 * Freezes a transaction decoded unfrozen (`freeze: false`) with its sender already known: admission
 * recovered it, or the block's stored senders hold it. getSenderAddress then answers it without
 * recovering the signature or hashing the public key again; runTx asks it for every transaction.
 * `raw`: the bytes it was decoded from, when they are its canonical encoding.
 */
export function sealTx(tx: TypedTransaction, sender: Address, raw?: Uint8Array): void {
  ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => sender
  // A frozen transaction's hash() is keccak(serialize()) once, in its cache: from the bytes at hand it needs no re-encoding (eth_getLogs names every log's transaction).
  if (raw !== undefined) (tx as unknown as { cache: { hash?: Uint8Array } }).cache.hash = keccak256(raw)
  Object.freeze(tx)
  senders.set(tx, sender)
  if (raw !== undefined) encodings.set(tx, raw)
}

/** The senders of a block's transactions, 20 bytes each in order: what the store keeps beside the block. */
export function packSenders(txs: readonly TypedTransaction[]): Uint8Array {
  const out = new Uint8Array(20 * txs.length)
  for (let i = 0; i < txs.length; i++) out.set(txSender(txs[i]!).bytes, 20 * i)
  return out
}

/** The transaction's EIP-2718 encoding (a legacy transaction's RLP list), serialised at most once. */
export function txBytes(tx: TypedTransaction): Uint8Array {
  let bytes = encodings.get(tx)
  if (bytes === undefined) encodings.set(tx, (bytes = tx.serialize()))
  return bytes
}

/** The transaction's sender, derived at most once per transaction object. */
export function txSender(tx: TypedTransaction): Address {
  let sender = senders.get(tx)
  if (sender === undefined) senders.set(tx, (sender = tx.getSenderAddress()))
  return sender
}

/**
 * The transactions of a stored block body, each sealed with its stored sender when the block's
 * senders record (packSenders) is there and whole; else decoded plainly, recovered on demand.
 */
export function txsFromBody(items: readonly Uint8Array[], common: Common, stored: Uint8Array | undefined): TypedTransaction[] {
  if (stored === undefined || stored.length !== 20 * items.length) return items.map((t) => createTxFromBlockBodyData(t, { common }))
  return items.map((t, i) => {
    const tx = createTxFromBlockBodyData(t, { common, freeze: false })
    // A typed transaction's body item is its EIP-2718 encoding; a legacy one is its field list.
    sealTx(tx, new Address(stored.subarray(20 * i, 20 * i + 20)), t instanceof Uint8Array ? t : undefined)
    return tx
  })
}

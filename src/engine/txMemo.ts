import type { TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'

/*
 * What a transaction object yields once, kept beside it for as long as the object lives: its
 * EIP-2718 encoding (a block's tx root, its stored body) and its sender (every answer naming
 * `from`). ethereumjs caches the hash and the sender's public key on a frozen transaction, but
 * re-encodes on each serialize() and re-hashes the public key on each getSenderAddress().
 */
const encodings = new WeakMap<TypedTransaction, Uint8Array>()
const senders = new WeakMap<TypedTransaction, Address>()

/** Records what admission already has: the raw bytes it decoded (canonical, so equal to serialize()) and the recovered sender. */
export function rememberTx(tx: TypedTransaction, raw: Uint8Array, sender: Address): void {
  encodings.set(tx, raw)
  senders.set(tx, sender)
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

import { BoundedCache } from '../../util/boundedCache.js'
import { keccak256 } from '../../util/crypto.js'

/** A state key's hash: the flat state's key (hex) and the trie's path (bytes). Shared: never written to. */
export interface KeyHash {
  bytes: Uint8Array
  hex: string
}

/** Hashes kept: a few blocks' worth of the accounts and slots transactions touch. */
const KEPT = 16_384
const hashes = new BoundedCache<string, KeyHash>(KEPT)

/**
 * keccak256 of an address or storage slot, remembered: a transfer's sender is hashed by admission
 * (twice), by every read of it during execution and by the trie update of its block, at about 3 us
 * a hash (the native sponge's calls) against a fraction of a microsecond for the lookup.
 */
export function keyHash(key: Uint8Array): KeyHash {
  const id = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1')
  let hash = hashes.get(id)
  if (hash === undefined) {
    const bytes = keccak256(key)
    hash = { bytes, hex: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex') }
    hashes.set(id, hash)
  }
  return hash
}

/*
 * Predicates (avalanchego vms/evm/predicate): how a transaction carries a signed Warp message in its
 * access list. The bytes, then a 0xff delimiter (always, even when the length is a multiple of 32),
 * then zeros to a multiple of 32, split into 32-byte storage keys of one tuple for the precompile.
 */

const DELIMITER = 0xff
const CHUNK = 32

/** A predicate's bytes that do not unpack, in avalanchego's words. */
export class PredicateError extends Error {
  override name = 'PredicateError'
}

/** `bytes` as the storage keys of one access-list tuple. */
export function packPredicate(bytes: Uint8Array): Uint8Array[] {
  const padded = new Uint8Array(Math.ceil((bytes.length + 1) / CHUNK) * CHUNK)
  padded.set(bytes)
  padded[bytes.length] = DELIMITER
  const chunks: Uint8Array[] = []
  for (let i = 0; i < padded.length; i += CHUNK) chunks.push(padded.slice(i, i + CHUNK))
  return chunks
}

/**
 * The bytes one tuple's storage keys carry; throws PredicateError for keys that are no packed
 * predicate, in avalanchego's checks' order and words (vms/evm/predicate/predicate.go Predicate.Bytes:
 * lengths counted in 32-byte chunks; no keys, or only zeros, is a missing delimiter).
 */
export function unpackPredicate(chunks: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.length * CHUNK)
  for (const [i, c] of chunks.entries()) joined.set(c, i * CHUNK)
  let end = joined.length
  while (end > 0 && joined[end - 1] === 0) end--
  if (end === 0) throw new PredicateError(`no delimiter found: length (${chunks.length})`)
  const expected = Math.ceil(end / CHUNK)
  if (expected !== chunks.length) throw new PredicateError(`predicate included excess padding: got length (${chunks.length}), expected length (${expected})`)
  if (joined[end - 1] !== DELIMITER) throw new PredicateError('wrong delimiter')
  return joined.slice(0, end - 1)
}

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import type { TypedTransaction } from '@ethereumjs/tx'
import { keccak256 } from '../../util/crypto.js'
import { type RlpInput as Input, rlpEncode } from '../../util/rlp.js'
import { encodeConsensusReceipt, type Receipt } from './receipt.js'
import { txBytes } from './txMemo.js'

interface Entry {
  nibbles: Uint8Array
  value: Uint8Array
}

/**
 * Root of the Merkle Patricia trie that maps rlp(i) to values[i]: a block's transaction and
 * receipt roots (geth: core/types/hashing.go DeriveSha). Built in one synchronous pass over the
 * sorted keys, as geth's StackTrie does, instead of a trie object with a put per item: the
 * trie's async puts re-hashed the path on every insert and held the event loop through a block
 * build (docs/PERFORMANCE.md).
 */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return KECCAK256_RLP
  const entries: Entry[] = values.map((value, i) => ({ nibbles: toNibbles(RLP.encode(i)), value }))
  entries.sort((a, b) => compareNibbles(a.nibbles, b.nibbles))
  // The root is hashed whatever its size; only child nodes under 32 bytes are inlined.
  return keccak256(rlpEncode(node(entries, 0, entries.length, 0)))
}

/** A block's transactions root. */
export function txRoot(txs: readonly TypedTransaction[]): Uint8Array {
  return orderedTrieRoot(txs.map(txBytes))
}

/** A block's receipts root, over their consensus encodings. */
export function receiptRoot(receipts: readonly Receipt[]): Uint8Array {
  return orderedTrieRoot(receipts.map(encodeConsensusReceipt))
}

/** The node holding entries[lo, hi), which share their first `depth` nibbles. */
function node(entries: Entry[], lo: number, hi: number, depth: number): Input {
  const first = entries[lo]!
  if (hi - lo === 1) return [hexPrefix(first.nibbles.subarray(depth), true), first.value]
  // Sorted: the common prefix of the whole range is that of its first and last keys.
  const last = entries[hi - 1]!.nibbles
  let shared = depth
  while (shared < first.nibbles.length && shared < last.length && first.nibbles[shared] === last[shared]) shared++
  if (shared > depth) return [hexPrefix(first.nibbles.subarray(depth, shared), false), ref(branch(entries, lo, hi, shared))]
  return branch(entries, lo, hi, depth)
}

function branch(entries: Entry[], lo: number, hi: number, depth: number): Input[] {
  const slots: Input[] = new Array(17).fill(new Uint8Array())
  // A key that ends here sorts first and is the branch's value.
  if (entries[lo]!.nibbles.length === depth) slots[16] = entries[lo++]!.value
  while (lo < hi) {
    const nibble = entries[lo]!.nibbles[depth]!
    let end = lo + 1
    while (end < hi && entries[end]!.nibbles[depth] === nibble) end++
    slots[nibble] = ref(node(entries, lo, end, depth + 1))
    lo = end
  }
  return slots
}

/** How a parent refers to a child: inline under 32 encoded bytes, else by hash. */
function ref(child: Input): Input {
  const encoded = rlpEncode(child)
  return encoded.length < 32 ? child : keccak256(encoded)
}

/** Hex-prefix (compact) encoding of a path, flagged as a leaf's or an extension's. */
function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2
  const out = new Uint8Array((path.length >> 1) + 1)
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = 0
  if (odd === 1) out[0] |= path[i++]!
  for (let o = 1; i < path.length; i += 2, o++) out[o] = (path[i]! << 4) | path[i + 1]!
  return out
}

function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

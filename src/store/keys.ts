/**
 * The one registry of LevelDB key prefixes (one byte each). Retired prefixes stay listed,
 * commented out, and are never reused.
 */
export const PREFIX = {
  /** 'm' + name -> metadata value (head hash, genesis hash, schema version) */
  meta: 0x6d,
  /** 'h' + number(u64 BE) -> canonical block hash */
  canonical: 0x68,
  /** 'b' + hash(32) -> block RLP (header, transactions) */
  block: 0x62,
  /** 'r' + hash(32) -> receipts of the block, RLP */
  receipts: 0x72,
  /** 'l' + txHash(32) -> block number(u64 BE) ‖ index(u32 BE) */
  txLookup: 0x6c,
  /** 's' + trie key -> Merkle Patricia node / contract code (ethereumjs key layout) */
  state: 0x73,
  /** 'B' + number(u64 BE) -> the canonical block's logs bloom (256 bytes), the eth_getLogs index */
  bloom: 0x42,
} as const

export const META_HEAD = 'head'
export const META_GENESIS = 'genesis'

const enc = new TextEncoder()

/** prefix ‖ bytes. */
export function prefixed(prefix: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + body.length)
  out[0] = prefix
  out.set(body, 1)
  return out
}

export function metaKey(name: string): Uint8Array {
  return prefixed(PREFIX.meta, enc.encode(name))
}

export function u64(n: bigint | number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(n))
  return out
}

export function canonicalKey(number: bigint): Uint8Array {
  return prefixed(PREFIX.canonical, u64(number))
}

export function bloomKey(number: bigint): Uint8Array {
  return prefixed(PREFIX.bloom, u64(number))
}

import { keccak_256 } from '@noble/hashes/sha3.js'

/*
 * An EIP-1186 proof verifier written apart from the node (no ethereumjs): its own RLP decoder
 * and a walk of the Merkle Patricia path of keccak(key) from a root hash through the proof
 * nodes, looked up by their keccak hash (geth trie.VerifyProof).
 */

type RLPItem = Uint8Array | RLPItem[]

export function fromHex(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))
}

function toHex(b: Uint8Array): string {
  return '0x' + Buffer.from(b).toString('hex')
}

/** Decodes one RLP item, which must span the whole input. */
export function rlpDecode(input: Uint8Array): RLPItem {
  const [item, end] = decodeAt(input, 0)
  if (end !== input.length) throw new Error('trailing bytes after RLP item')
  return item
}

function decodeAt(b: Uint8Array, pos: number): [RLPItem, number] {
  const p = b[pos]!
  const int = (from: number, len: number) => {
    let n = 0
    for (let i = 0; i < len; i++) n = n * 256 + b[from + i]!
    return n
  }
  if (p < 0x80) return [b.subarray(pos, pos + 1), pos + 1]
  if (p < 0xb8) return [b.subarray(pos + 1, pos + 1 + p - 0x80), pos + 1 + p - 0x80]
  if (p < 0xc0) {
    const ll = p - 0xb7
    const len = int(pos + 1, ll)
    return [b.subarray(pos + 1 + ll, pos + 1 + ll + len), pos + 1 + ll + len]
  }
  let start: number
  let end: number
  if (p < 0xf8) {
    start = pos + 1
    end = start + p - 0xc0
  } else {
    const ll = p - 0xf7
    start = pos + 1 + ll
    end = start + int(pos + 1, ll)
  }
  const items: RLPItem[] = []
  for (let at = start; at < end; ) {
    const [item, next] = decodeAt(b, at)
    items.push(item)
    at = next
  }
  return [items, end]
}

function nibbles(b: Uint8Array): number[] {
  return [...b].flatMap((x) => [x >> 4, x & 15])
}

/**
 * The value proven at keccak(key) under `root` (null: proven absent). Throws when the proof
 * does not lead from the root to an answer (a node missing, or a hash that does not match).
 */
export function verifyProof(root: string, key: Uint8Array, proof: string[]): Uint8Array | null {
  const nodes = new Map(
    proof.map((h) => {
      const b = fromHex(h)
      return [toHex(keccak_256(b)), b] as const
    }),
  )
  const path = nibbles(keccak_256(key))
  let ref: RLPItem = fromHex(root)
  let at = 0
  for (;;) {
    let node: RLPItem[]
    if (ref instanceof Uint8Array) {
      if (ref.length === 0) return null
      const enc = nodes.get(toHex(ref))
      if (enc === undefined) throw new Error(`proof node ${toHex(ref)} missing`)
      node = rlpDecode(enc) as RLPItem[]
    } else {
      node = ref // embedded node (under 32 bytes)
    }
    if (node.length === 17) {
      if (at === path.length) return node[16] as Uint8Array
      ref = node[path[at++]!]!
      continue
    }
    if (node.length !== 2) throw new Error('malformed trie node')
    const hp = nibbles(node[0] as Uint8Array)
    const leaf = hp[0]! >= 2
    const part = hp.slice(hp[0]! % 2 === 1 ? 1 : 2)
    if (part.some((n, i) => path[at + i] !== n)) return null
    at += part.length
    if (leaf) return at === path.length ? (node[1] as Uint8Array) : null
    ref = node[1]!
  }
}

/** The account proven by an eth_getProof answer against a state root: [nonce, balance, storageRoot, codeHash] or null. */
export function verifyAccount(stateRoot: string, address: string, accountProof: string[]): { nonce: bigint; balance: bigint; storageRoot: string; codeHash: string } | null {
  const value = verifyProof(stateRoot, fromHex(address), accountProof)
  if (value === null) return null
  const [nonce, balance, storageRoot, codeHash] = rlpDecode(value) as Uint8Array[]
  const big = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(toHex(b)))
  return { nonce: big(nonce!), balance: big(balance!), storageRoot: toHex(storageRoot!), codeHash: toHex(codeHash!) }
}

/** The storage value proven for a slot (0 when absent). */
export function verifyStorage(storageHash: string, slot: string, proof: string[]): bigint {
  const value = verifyProof(storageHash, fromHex(slot.replace(/^0x/, '').padStart(64, '0')), proof)
  if (value === null) return 0n
  const inner = rlpDecode(value) as Uint8Array
  return inner.length === 0 ? 0n : BigInt(toHex(inner))
}

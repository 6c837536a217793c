import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, concatBytes } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import { rlpEncode } from '../../util/rlp.js'
import { BoundedCache } from '../../util/boundedCache.js'

/**
 * Applies many key changes to a Merkle Patricia trie at once, the way a block changes its state:
 * the changed keys are sorted, each node on their paths is loaded once, rewritten once and hashed
 * once, where inserting them one by one (ethereumjs's trie.put) re-hashes the path to the root
 * for every key. Synchronous: nodes come from the in-memory cache or LevelDB's getSync. The
 * result is the same trie, node for node (test/unit/engine/state/trieBatch.test.ts checks roots and
 * reads against @ethereumjs/mpt).
 */
export interface TrieNodes {
  /** A node's RLP by its hash (unprefixed hex). */
  get(hashHex: string): Uint8Array | undefined
  /** Stores a new node under its hash. */
  put(hashHex: string, node: Uint8Array): void
}

/** A change: the key's nibbles, and its new value (null deletes the key). */
export interface TrieChange {
  key: Uint8Array
  value: Uint8Array | null
}

type Hash = { t: 'hash'; hash: Uint8Array }
type Leaf = { t: 'leaf'; path: Uint8Array; value: Uint8Array }
type Ext = { t: 'ext'; path: Uint8Array; child: Child }
type Branch = { t: 'branch'; children: (Child | null)[]; value: Uint8Array | null }
type Node = Leaf | Ext | Branch
type Child = Node | Hash

const EMPTY = new Uint8Array(0)

/**
 * Nodes decoded recently, by hash: every block walks the trie's upper levels again, and decoding
 * them was most of resolve(). Content-addressed, so an entry never goes stale, and nothing here
 * writes to a node once made (apply copies a branch's children before changing them). Sized for
 * the upper levels of a development chain's trie (a branch with its children is about 1 KB).
 */
const decoded = new BoundedCache<string, Node>(4096)

/** The root after `changes` (any order; one change per key) on the trie at `root`. */
export function applyTrieChanges(nodes: TrieNodes, root: Uint8Array, changes: TrieChange[]): Uint8Array {
  if (changes.length === 0) return root
  const sorted = changes.slice().sort((a, b) => compareNibbles(a.key, b.key))
  const start: Child | null = equalBytes(root, KECCAK256_RLP) ? null : { t: 'hash', hash: root }
  const batch = new Batch(nodes)
  const next = batch.apply(start, sorted, 0)
  return next === null ? KECCAK256_RLP : batch.rootHash(next)
}

/** The (key, value) leaves of the trie at `root`, in key order (FlatState's rebuild walks the state with it). */
export function* trieLeaves(nodes: TrieNodes, root: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
  if (equalBytes(root, KECCAK256_RLP)) return
  yield* leavesUnder(new Batch(nodes), { t: 'hash', hash: root }, EMPTY)
}

function* leavesUnder(batch: Batch, child: Child, path: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
  const node = batch.resolve(child)
  if (node.t === 'leaf') {
    yield [packNibbles(concatBytes(path, node.path)), node.value]
  } else if (node.t === 'ext') {
    yield* leavesUnder(batch, node.child, concatBytes(path, node.path))
  } else {
    if (node.value !== null) yield [packNibbles(path), node.value]
    for (let i = 0; i < 16; i++) {
      const c = node.children[i]
      if (c) yield* leavesUnder(batch, c, concatBytes(path, Uint8Array.of(i)))
    }
  }
}

function packNibbles(nibbles: Uint8Array): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1)
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!
  return out
}

/**
 * A node the trie needs is not in the node store: on a fork, a part of the origin's trie not fetched
 * yet (src/engine/state/forkState.ts fetches it by `path` and the change is applied again).
 */
export class MissingTrieNodeError extends Error {
  override name = 'MissingTrieNodeError'
  constructor(
    readonly hashHex: string,
    /** The node's position: the nibbles from the root. */
    readonly path: Uint8Array,
  ) {
    super(`missing trie node ${hashHex}`)
  }
}

/** What a key holds in the trie at `root`: its value, null when absent, or the first node on its path that is not stored. */
export function trieLookup(nodes: TrieNodes, root: Uint8Array, key: Uint8Array): { value: Uint8Array | null } | MissingTrieNodeError {
  if (equalBytes(root, KECCAK256_RLP)) return { value: null }
  const nibbles = toNibbles(key)
  // Not from the decoded-node cache: it is the whole process's, and the lookup must find what this store holds.
  const batch = new Batch(nodes, false)
  let child: Child = { t: 'hash', hash: root }
  let d = 0
  for (;;) {
    let node: Node
    try {
      node = batch.resolve(child, nibbles.subarray(0, d))
    } catch (err) {
      if (err instanceof MissingTrieNodeError) return err
      throw err
    }
    if (node.t === 'leaf') return { value: equalBytes(node.path, nibbles.subarray(d)) ? node.value : null }
    if (node.t === 'ext') {
      if (!equalBytes(node.path, nibbles.subarray(d, d + node.path.length))) return { value: null }
      d += node.path.length
      child = node.child
      continue
    }
    if (d === nibbles.length) return { value: node.value }
    const next = node.children[nibbles[d]!]
    if (next === null || next === undefined) return { value: null }
    child = next
    d++
  }
}

/** Bytes to nibbles. */
export function toNibbles(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2)
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4
    out[2 * i + 1] = bytes[i]! & 0x0f
  }
  return out
}

class Batch {
  constructor(
    private readonly nodes: TrieNodes,
    private readonly cached = true,
  ) {}

  apply(child: Child | null, changes: TrieChange[], d: number): Node | null {
    const node = child === null ? null : this.resolve(child, changes[0]!.key.subarray(0, d))
    if (node === null) return build(changes, d)
    if (node.t === 'leaf') {
      const key = new Uint8Array(d + node.path.length)
      key.set(changes[0]!.key.subarray(0, d))
      key.set(node.path, d)
      const merged = changes.some((c) => equalBytes(c.key, key)) ? changes : insertSorted(changes, { key, value: node.value })
      return build(merged, d)
    }
    if (node.t === 'ext') {
      const p = node.path
      if (changes.every((c) => c.key.length >= d + p.length && equalBytes(c.key.subarray(d, d + p.length), p))) {
        return withPrefix(p, this.apply(node.child, changes, d + p.length), this)
      }
      // Some keys leave the extension: open it into the branch it stands for and apply there.
      const children: (Child | null)[] = new Array(16).fill(null)
      children[p[0]!] = p.length === 1 ? node.child : { t: 'ext', path: p.subarray(1), child: node.child }
      return this.apply({ t: 'branch', children, value: null }, changes, d)
    }
    const children = node.children.slice()
    let value = node.value
    let i = 0
    while (i < changes.length) {
      const c = changes[i]!
      if (c.key.length === d) {
        value = c.value
        i++
        continue
      }
      const nibble = c.key[d]!
      let j = i + 1
      while (j < changes.length && changes[j]!.key.length > d && changes[j]!.key[d] === nibble) j++
      children[nibble] = this.apply(children[nibble] ?? null, changes.slice(i, j), d + 1)
      i = j
    }
    return this.normalise(children, value, changes[0]!.key.subarray(0, d))
  }

  /** A branch (at `path`) left with one child and no value becomes that child under a longer path. */
  private normalise(children: (Child | null)[], value: Uint8Array | null, path: Uint8Array): Node | null {
    let only = -1
    let count = 0
    for (let i = 0; i < 16; i++) {
      if (children[i] !== null) {
        count++
        only = i
      }
    }
    if (count === 0) return value === null ? null : { t: 'leaf', path: EMPTY, value }
    if (count > 1 || value !== null) return { t: 'branch', children, value }
    const child = children[only]!
    const resolved = this.resolve(child, concatBytes(path, Uint8Array.of(only)))
    // A hashed branch child stays referenced by its hash under a one-nibble extension.
    return withPrefix(Uint8Array.of(only), resolved.t === 'branch' ? child : resolved, this)
  }

  /** A child's node; `path` (its nibbles from the root) names a node that is not stored. */
  resolve(child: Child, path: Uint8Array = EMPTY): Node {
    if (child.t !== 'hash') return child
    const key = nodeKey(child.hash)
    const known = this.cached ? decoded.get(key) : undefined
    if (known !== undefined) return known
    const bytes = this.nodes.get(key)
    if (bytes === undefined) throw new MissingTrieNodeError(key, path)
    const node = decodeNode(RLP.decode(bytes) as RawNode)
    decoded.set(key, node)
    return node
  }

  rootHash(node: Node): Uint8Array {
    const raw = this.raw(node)
    return this.store(node, rlpEncode(raw))
  }

  /** A child's reference in its parent: its hash (stored), or the node itself when its RLP is under 32 bytes. */
  private ref(child: Child): RawNode | Uint8Array {
    if (child.t === 'hash') return child.hash
    const raw = this.raw(child)
    const bytes = rlpEncode(raw)
    return bytes.length < 32 ? raw : this.store(child, bytes)
  }

  /**
   * Stores a new node under its hash, and the node itself, now in its stored form (raw() turned its
   * hashed children into references), for the next block's walk: it is new, no cache has it.
   */
  private store(node: Node, bytes: Uint8Array): Uint8Array {
    const hash = keccak256(bytes)
    const key = nodeKey(hash)
    this.nodes.put(key, bytes)
    decoded.set(key, node)
    return hash
  }

  /**
   * The node's RLP structure, its children referenced (hashed and stored when 32 bytes or more). A
   * child that was hashed is replaced in the node by its reference, so the node is the form a decode
   * of its bytes would give (only nodes this batch built change: a stored node's children are already
   * references or embedded nodes, which stay).
   */
  private raw(node: Node): RawNode {
    if (node.t === 'leaf') return [hexPrefix(node.path, true), node.value]
    if (node.t === 'ext') {
      const ref = this.ref(node.child)
      if (node.child.t !== 'hash' && ref instanceof Uint8Array) node.child = { t: 'hash', hash: ref }
      return [hexPrefix(node.path, false), ref]
    }
    const raw: (RawNode | Uint8Array)[] = new Array(17)
    const { children } = node
    for (let i = 0; i < 16; i++) {
      const c = children[i]!
      if (c === null) {
        raw[i] = EMPTY
        continue
      }
      const ref = this.ref(c)
      if (c.t !== 'hash' && ref instanceof Uint8Array) children[i] = { t: 'hash', hash: ref }
      raw[i] = ref
    }
    raw[16] = node.value ?? EMPTY
    return raw
  }
}

type RawNode = (Uint8Array | RawNode)[]

/** A new subtree holding exactly the non-deleted `changes` (sorted) below depth d. */
function build(changes: TrieChange[], d: number): Node | null {
  const live = changes.filter((c) => c.value !== null && c.value.length > 0)
  if (live.length === 0) return null
  if (live.length === 1) return { t: 'leaf', path: live[0]!.key.subarray(d), value: live[0]!.value! }
  const first = live[0]!.key
  const last = live[live.length - 1]!.key
  let c = 0
  while (d + c < first.length && d + c < last.length && first[d + c] === last[d + c]) c++
  if (c > 0) return { t: 'ext', path: first.subarray(d, d + c), child: build(live, d + c)! }
  const children: (Child | null)[] = new Array(16).fill(null)
  let value: Uint8Array | null = null
  let i = 0
  while (i < live.length) {
    if (live[i]!.key.length === d) {
      value = live[i]!.value
      i++
      continue
    }
    const nibble = live[i]!.key[d]!
    let j = i + 1
    while (j < live.length && live[j]!.key[d] === nibble) j++
    children[nibble] = build(live.slice(i, j), d + 1)
    i = j
  }
  return { t: 'branch', children, value }
}

/** `prefix` followed by `node`: paths of leaves and extensions join, a branch gets an extension. */
function withPrefix(prefix: Uint8Array, node: Child | null, batch: Batch): Node | null {
  if (node === null) return null
  const resolved = node.t === 'hash' ? batch.resolve(node) : node
  if (resolved.t === 'leaf') return { t: 'leaf', path: concatBytes(prefix, resolved.path), value: resolved.value }
  if (resolved.t === 'ext') return { t: 'ext', path: concatBytes(prefix, resolved.path), child: resolved.child }
  if (prefix.length === 0) return resolved
  return { t: 'ext', path: prefix, child: node }
}

function decodeNode(raw: RawNode): Node {
  if (raw.length === 17) {
    const children = raw.slice(0, 16).map((c): Child | null => (c instanceof Uint8Array ? (c.length === 0 ? null : { t: 'hash', hash: c }) : decodeNode(c)))
    const value = raw[16] as Uint8Array
    return { t: 'branch', children, value: value.length === 0 ? null : value }
  }
  const encoded = raw[0] as Uint8Array
  const flag = encoded[0]! >> 4
  const nibbles = toNibbles(encoded)
  const path = nibbles.subarray(flag & 1 ? 1 : 2)
  if (flag >= 2) return { t: 'leaf', path, value: raw[1] as Uint8Array }
  const child = raw[1]!
  return { t: 'ext', path, child: child instanceof Uint8Array ? { t: 'hash', hash: child } : decodeNode(child) }
}

/** The hex-prefix encoding of a path (yellow paper, appendix C). */
function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2
  const out = new Uint8Array(1 + (path.length >> 1))
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = 0
  if (odd) out[0] |= path[i++]!
  for (let o = 1; i < path.length; i += 2) out[o++] = (path[i]! << 4) | path[i + 1]!
  return out
}

function insertSorted(changes: TrieChange[], c: TrieChange): TrieChange[] {
  const out = changes.slice()
  let i = 0
  while (i < out.length && compareNibbles(out[i]!.key, c.key) < 0) i++
  out.splice(i, 0, c)
  return out
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** A node's key in TrieNodes: flat hex from Buffer (the @ethereumjs/util helper concatenates two digits at a time). */
function nodeKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex')
}

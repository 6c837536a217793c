import { randomBytes } from 'node:crypto'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { MissingTrieNodeError, applyTrieChanges, toNibbles, trieLeaves, trieLookup, type TrieChange, type TrieNodes } from '../../../../src/engine/state/trieBatch.js'

/*
 * The batched trie update against @ethereumjs/mpt, the trie the node's proofs and history read:
 * the same roots after rounds of inserts, updates and deletes (short values make embedded nodes),
 * and nodes ethereumjs can walk to every value.
 */

function memoryNodes(): TrieNodes & { map: Map<string, Uint8Array> } {
  const map = new Map<string, Uint8Array>()
  return { map, get: (k) => map.get(k), put: (k, v) => void map.set(k, v) }
}

const value = () => (Math.random() < 0.3 ? Uint8Array.of(1 + Math.floor(Math.random() * 200)) : new Uint8Array(randomBytes(1 + Math.floor(Math.random() * 70))))

describe('applyTrieChanges', () => {
  it('gives ethereumjs roots over rounds of inserts, updates and deletes, and nodes it reads back', async () => {
    const reference = new MerklePatriciaTrie()
    const nodes = memoryNodes()
    let root = KECCAK256_RLP
    const live = new Map<string, Uint8Array>()
    for (let round = 0; round < 25; round++) {
      const changes = new Map<string, Uint8Array | null>()
      const size = round === 0 ? 300 : 1 + Math.floor(Math.random() * 60)
      for (let i = 0; i < size; i++) {
        const keys = [...live.keys()]
        const r = Math.random()
        if (keys.length > 0 && r < 0.3) changes.set(keys[Math.floor(Math.random() * keys.length)]!, null)
        else if (keys.length > 0 && r < 0.6) changes.set(keys[Math.floor(Math.random() * keys.length)]!, value())
        else changes.set(bytesToHex(randomBytes(32)), value())
      }
      // Keys sharing long prefixes make extensions and embedded branches.
      if (round % 5 === 4) {
        const base = randomBytes(32)
        for (let i = 0; i < 5; i++) {
          const k = Buffer.from(base)
          k[31] = i
          changes.set(bytesToHex(k), Uint8Array.of(i + 1))
        }
      }
      const list: TrieChange[] = []
      for (const [k, v] of changes) {
        list.push({ key: toNibbles(hexToBytes(k as `0x${string}`)), value: v })
        if (v === null) {
          await reference.del(hexToBytes(k as `0x${string}`))
          live.delete(k)
        } else {
          await reference.put(hexToBytes(k as `0x${string}`), v)
          live.set(k, v)
        }
      }
      root = applyTrieChanges(nodes, root, list)
      expect(bytesToHex(root)).toBe(bytesToHex(reference.root()))
    }
    const reader = new MerklePatriciaTrie({ root })
    for (const [k, v] of nodes.map) await reader.database().put(hexToBytes(`0x${k}`), v)
    for (const [k, v] of live) expect(bytesToHex((await reader.get(hexToBytes(k as `0x${string}`)))!)).toBe(bytesToHex(v))
    // Walking the leaves gives back exactly the live keys, in key order (the flat state's rebuild).
    const walked = [...trieLeaves(nodes, root)].map(([k, v]) => [bytesToHex(k), bytesToHex(v)])
    expect(walked).toEqual([...live].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, bytesToHex(v)]))
  })

  it('deleting every key empties the trie', () => {
    const nodes = memoryNodes()
    const keys = Array.from({ length: 40 }, () => toNibbles(randomBytes(32)))
    const root = applyTrieChanges(
      nodes,
      KECCAK256_RLP,
      keys.map((key) => ({ key, value: value() })),
    )
    expect(bytesToUnprefixedHex(root)).not.toBe(bytesToUnprefixedHex(KECCAK256_RLP))
    expect(
      bytesToHex(
        applyTrieChanges(
          nodes,
          root,
          keys.map((key) => ({ key, value: null })),
        ),
      ),
    ).toBe(bytesToHex(KECCAK256_RLP))
  })
})

describe('trieLookup and missing nodes (a fork reads and writes a trie it holds only in part)', () => {
  const build = () => {
    const nodes = memoryNodes()
    const entries = Array.from({ length: 200 }, () => ({ key: randomBytes(32), value: new Uint8Array(randomBytes(40)) }))
    const root = applyTrieChanges(
      nodes,
      KECCAK256_RLP,
      entries.map((e) => ({ key: toNibbles(e.key), value: e.value })),
    )
    return { nodes, entries, root }
  }

  it('reads each value, and null for an absent key', () => {
    const { nodes, entries, root } = build()
    for (const e of entries) expect(bytesToHex((trieLookup(nodes, root, e.key) as { value: Uint8Array }).value)).toBe(bytesToHex(e.value))
    expect(trieLookup(nodes, root, randomBytes(32))).toEqual({ value: null })
  })

  it('names the first node on the path that is not stored, by hash and position', () => {
    const { nodes, entries, root } = build()
    const rootHex = bytesToUnprefixedHex(root)
    const rootNode = nodes.map.get(rootHex)!
    nodes.map.delete(rootHex)
    const missing = trieLookup(nodes, root, entries[0]!.key)
    expect(missing).toBeInstanceOf(MissingTrieNodeError)
    expect([(missing as MissingTrieNodeError).hashHex, (missing as MissingTrieNodeError).path.length]).toEqual([rootHex, 0])
    nodes.map.set(rootHex, rootNode)
    // A child of the root: its position is the key's first nibble.
    const first = toNibbles(entries[0]!.key)[0]!
    const childHex = [...nodes.map.keys()].find(
      (k) => k !== rootHex && trieLookup({ ...nodes, get: (h) => (h === k ? undefined : nodes.map.get(h)) }, root, entries[0]!.key) instanceof MissingTrieNodeError,
    )!
    nodes.map.delete(childHex)
    const deeper = trieLookup(nodes, root, entries[0]!.key) as MissingTrieNodeError
    expect(deeper.hashHex).toBe(childHex)
    expect(deeper.path[0]).toBe(first)
  })

  it('a delete that folds a branch into a child it does not hold throws that child, then succeeds once it is there', async () => {
    // Built by ethereumjs, so no node of it is in this module's decoded-node cache (as an origin's node a fork never read).
    const reference = new MerklePatriciaTrie()
    const a = new Uint8Array(32).fill(0x11)
    const b = new Uint8Array(32).fill(0x22)
    const valueB = new Uint8Array(randomBytes(40))
    await reference.put(a, new Uint8Array(randomBytes(40)))
    await reference.put(b, valueB)
    const root = reference.root()
    const nodes = memoryNodes()
    for (const [k, v] of (reference.database().db as unknown as { _database: Map<string, Uint8Array> })._database) nodes.map.set(k, v)
    // The root is a branch; its child at nibble 2 is b's leaf, referenced by hash.
    const leafHash = bytesToUnprefixedHex((RLP.decode(nodes.map.get(bytesToUnprefixedHex(root))!) as Uint8Array[])[2]!)
    const leafB: [string, Uint8Array] = [leafHash, nodes.map.get(leafHash)!]
    nodes.map.delete(leafB[0])
    let thrown: unknown
    try {
      applyTrieChanges(nodes, root, [{ key: toNibbles(a), value: null }])
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(MissingTrieNodeError)
    expect([(thrown as MissingTrieNodeError).hashHex, [...(thrown as MissingTrieNodeError).path]]).toEqual([leafB[0], [2]])
    nodes.map.set(leafB[0], leafB[1])
    const folded = applyTrieChanges(nodes, root, [{ key: toNibbles(a), value: null }])
    const only = applyTrieChanges(memoryNodes(), KECCAK256_RLP, [{ key: toNibbles(b), value: valueB }])
    expect(bytesToHex(folded)).toBe(bytesToHex(only))
  })
})

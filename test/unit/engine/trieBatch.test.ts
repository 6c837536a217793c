import { randomBytes } from 'node:crypto'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { KECCAK256_RLP, bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { applyTrieChanges, toNibbles, trieLeaves, type TrieChange, type TrieNodes } from '../../../src/engine/trieBatch.js'

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

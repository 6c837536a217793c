import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { orderedTrieRoot } from '../../../../src/engine/chain/orderedTrieRoot.js'

/*
 * The one-pass root against @ethereumjs/mpt's trie filled with a put per item (what the block
 * builder used before): same keys rlp(i), values of every size class, so leaves and branches
 * are both inlined (under 32 bytes) and hashed.
 */

/** Deterministic pseudo-random bytes (xorshift), so a failure reproduces. */
function bytes(seed: number, length: number): Uint8Array {
  let x = seed * 2654435761 + 1
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

async function trieRoot(values: Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]!)
  return bytesToHex(trie.root())
}

describe('orderedTrieRoot', () => {
  it('is the empty trie root for no values', async () => {
    expect(bytesToHex(orderedTrieRoot([]))).toBe(await trieRoot([]))
  })

  for (const count of [1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 200, 256, 300, 1100]) {
    for (const size of [1, 4, 20, 40, 120]) {
      it(`matches the trie for ${count} values of ${size} bytes`, async () => {
        const values = Array.from({ length: count }, (_, i) => bytes(i + count * 7 + size, size))
        expect(bytesToHex(orderedTrieRoot(values))).toBe(await trieRoot(values))
      })
    }
  }

  it('matches the trie for values of mixed sizes (an empty value would be a delete: never one here)', async () => {
    const values = Array.from({ length: 300 }, (_, i) => bytes(i, 1 + ((i * 37) % 90)))
    expect(bytesToHex(orderedTrieRoot(values))).toBe(await trieRoot(values))
  })
})

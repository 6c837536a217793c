import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_RLP, bytesToUnprefixedHex, createAccountFromRLP, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { FlatChanges } from '../store/flatState.js'
import { keccak256 } from '../util/crypto.js'
import type { StateChanges } from './overlayState.js'
import { applyTrieChanges, toNibbles, type TrieChange, type TrieNodes } from './trieBatch.js'

/** ethereumjs keeps contract code in the trie's database under 'c' ‖ code hash. */
const CODE_PREFIX = '63'
/** Account changes applied to the trie in one synchronous pass. */
const ACCOUNTS_PER_RUN = 256

/**
 * Applies one block's changes to the Merkle trie and returns the new state root and the same
 * changes for the flat state. The trie sees each block once, with only what the block changed
 * (src/engine/trieBatch.ts: each touched node loaded, rewritten and hashed once); its new nodes go
 * to `nodes` (the TrieDB's pending writes, on disk in the block's batch). `headAccount` reads the
 * parent's account RLP by keccak(address) (the flat state, still at the parent).
 */
export async function writeChanges(
  nodes: TrieNodes,
  parentRoot: Uint8Array,
  headAccount: (addrHash: string) => Uint8Array | null,
  changes: StateChanges,
  pause: () => Promise<void> = async () => {},
): Promise<{ root: Uint8Array; flat: FlatChanges }> {
  for (const [hash, code] of changes.codes) nodes.put(CODE_PREFIX + hash, code)
  const flat: FlatChanges = { accounts: new Map(), storage: new Map(), cleared: new Set() }
  const accountChanges: TrieChange[] = []
  for (const addr of new Set([...changes.accounts.keys(), ...changes.storage.keys(), ...changes.cleared])) {
    const account = changes.accounts.get(addr)
    const slots = changes.storage.get(addr)
    const cleared = changes.cleared.has(addr)
    if (account === undefined && !cleared && (slots === undefined || slots.size === 0)) continue
    await pause()
    const addrHashBytes = keccak256(hexToBytes(`0x${addr}`))
    const addrHash = bytesToUnprefixedHex(addrHashBytes)
    const key = toNibbles(addrHashBytes)
    if (cleared || account === null) flat.cleared.add(addrHash)
    if (account === null) {
      accountChanges.push({ key, value: null })
      flat.accounts.set(addrHash, null)
      continue
    }
    const parentRlp = headAccount(addrHash)
    const parent = parentRlp === null ? undefined : createAccountFromRLP(parentRlp)
    const now = account ?? parent
    if (now === undefined) continue
    let storageRoot = cleared || parent === undefined ? KECCAK256_RLP : parent.storageRoot
    if (slots !== undefined && slots.size > 0) {
      const slotChanges: TrieChange[] = []
      for (const [slot, value] of slots) {
        const slotHash = keccak256(hexToBytes(`0x${slot}`))
        flat.storage.set(addrHash + bytesToUnprefixedHex(slotHash), value)
        slotChanges.push({ key: toNibbles(slotHash), value: value.length === 0 ? null : RLP.encode(value) })
      }
      storageRoot = applyTrieChanges(nodes, storageRoot, slotChanges)
    }
    const rlp = new Account(now.nonce, now.balance, storageRoot, now.codeHash).serialize()
    accountChanges.push({ key, value: rlp })
    flat.accounts.set(addrHash, rlp)
  }
  // In runs of keys that sit together in the trie, with a pause between runs (requests go on during a big block).
  accountChanges.sort((a, b) => Buffer.compare(a.key, b.key))
  let root = parentRoot
  for (let i = 0; i < accountChanges.length; i += ACCOUNTS_PER_RUN) {
    await pause()
    root = applyTrieChanges(nodes, root, accountChanges.slice(i, i + ACCOUNTS_PER_RUN))
  }
  return { root, flat }
}

/** Every account of the trie at its root, with its storage slots, for FlatState.rebuild(). */
export async function* flatEntries(trie: MerklePatriciaTrie): AsyncGenerator<{ addrHash: Uint8Array; account: Uint8Array; slots: [Uint8Array, Uint8Array][] }> {
  for await (const [addrHash, rlp] of leaves(trie, trie.root())) {
    const account = createAccountFromRLP(rlp)
    const slots: [Uint8Array, Uint8Array][] = []
    if (!equalsBytes(account.storageRoot, KECCAK256_RLP)) {
      for await (const [slotHash, value] of leaves(trie, account.storageRoot)) slots.push([slotHash, RLP.decode(value) as Uint8Array])
    }
    yield { addrHash, account: rlp, slots }
  }
}

/** The (hashed key, value) leaves under a root, depth first. */
async function* leaves(trie: MerklePatriciaTrie, root: Uint8Array, path: number[] = []): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (equalsBytes(root, KECCAK256_RLP)) return
  yield* walk(trie, await trie.lookupNode(root), path)
}

async function* walk(trie: MerklePatriciaTrie, node: unknown, path: number[]): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (node instanceof LeafMPTNode) {
    yield [packNibbles([...path, ...node.key()]), node.value()!]
  } else if (node instanceof ExtensionMPTNode) {
    yield* walk(trie, await trie.lookupNode(node.value()), [...path, ...node.key()])
  } else if (node instanceof BranchMPTNode) {
    for (const [nibble, child] of node.getChildren()) {
      // lookupNode takes a hash or a node embedded in its parent (under 32 bytes).
      yield* walk(trie, await trie.lookupNode(child as Uint8Array), [...path, nibble])
    }
  }
}

function packNibbles(nibbles: number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!
  return out
}

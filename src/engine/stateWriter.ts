import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, KECCAK256_RLP, createAccountFromRLP, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { FlatChanges } from '../store/flatState.js'
import type { TrieDB } from '../store/trieDb.js'
import { hashHex } from './flatView.js'
import type { StateChanges } from './overlayState.js'

/** ethereumjs keeps contract code in the trie's database under 'c' ‖ code hash. */
const CODE_PREFIX = '63'

/**
 * Applies one block's changes to the Merkle trie (a state manager at the parent's root) and
 * returns the new state root and the same changes for the flat state. The trie sees each block
 * once, with only what the block changed; its node writes stay pending in the TrieDB until the
 * block's batch.
 */
export async function writeChanges(sm: MerkleStateManager, trieDb: TrieDB, changes: StateChanges): Promise<{ root: Uint8Array; flat: FlatChanges }> {
  for (const [hash, code] of changes.codes) await trieDb.put(CODE_PREFIX + hash, code)
  const flat: FlatChanges = { accounts: new Map(), storage: new Map(), cleared: new Set() }
  const touched: [Address, string][] = []
  for (const addr of new Set([...changes.accounts.keys(), ...changes.storage.keys(), ...changes.cleared])) {
    const account = changes.accounts.get(addr)
    const slots = changes.storage.get(addr)
    const cleared = changes.cleared.has(addr)
    if (account === undefined && !cleared && (slots === undefined || slots.size === 0)) continue
    const address = new Address(hexToBytes(`0x${addr}`))
    const addrHash = hashHex(address.bytes)
    if (cleared || account === null) flat.cleared.add(addrHash)
    if (account === null) {
      await sm.deleteAccount(address)
      touched.push([address, addrHash])
      continue
    }
    if (cleared) await sm.clearStorage(address)
    // The overlay's account carries the storage root it was read with (empty once cleared), which is the trie's at the parent.
    if (account !== undefined) await sm.putAccount(address, new Account(account.nonce, account.balance, cleared ? KECCAK256_RLP : account.storageRoot, account.codeHash))
    for (const [slot, value] of slots ?? []) {
      const key = hexToBytes(`0x${slot}`)
      await sm.putStorage(address, key, value)
      flat.storage.set(addrHash + hashHex(key), value)
    }
    touched.push([address, addrHash])
  }
  const root = await sm.getStateRoot()
  for (const [address, addrHash] of touched) {
    const account = await sm.getAccount(address)
    flat.accounts.set(addrHash, account === undefined ? null : account.serialize())
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

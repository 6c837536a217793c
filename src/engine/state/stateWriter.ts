import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, createAccountFromRLP } from '@ethereumjs/util'
import type { FlatChanges } from '../../store/flatState.js'
import { codeKey } from '../../store/trieDb.js'
import { rlpEncode, rlpUint } from '../../util/rlp.js'
import { keyHash } from './keyHash.js'
import type { StateChanges } from './overlayState.js'
import { MissingTrieNodeError, applyTrieChanges, toNibbles, trieLeaves, type TrieChange, type TrieNodes } from './trieBatch.js'

/** On a fork, what a block's trie writes need from the origin (src/engine/state/forkState.ts). */
export interface TrieRepair {
  /** The head's account the flat state does not know yet. */
  account(root: Uint8Array, address: Uint8Array): Promise<Uint8Array | null>
  /** Fetches a node a change needs; `address`: whose storage trie (undefined: the account trie). */
  missing(err: MissingTrieNodeError, address: Uint8Array | undefined): Promise<void>
}

/**
 * Account changes applied to the trie in one synchronous pass: 256 held the event loop 10-30 ms
 * on this machine; each run rewrites only the root's path again, a few nodes.
 */
const ACCOUNTS_PER_RUN = 64

/**
 * Applies one block's changes to the Merkle trie and returns the new state root and the same
 * changes for the flat state. The trie sees each block once, with only what the block changed
 * (src/engine/state/trieBatch.ts: each touched node loaded, rewritten and hashed once); its new nodes go
 * to `nodes` (the TrieDB's pending writes, on disk in the block's batch). `headAccount` reads the
 * parent's account RLP by keccak(address) (the flat state, still at the parent).
 */
export async function writeChanges(
  nodes: TrieNodes,
  parentRoot: Uint8Array,
  headAccount: (addrHash: string) => Uint8Array | null | undefined,
  changes: StateChanges,
  pause: () => Promise<void> = async () => {},
  repair?: TrieRepair,
): Promise<{ root: Uint8Array; flat: FlatChanges }> {
  for (const [hash, code] of changes.codes) nodes.put(codeKey(hash), code)
  const flat: FlatChanges = { accounts: new Map(), storage: new Map(), cleared: new Set(), preimages: new Map() }
  const accountChanges: TrieChange[] = []
  for (const addr of new Set([...changes.accounts.keys(), ...changes.storage.keys(), ...changes.cleared])) {
    const account = changes.accounts.get(addr)
    const slots = changes.storage.get(addr)
    const cleared = changes.cleared.has(addr)
    if (account === undefined && !cleared && (slots === undefined || slots.size === 0)) continue
    await pause()
    const addrBytes = Buffer.from(addr, 'hex')
    const { bytes: addrHashBytes, hex: addrHash } = keyHash(addrBytes)
    flat.preimages!.set(addrHash, addrBytes)
    const key = toNibbles(addrHashBytes)
    if (cleared || account === null) flat.cleared.add(addrHash)
    if (account === null) {
      accountChanges.push({ key, value: null })
      flat.accounts.set(addrHash, null)
      continue
    }
    let parentRlp = headAccount(addrHash)
    if (parentRlp === undefined) parentRlp = repair === undefined ? null : await repair.account(parentRoot, addrBytes)
    const parent = parentRlp === null ? undefined : createAccountFromRLP(parentRlp)
    const now = account ?? parent
    if (now === undefined) continue
    let storageRoot = cleared || parent === undefined ? KECCAK256_RLP : parent.storageRoot
    if (slots !== undefined && slots.size > 0) {
      const slotChanges: TrieChange[] = []
      for (const [slot, value] of slots) {
        const slotBytes = Buffer.from(slot, 'hex')
        const slotHash = keyHash(slotBytes)
        flat.storage.set(addrHash + slotHash.hex, value)
        flat.preimages!.set(slotHash.hex, slotBytes)
        slotChanges.push({ key: toNibbles(slotHash.bytes), value: value.length === 0 ? null : RLP.encode(value) })
      }
      storageRoot = await applyRepairing(nodes, storageRoot, slotChanges, repair, addrBytes)
    }
    const rlp = rlpEncode([rlpUint(now.nonce), rlpUint(now.balance), storageRoot, now.codeHash])
    accountChanges.push({ key, value: rlp })
    flat.accounts.set(addrHash, rlp)
  }
  // In runs of keys that sit together in the trie, with a pause between runs (requests go on during a big block).
  accountChanges.sort((a, b) => Buffer.compare(a.key, b.key))
  let root = parentRoot
  for (let i = 0; i < accountChanges.length; i += ACCOUNTS_PER_RUN) {
    await pause()
    root = await applyRepairing(nodes, root, accountChanges.slice(i, i + ACCOUNTS_PER_RUN), repair, undefined)
  }
  return { root, flat }
}

/** applyTrieChanges, fetching (on a fork) each origin node it turns out to need and trying again. */
async function applyRepairing(nodes: TrieNodes, root: Uint8Array, changes: TrieChange[], repair: TrieRepair | undefined, address: Uint8Array | undefined): Promise<Uint8Array> {
  for (;;) {
    try {
      return applyTrieChanges(nodes, root, changes)
    } catch (err) {
      if (repair === undefined || !(err instanceof MissingTrieNodeError)) throw err
      await repair.missing(err, address)
    }
  }
}

/** Every account of the trie at `root`, with its storage slots, for FlatState.rebuild(). */
export async function* flatEntries(nodes: TrieNodes, root: Uint8Array): AsyncGenerator<{ addrHash: Uint8Array; account: Uint8Array; slots: [Uint8Array, Uint8Array][] }> {
  for (const [addrHash, rlp] of trieLeaves(nodes, root)) {
    const { storageRoot } = createAccountFromRLP(rlp)
    const slots: [Uint8Array, Uint8Array][] = []
    for (const [slotHash, value] of trieLeaves(nodes, storageRoot)) slots.push([slotHash, RLP.decode(value) as Uint8Array])
    yield { addrHash, account: rlp, slots }
  }
}

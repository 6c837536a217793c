import { type Account, type Address, KECCAK256_NULL, createAccountFromRLP, equalsBytes } from '@ethereumjs/util'
import type { FlatState } from '../../store/flatState.js'
import { keyHash } from './keyHash.js'

/** What reads of one block's state need: the flat state (head and recent blocks) or the trie (older ones). */
export interface StateReader {
  getAccount(address: Address): Promise<Account | undefined>
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>
  getCode(address: Address): Promise<Uint8Array>
}

/** Contract code by code hash (content-addressed, so one source serves every block). */
export type CodeSource = (codeHash: Uint8Array) => Uint8Array | undefined

/**
 * On a fork, where what the flat state does not know is read: the trie at the block's state root,
 * with the origin's missing parts fetched (src/engine/state/forkState.ts).
 */
export interface StateFetcher {
  /** The account's trie RLP at `root`, or null when absent. */
  account(root: Uint8Array, address: Uint8Array): Promise<Uint8Array | null>
  /** A slot's value (leading zeros stripped; empty = zero) at `root`. */
  slot(root: Uint8Array, address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>
  /** A contract's code by its hash, fetched from the origin when not stored. */
  code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array>
}

/** A fork's fetcher and the state root a view reads at (the head's moves with it). */
export interface ViewFetch {
  fetcher: StateFetcher
  root: () => Uint8Array
}

/**
 * The state of one block read from the flat state: one keyed lookup per account or slot. `at`
 * pins it to a block (undefined follows the head, for the block builder); a pinned view stays
 * exact after the head moves on, through the flat state's undo layers, and reads the trie
 * (`fallback`) once the head is further on than those layers reach. On a fork (`fetch`), a key the
 * flat state does not know yet is read from the trie and remembered.
 */
export class FlatView implements StateReader {
  private trie: StateReader | undefined

  constructor(
    private readonly flat: FlatState,
    private readonly code: CodeSource,
    readonly at?: bigint,
    private readonly fallback?: () => StateReader,
    private readonly fetch?: ViewFetch,
  ) {}

  /** The trie reader once this view's block is older than the undo layers reach. */
  private old(): StateReader | undefined {
    if (this.at === undefined || this.fallback === undefined || this.flat.covers(this.at)) return undefined
    this.trie ??= this.fallback()
    return this.trie
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const old = this.old()
    if (old !== undefined) return old.getAccount(address)
    const addrHash = hashHex(address.bytes)
    let rlp = this.flat.account(addrHash, this.at)
    if (rlp === undefined) rlp = await this.fetchAccount(address.bytes, addrHash)
    return rlp === null ? undefined : createAccountFromRLP(rlp)
  }

  /**
   * The account without a promise (eth_getBalance's synchronous answer, docs/PERFORMANCE.md), or null
   * when the read must wait: this view's block is older than the undo layers reach, or a fork does
   * not know the account yet.
   */
  accountNow(address: Uint8Array): Account | undefined | null {
    if (this.at !== undefined && this.fallback !== undefined && !this.flat.covers(this.at)) return null
    const rlp = this.flat.account(hashHex(address), this.at)
    if (rlp === undefined) return null
    return rlp === null ? undefined : createAccountFromRLP(rlp)
  }

  /** A fork's account the flat state does not know: read from the trie, then remembered for the head. */
  private async fetchAccount(address: Uint8Array, addrHash: string): Promise<Uint8Array | null> {
    if (this.fetch === undefined) return null
    const number = this.at ?? this.flat.number
    const rlp = await this.fetch.fetcher.account(this.fetch.root(), address)
    this.flat.fill('account', addrHash, rlp, number, address)
    return rlp
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const old = this.old()
    if (old !== undefined) return old.getStorage(address, key)
    const addrHash = hashHex(address.bytes)
    const slotHash = hashHex(key)
    const known = this.flat.slot(addrHash, slotHash, this.at)
    if (known !== undefined) return known
    if (this.fetch === undefined) return new Uint8Array(0)
    const number = this.at ?? this.flat.number
    const value = await this.fetch.fetcher.slot(this.fetch.root(), address.bytes, key)
    this.flat.fill('slot', addrHash + slotHash, value, number, key)
    return value
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const old = this.old()
    if (old !== undefined) return old.getCode(address)
    const addrHash = hashHex(address.bytes)
    let rlp = this.flat.account(addrHash, this.at)
    if (rlp === undefined) rlp = await this.fetchAccount(address.bytes, addrHash)
    if (rlp === null) return new Uint8Array(0)
    const { codeHash } = createAccountFromRLP(rlp)
    if (equalsBytes(codeHash, KECCAK256_NULL)) return new Uint8Array(0)
    return this.code(codeHash) ?? (await this.fetch?.fetcher.code(address.bytes, codeHash)) ?? new Uint8Array(0)
  }
}

export function hashHex(bytes: Uint8Array): string {
  return keyHash(bytes).hex
}

import { type Account, type Address, KECCAK256_NULL, createAccountFromRLP, equalsBytes } from '@ethereumjs/util'
import type { FlatState } from '../store/flatState.js'
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
 * The state of one block read from the flat state: one keyed lookup per account or slot. `at`
 * pins it to a block (undefined follows the head, for the block builder); a pinned view stays
 * exact after the head moves on, through the flat state's undo layers, and reads the trie
 * (`fallback`) once the head is further on than those layers reach.
 */
export class FlatView implements StateReader {
  private trie: StateReader | undefined

  constructor(
    private readonly flat: FlatState,
    private readonly code: CodeSource,
    readonly at?: bigint,
    private readonly fallback?: () => StateReader,
  ) {}

  /** The trie reader once this view's block is older than the undo layers reach. */
  private old(): StateReader | undefined {
    if (this.at === undefined || this.fallback === undefined || this.flat.covers(this.at)) return undefined
    this.trie ??= this.fallback()
    return this.trie
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    return this.old()?.getAccount(address) ?? this.account(address)
  }

  private account(address: Address): Account | undefined {
    return this.accountNow(address.bytes) ?? undefined
  }

  /**
   * The account without a promise (eth_getBalance's synchronous answer, docs/PERFORMANCE.md), or null
   * when this view's block is older than the undo layers reach and the read must go to the trie.
   */
  accountNow(address: Uint8Array): Account | undefined | null {
    if (this.at !== undefined && this.fallback !== undefined && !this.flat.covers(this.at)) return null
    const rlp = this.flat.account(hashHex(address), this.at)
    return rlp === null ? undefined : createAccountFromRLP(rlp)
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.old()?.getStorage(address, key) ?? this.flat.slot(hashHex(address.bytes), hashHex(key), this.at)
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const old = this.old()
    if (old !== undefined) return old.getCode(address)
    const account = this.account(address)
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array(0)
    return this.code(account.codeHash) ?? new Uint8Array(0)
  }
}

export function hashHex(bytes: Uint8Array): string {
  return keyHash(bytes).hex
}

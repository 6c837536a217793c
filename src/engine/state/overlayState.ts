import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { OriginalStorageCache } from '@ethereumjs/statemanager'
import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex, equalsBytes, unpadBytes } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import type { CodeSource, StateReader } from './flatView.js'

/** What an execution changed, by address (lower-case hex without 0x) and slot (hex of the 32-byte key). */
export interface StateChanges {
  /** the account after the changes; null = deleted */
  accounts: Map<string, Account | null>
  storage: Map<string, Map<string, Uint8Array>>
  /** accounts whose earlier storage is gone (deleted, or cleared) before `storage` applies */
  cleared: Set<string>
  /** new contract code by code hash (hex) */
  codes: Map<string, Uint8Array>
}

type Entry =
  | { kind: 'account'; addr: string; prev: Account | null | undefined }
  | { kind: 'slot'; addr: string; slot: string; prev: Uint8Array | undefined }
  | { kind: 'clear'; addr: string; prevSlots: Map<string, Uint8Array> | undefined; prevCleared: boolean }
  | { kind: 'code'; hash: string; had: boolean }

/**
 * The EVM's state for calls and block building: reads fall through to a block's state (flat or
 * trie), writes stay in maps here. A checkpoint is a journal length and a revert undoes the
 * journal back to it (geth's state journal), so a call costs what it touches, not a Merkle
 * checkpoint. changes() hands a block's writes to the trie and the flat state once, at its end.
 */
export class OverlayState implements StateManagerInterface {
  private accounts = new Map<string, Account | null>()
  private slots = new Map<string, Map<string, Uint8Array>>()
  private cleared = new Set<string>()
  private codes = new Map<string, Uint8Array>()
  /** The base's answers so far: the base does not change under an overlay (a pinned block, or the head until the block is committed and reset() runs). */
  private readAccounts = new Map<string, Account | null>()
  private readSlots = new Map<string, Uint8Array>()
  private journal: Entry[] = []
  private marks: number[] = []
  readonly originalStorageCache: OriginalStorageCache

  constructor(
    private base: StateReader,
    private readonly code: CodeSource,
  ) {
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this))
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const addr = key(address)
    // A deletion here (null) hides the base's account: not `??`, which would read past it.
    const written = this.accounts.get(addr)
    const own = written !== undefined ? written : this.readAccounts.get(addr)
    if (own !== undefined) return own === null ? undefined : copy(own)
    const read = await this.base.getAccount(address)
    this.readAccounts.set(addr, read ?? null)
    return read === undefined ? undefined : copy(read)
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    this.setAccount(key(address), copy(account))
  }

  async deleteAccount(address: Address): Promise<void> {
    const addr = key(address)
    this.setAccount(addr, null)
    this.clearSlots(addr)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    account.nonce = fields.nonce ?? account.nonce
    account.balance = fields.balance ?? account.balance
    account.storageRoot = fields.storageRoot ?? account.storageRoot
    account.codeHash = fields.codeHash ?? account.codeHash
    this.setAccount(key(address), account)
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const codeHash = keccak256(value)
    const hash = bytesToUnprefixedHex(codeHash)
    this.journal.push({ kind: 'code', hash, had: this.codes.has(hash) })
    this.codes.set(hash, value)
    await this.modifyAccountFields(address, { codeHash })
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const account = await this.getAccount(address)
    if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array(0)
    // A fork's code not fetched yet comes from the base view (src/engine/state/flatView.ts).
    return this.codes.get(bytesToUnprefixedHex(account.codeHash)) ?? this.code(account.codeHash) ?? this.base.getCode(address)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const addr = key(address)
    const s = bytesToUnprefixedHex(slot)
    const own = this.slots.get(addr)?.get(s)
    if (own !== undefined) return own
    if (this.cleared.has(addr)) return new Uint8Array(0)
    const k = addr + s
    let read = this.readSlots.get(k)
    if (read === undefined) {
      read = await this.base.getStorage(address, slot)
      this.readSlots.set(k, read)
    }
    return read
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    this.setSlot(key(address), bytesToUnprefixedHex(slot), unpadBytes(value))
  }

  async clearStorage(address: Address): Promise<void> {
    const addr = key(address)
    this.clearSlots(addr)
    const own = this.accounts.get(addr)
    if (own) this.setAccount(addr, Object.assign(copy(own), { storageRoot: KECCAK256_RLP }))
  }

  async checkpoint(): Promise<void> {
    this.marks.push(this.journal.length)
  }

  async commit(): Promise<void> {
    this.marks.pop()
    if (this.marks.length === 0) {
      this.journal = []
      this.originalStorageCache.clear()
    }
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0
    for (let i = this.journal.length - 1; i >= mark; i--) this.undo(this.journal[i]!)
    this.journal.length = mark
    if (this.marks.length === 0) this.originalStorageCache.clear()
  }

  /** This execution's writes so far (block building hands them to the trie and the flat state). */
  changes(): StateChanges {
    return { accounts: this.accounts, storage: this.slots, cleared: this.cleared, codes: this.codes }
  }

  /** The journal's length, for changesSince(): take it inside a checkpoint (the outermost commit empties the journal). */
  mark(): number {
    return this.journal.length
  }

  /** The writes journaled since `mark`, as they stand now (the interpreter's oracle compares them with its own). */
  changesSince(mark: number): StateChanges {
    const out: StateChanges = { accounts: new Map(), storage: new Map(), cleared: new Set(), codes: new Map() }
    for (let i = mark; i < this.journal.length; i++) {
      const e = this.journal[i]!
      if (e.kind === 'account') out.accounts.set(e.addr, this.accounts.get(e.addr) ?? null)
      else if (e.kind === 'slot') {
        const value = this.slots.get(e.addr)?.get(e.slot)
        if (value !== undefined) out.storage.set(e.addr, (out.storage.get(e.addr) ?? new Map()).set(e.slot, value))
      } else if (e.kind === 'clear') {
        if (this.cleared.has(e.addr)) out.cleared.add(e.addr)
      } else {
        const code = this.codes.get(e.hash)
        if (code !== undefined) out.codes.set(e.hash, code)
      }
    }
    return out
  }

  /**
   * Writes the effects of an execution that read this state but did not write it (the node's
   * interpreter runs a block's transaction so), journaled as every write is.
   */
  apply(changes: StateChanges): void {
    for (const addr of changes.cleared) this.clearSlots(addr)
    for (const [addr, account] of changes.accounts) {
      this.setAccount(addr, account === null ? null : copy(account))
      if (account === null && !changes.cleared.has(addr)) this.clearSlots(addr)
    }
    for (const [hash, code] of changes.codes) {
      this.journal.push({ kind: 'code', hash, had: this.codes.has(hash) })
      this.codes.set(hash, code)
    }
    for (const [addr, slots] of changes.storage) for (const [slot, value] of slots) this.setSlot(addr, slot, value)
  }

  /** Reads another state from now on (an executor moved to another block), with every write dropped. */
  rebase(base: StateReader): void {
    this.base = base
    this.reset()
  }

  /** Drops every write: the overlay reads its base again (after a block is committed or abandoned). */
  reset(): void {
    this.accounts = new Map()
    this.slots = new Map()
    this.cleared = new Set()
    this.codes = new Map()
    this.readAccounts = new Map()
    this.readSlots = new Map()
    this.journal = []
    this.marks = []
    this.originalStorageCache.clear()
  }

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('an overlay has no state root: block building computes it from changes()')
  }

  async setStateRoot(): Promise<void> {
    throw new Error('an overlay is built on one block')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  async flush(): Promise<void> {}

  clearCaches(): void {}

  shallowCopy(): OverlayState {
    return new OverlayState(this.base, this.code)
  }

  private setAccount(addr: string, account: Account | null): void {
    this.journal.push({ kind: 'account', addr, prev: this.accounts.get(addr) })
    this.accounts.set(addr, account)
  }

  /** `value` without leading zeros. */
  private setSlot(addr: string, slot: string, value: Uint8Array): void {
    let map = this.slots.get(addr)
    if (map === undefined) {
      map = new Map()
      this.slots.set(addr, map)
    }
    this.journal.push({ kind: 'slot', addr, slot, prev: map.get(slot) })
    map.set(slot, value)
  }

  private clearSlots(addr: string): void {
    this.journal.push({ kind: 'clear', addr, prevSlots: this.slots.get(addr), prevCleared: this.cleared.has(addr) })
    this.slots.set(addr, new Map())
    this.cleared.add(addr)
  }

  private undo(e: Entry): void {
    switch (e.kind) {
      case 'account':
        if (e.prev === undefined) this.accounts.delete(e.addr)
        else this.accounts.set(e.addr, e.prev)
        return
      case 'slot': {
        const map = this.slots.get(e.addr)!
        if (e.prev === undefined) map.delete(e.slot)
        else map.set(e.slot, e.prev)
        return
      }
      case 'clear':
        if (e.prevSlots === undefined) this.slots.delete(e.addr)
        else this.slots.set(e.addr, e.prevSlots)
        if (!e.prevCleared) this.cleared.delete(e.addr)
        return
      case 'code':
        if (!e.had) this.codes.delete(e.hash)
    }
  }
}

function key(address: Address): string {
  return bytesToUnprefixedHex(address.bytes)
}

function copy(a: Account): Account {
  return new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)
}

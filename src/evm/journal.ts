import { Address, bytesToBigInt, bytesToUnprefixedHex, unprefixedHexToBytes } from '@ethereumjs/util'
import { type Acc, EMPTY_CODE_HEX, accFrom } from './account.js'
import type { EvmState } from './types.js'

enum K {
  Account,
  Slot,
  Clear,
  Code,
  WarmAddress,
  WarmSlot,
  Transient,
  Selfdestruct,
  Created,
}

interface Entry {
  k: K
  a: string
  s: string
  p: unknown
  q: boolean
}

const EMPTY = new Uint8Array(0)

/**
 * A message's view of state: every read of EvmState cached (awaited once, on a miss), every write
 * journaled so a frame's failure undoes it (geth's state journal; ethereumjs's Journal plus its
 * state manager's checkpoints). Warm sets (EIP-2929), transient storage (EIP-1153), the
 * self-destructed and created sets (EIP-6780) are journaled alongside. Addresses are lower-case hex
 * without 0x, slots hex of the 32-byte key.
 */
export class Journal {
  private readonly baseAccounts = new Map<string, Acc | null>()
  private readonly baseSlots = new Map<string, bigint>()
  /** code by code hash (hex), loaded or deposited */
  private readonly codeByHash = new Map<string, Uint8Array>()
  readonly accounts = new Map<string, Acc | null>()
  readonly slots = new Map<string, Map<string, bigint>>()
  readonly cleared = new Set<string>()
  readonly newCodes = new Map<string, Uint8Array>()
  /** SSTORE's original values (EIP-2200): the value when first asked in the message, as ethereumjs's originalStorageCache */
  private readonly original = new Map<string, bigint>()
  private readonly warmAddrs = new Set<string>()
  private readonly warmSlots = new Set<string>()
  private readonly alwaysAddrs = new Set<string>()
  private readonly alwaysSlots = new Set<string>()
  /** what runTx reports as the access list: never reverted */
  readonly accessed = new Map<string, Set<string>>()
  private readonly transient = new Map<string, bigint>()
  readonly selfdestructs = new Set<string>()
  readonly created = new Set<string>()
  private entries: Entry[] = []

  constructor(private readonly state: EvmState) {}

  checkpoint(): number {
    return this.entries.length
  }

  revert(mark: number): void {
    const e = this.entries
    for (let i = e.length - 1; i >= mark; i--) this.undo(e[i]!)
    e.length = mark
  }

  // --- loading: each returns a promise only on a miss -------------------------------------------

  needAccount(addr: string): Promise<void> | undefined {
    if (this.accounts.has(addr) || this.baseAccounts.has(addr)) return undefined
    return this.state.getAccount(new Address(unprefixedHexToBytes(addr))).then((a) => {
      if (!this.baseAccounts.has(addr)) this.baseAccounts.set(addr, a === undefined ? null : accFrom(a))
    })
  }

  /** The account's code loaded (the account first). */
  needCode(addr: string): Promise<void> | undefined {
    const acc = this.needAccount(addr)
    if (acc !== undefined) return acc.then(() => this.needCode(addr))
    const a = this.account(addr)
    if (a === undefined || a.codeHex === EMPTY_CODE_HEX || this.codeByHash.has(a.codeHex)) return undefined
    return this.state.getCode(new Address(unprefixedHexToBytes(addr))).then((code) => {
      this.codeByHash.set(a.codeHex, code)
    })
  }

  needSlot(addr: string, slot: string): Promise<void> | undefined {
    if (this.slots.get(addr)?.has(slot) || this.cleared.has(addr)) return undefined
    const k = addr + slot
    if (this.baseSlots.has(k)) return undefined
    return this.state.getStorage(new Address(unprefixedHexToBytes(addr)), unprefixedHexToBytes(slot)).then((v) => {
      this.baseSlots.set(k, v.length === 0 ? 0n : bytesToBigInt(v))
    })
  }

  // --- reads (loaded first) -------------------------------------------------------------------

  account(addr: string): Acc | undefined {
    const own = this.accounts.get(addr)
    if (own !== undefined) return own ?? undefined
    return this.baseAccounts.get(addr) ?? undefined
  }

  code(addr: string): Uint8Array {
    const a = this.account(addr)
    if (a === undefined || a.codeHex === EMPTY_CODE_HEX) return EMPTY
    return this.codeByHash.get(a.codeHex)!
  }

  storage(addr: string, slot: string): bigint {
    const own = this.slots.get(addr)?.get(slot)
    if (own !== undefined) return own
    if (this.cleared.has(addr)) return 0n
    return this.baseSlots.get(addr + slot)!
  }

  /** The slot's value at the message's first SSTORE of it (the slot loaded). */
  originalStorage(addr: string, slot: string): bigint {
    const k = addr + slot
    let v = this.original.get(k)
    if (v === undefined) {
      v = this.storage(addr, slot)
      this.original.set(k, v)
    }
    return v
  }

  // --- writes ---------------------------------------------------------------------------------

  putAccount(addr: string, acc: Acc | null): void {
    this.entries.push({ k: K.Account, a: addr, s: '', p: this.accounts.get(addr), q: false })
    this.accounts.set(addr, acc)
  }

  putStorage(addr: string, slot: string, value: bigint): void {
    let map = this.slots.get(addr)
    if (map === undefined) {
      map = new Map()
      this.slots.set(addr, map)
    }
    this.entries.push({ k: K.Slot, a: addr, s: slot, p: map.get(slot), q: false })
    map.set(slot, value)
  }

  /** ethereumjs's clearStorage (and the storage half of deleteAccount): earlier slots are gone. */
  clearStorage(addr: string): void {
    this.entries.push({ k: K.Clear, a: addr, s: '', p: this.slots.get(addr), q: this.cleared.has(addr) })
    this.slots.set(addr, new Map())
    this.cleared.add(addr)
  }

  /** Deposits `code` (hash `hashHex`) as the account's code: OverlayState.putCode's two writes. */
  putCode(addr: string, code: Uint8Array, hash: Uint8Array): void {
    const hex = bytesToUnprefixedHex(hash)
    this.entries.push({ k: K.Code, a: hex, s: '', p: undefined, q: this.newCodes.has(hex) })
    this.newCodes.set(hex, code)
    this.codeByHash.set(hex, code)
    const a = this.account(addr)!
    this.putAccount(addr, { ...a, codeHash: hash, codeHex: hex })
  }

  // --- access sets (EIP-2929) -------------------------------------------------------------------

  /** Warm for the whole message, as runTx's addAlwaysWarmAddress; `report` for the access list's own entries. */
  warmAlways(addr: string, report: boolean): void {
    this.alwaysAddrs.add(addr)
    if (report && !this.accessed.has(addr)) this.accessed.set(addr, new Set())
  }

  warmAlwaysSlot(addr: string, slot: string): void {
    this.warmAlways(addr, true)
    this.alwaysSlots.add(addr + slot)
    this.accessed.get(addr)!.add(slot)
  }

  isWarm(addr: string): boolean {
    return this.warmAddrs.has(addr) || this.alwaysAddrs.has(addr)
  }

  /** ethereumjs Journal.addWarmedAddress. */
  addWarm(addr: string): void {
    if (!this.warmAddrs.has(addr)) {
      this.warmAddrs.add(addr)
      this.entries.push({ k: K.WarmAddress, a: addr, s: '', p: undefined, q: false })
    }
    if (!this.accessed.has(addr)) this.accessed.set(addr, new Set())
  }

  /** EIP2929.js warmAddress: warms `addr` unless warm; returns whether it was cold. */
  touchAddress(addr: string): boolean {
    if (this.isWarm(addr)) return false
    this.addWarm(addr)
    return true
  }

  /** EIP2929.js accessStorageEIP2929's warming: returns whether the slot was cold. */
  touchSlot(addr: string, slot: string): boolean {
    const k = addr + slot
    if (this.warmSlots.has(k) || this.alwaysSlots.has(k)) return false
    // Journal.addWarmedStorage: the address enters the reverted set too when it is only always-warm.
    if (!this.warmAddrs.has(addr)) this.addWarm(addr)
    this.warmSlots.add(k)
    this.entries.push({ k: K.WarmSlot, a: k, s: '', p: undefined, q: false })
    this.accessed.get(addr)!.add(slot)
    return true
  }

  isWarmSlot(addr: string, slot: string): boolean {
    const k = addr + slot
    return this.warmSlots.has(k) || this.alwaysSlots.has(k)
  }

  // --- transient storage (EIP-1153), EIP-6780's sets ----------------------------------------------

  tload(addr: string, slot: string): bigint {
    return this.transient.get(addr + slot) ?? 0n
  }

  tstore(addr: string, slot: string, value: bigint): void {
    const k = addr + slot
    this.entries.push({ k: K.Transient, a: k, s: '', p: this.transient.get(k), q: false })
    this.transient.set(k, value)
  }

  markSelfdestruct(addr: string): void {
    if (this.selfdestructs.has(addr)) return
    this.selfdestructs.add(addr)
    this.entries.push({ k: K.Selfdestruct, a: addr, s: '', p: undefined, q: false })
  }

  markCreated(addr: string): void {
    if (this.created.has(addr)) return
    this.created.add(addr)
    this.entries.push({ k: K.Created, a: addr, s: '', p: undefined, q: false })
  }

  private undo(e: Entry): void {
    switch (e.k) {
      case K.Account:
        if (e.p === undefined) this.accounts.delete(e.a)
        else this.accounts.set(e.a, e.p as Acc | null)
        return
      case K.Slot: {
        const map = this.slots.get(e.a)!
        if (e.p === undefined) map.delete(e.s)
        else map.set(e.s, e.p as bigint)
        return
      }
      case K.Clear:
        if (e.p === undefined) this.slots.delete(e.a)
        else this.slots.set(e.a, e.p as Map<string, bigint>)
        if (!e.q) this.cleared.delete(e.a)
        return
      case K.Code:
        if (!e.q) this.newCodes.delete(e.a)
        return
      case K.WarmAddress:
        this.warmAddrs.delete(e.a)
        return
      case K.WarmSlot:
        this.warmSlots.delete(e.a)
        return
      case K.Transient:
        if (e.p === undefined) this.transient.delete(e.a)
        else this.transient.set(e.a, e.p as bigint)
        return
      case K.Selfdestruct:
        this.selfdestructs.delete(e.a)
        return
      case K.Created:
        this.created.delete(e.a)
    }
  }
}

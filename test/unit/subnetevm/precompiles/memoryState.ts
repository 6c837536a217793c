import { bytesToHex } from '@ethereumjs/util'
import type { PrecompileState } from '../../../../src/subnetevm/precompiles/state.js'

/** An account of MemoryState. */
export interface MemoryAccount {
  balance: bigint
  nonce: bigint
  code: Uint8Array
  storage: Map<string, Uint8Array>
}

const MOD_256 = 1n << 256n

/** PrecompileState in memory, for the unit tests: zero slots are deleted, balances wrap at 2^256. */
export class MemoryState implements PrecompileState {
  readonly accounts = new Map<string, MemoryAccount>()

  account(address: Uint8Array): MemoryAccount | undefined {
    return this.accounts.get(bytesToHex(address))
  }

  private touch(address: Uint8Array): MemoryAccount {
    const key = bytesToHex(address)
    let account = this.accounts.get(key)
    if (account === undefined) this.accounts.set(key, (account = { balance: 0n, nonce: 0n, code: new Uint8Array(0), storage: new Map() }))
    return account
  }

  balanceOf(address: Uint8Array): bigint {
    return this.account(address)?.balance ?? 0n
  }

  async getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    return this.account(address)?.storage.get(bytesToHex(slot)) ?? new Uint8Array(0)
  }

  async putStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32 || value.length !== 32) throw new Error('slots and values are 32 bytes')
    const storage = this.touch(address).storage
    if (value.every((b) => b === 0)) storage.delete(bytesToHex(slot))
    else storage.set(bytesToHex(slot), value.slice())
  }

  async addBalance(address: Uint8Array, amount: bigint): Promise<void> {
    const account = this.touch(address)
    account.balance = (account.balance + amount) % MOD_256
  }

  async setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    this.touch(address).code = code.slice()
  }

  async setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    this.touch(address).nonce = nonce
  }

  async destroyAccount(address: Uint8Array): Promise<void> {
    this.accounts.delete(bytesToHex(address))
  }
}

import { Account, Address } from '@ethereumjs/util'
import type { Engine } from '../engine/engine.js'
import type { OverlayState } from '../engine/state/overlayState.js'

/**
 * Edits of the head's state without a block (anvil_setBalance, anvil_setCode, anvil_setNonce,
 * anvil_setStorageAt): visible to every read of `latest` at once and built on by the next block,
 * written durably with the root they lead to (Chain.editHeadState).
 */
export class StateEditor {
  constructor(private readonly engine: Engine) {}

  private edit(address: Uint8Array, change: (state: OverlayState, addr: Address, account: Account) => Promise<void> | void): Promise<void> {
    return this.engine.dev.exclusive(() =>
      this.engine.dev.editHeadState(async (state) => {
        const addr = new Address(address)
        const account = (await state.getAccount(addr)) ?? new Account()
        await change(state, addr, account)
      }),
    )
  }

  setBalance(address: Uint8Array, wei: bigint): Promise<void> {
    return this.edit(address, (state, addr, account) => {
      account.balance = wei
      return state.putAccount(addr, account)
    })
  }

  addBalance(address: Uint8Array, wei: bigint): Promise<void> {
    return this.edit(address, (state, addr, account) => {
      account.balance += wei
      return state.putAccount(addr, account)
    })
  }

  setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    return this.edit(address, (state, addr, account) => {
      account.nonce = nonce
      return state.putAccount(addr, account)
    })
  }

  setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    return this.edit(address, async (state, addr, account) => {
      await state.putAccount(addr, account)
      await state.putCode(addr, code)
    })
  }

  /** `value` is the 32-byte word; zero deletes the slot. */
  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edit(address, async (state, addr, account) => {
      await state.putAccount(addr, account)
      let i = 0
      while (i < value.length && value[i] === 0) i++
      await state.putStorage(addr, slot, value.subarray(i))
    })
  }
}

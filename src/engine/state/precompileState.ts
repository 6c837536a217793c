import type { StateManagerInterface } from '@ethereumjs/common'
import { Account, Address, setLengthLeft } from '@ethereumjs/util'
import type { PrecompileState } from '../../subnetevm/precompiles/state.js'
import type { StateUpgradeTarget } from '../../subnetevm/stateUpgrades.js'
import type { StateReader } from './flatView.js'

const MOD = 2n ** 256n

/**
 * subnet-evm's precompiles' view of a state the node writes (a block's overlay, the genesis trie, a
 * VM's state manager): ethereumjs's StateManagerInterface. A slot written all zeros is deleted, as
 * geth's SetState of the zero hash leaves no slot behind.
 */
export function precompileState(sm: StateManagerInterface): StateUpgradeTarget {
  const at = (bytes: Uint8Array) => new Address(bytes)
  const account = async (address: Uint8Array) => (await sm.getAccount(at(address))) ?? new Account()
  return {
    getStorage: (address, slot) => sm.getStorage(at(address), slot),
    async putStorage(address, slot, value) {
      // ethereumjs stores a slot of zeros as a deletion only when handed the empty value.
      const trimmed = value.every((b) => b === 0) ? new Uint8Array(0) : value
      if ((await sm.getAccount(at(address))) === undefined) await sm.putAccount(at(address), new Account())
      await sm.putStorage(at(address), slot, trimmed)
    },
    async addBalance(address, amount) {
      const a = await account(address)
      a.balance = (a.balance + amount) % MOD
      await sm.putAccount(at(address), a)
    },
    async setCode(address, code) {
      if ((await sm.getAccount(at(address))) === undefined) await sm.putAccount(at(address), new Account())
      await sm.putCode(at(address), code)
    },
    getNonce: async (address) => (await sm.getAccount(at(address)))?.nonce ?? 0n,
    async setNonce(address, nonce) {
      const a = await account(address)
      a.nonce = nonce
      await sm.putAccount(at(address), a)
    },
    async destroyAccount(address) {
      await sm.clearStorage(at(address))
      await sm.deleteAccount(at(address))
    },
  }
}

/** A read-only view for the readers (roles, stored fee config, reward address) over a block's state. */
export function precompileReader(reader: Pick<StateReader, 'getStorage'>): PrecompileState {
  const refuse = () => Promise.reject(new Error('read-only precompile state'))
  return {
    getStorage: async (address, slot) => setLengthLeft(await reader.getStorage(new Address(address), slot), 32),
    putStorage: refuse,
    addBalance: refuse,
    setCode: refuse,
    setNonce: refuse,
    destroyAccount: refuse,
  }
}

import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, bytesToHex, hexToBytes, setLengthLeft, toChecksumAddress, unpadBytes } from '@ethereumjs/util'
import { EngineError } from '../base/errors.js'
import type { StateOverride } from '../base/types.js'

/** The EVM's precompiles by unprefixed lower-case address, as @ethereumjs/evm keeps them. */
export type PrecompileMap = Map<string, unknown>

/** geth override.StateOverride.Apply for eth_simulateV1, in address order, with precompile moves (`precompiles` is changed in place). */
export async function applySimStateOverrides(sm: MerkleStateManager, overrides: StateOverride | undefined, precompiles: PrecompileMap): Promise<void> {
  if (overrides === undefined) return
  const dirty = new Set<string>()
  for (const addrHex of Object.keys(overrides).sort()) {
    const o = overrides[addrHex]!
    const key = addrHex.slice(2)
    const checksum = toChecksumAddress(addrHex)
    if (dirty.has(key)) throw new EngineError(`account ${checksum} has already been overridden by a precompile`)
    const precompile = precompiles.get(key)
    if (o.movePrecompileToAddress !== undefined) {
      if (precompile === undefined) throw new EngineError(`account ${checksum} is not a precompile`)
      const dest = bytesToHex(o.movePrecompileToAddress)
      if (overrides[dest] !== undefined) throw new EngineError(`account ${toChecksumAddress(dest)} is already overridden`)
      precompiles.set(dest.slice(2), precompile)
      dirty.add(dest.slice(2))
    }
    if (precompile !== undefined) precompiles.delete(key)
    const address = new Address(hexToBytes(addrHex as `0x${string}`))
    if (o.nonce !== undefined || o.balance !== undefined) {
      const account = (await sm.getAccount(address)) ?? new Account()
      if (o.nonce !== undefined) account.nonce = o.nonce
      if (o.balance !== undefined) account.balance = o.balance
      await sm.putAccount(address, account)
    }
    if (o.code !== undefined) {
      if ((await sm.getAccount(address)) === undefined) await sm.putAccount(address, new Account())
      await sm.putCode(address, o.code)
    }
    if (o.state !== undefined) {
      if ((await sm.getAccount(address)) === undefined) await sm.putAccount(address, new Account())
      await sm.clearStorage(address)
    }
    for (const [slot, value] of Object.entries(o.state ?? o.stateDiff ?? {})) {
      if ((await sm.getAccount(address)) === undefined) await sm.putAccount(address, new Account())
      await sm.putStorage(address, setLengthLeft(hexToBytes(slot as `0x${string}`), 32), unpadBytes(value))
    }
  }
}

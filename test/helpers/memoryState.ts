import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP, bigIntToUnpaddedBytes, bytesToUnprefixedHex } from '@ethereumjs/util'
import type { EvmState } from '../../src/evm/types.js'
import { keccak256 } from '../../src/util/crypto.js'

/** One account of a pre-state, as a test writes it. */
export interface MemoryAccount {
  balance: bigint
  nonce: bigint
  code: Uint8Array
  /** slot (hex of the 32-byte key, no 0x) -> value; zero values are absent */
  storage: Map<string, bigint>
}

/** Any non-empty-trie root: the writer never sees this state, a reader only asks whether storage exists. */
const SOME_STORAGE = keccak256(Uint8Array.of(1))

/**
 * A read-only pre-state in memory (addresses as lower-case hex without 0x), with the shape of the
 * interpreter's EvmState and the engine's StateReader, so both EVMs of a differential test read it.
 */
export class MemoryState implements EvmState {
  private readonly accounts = new Map<string, Account>()

  constructor(private readonly pre: ReadonlyMap<string, MemoryAccount>) {
    for (const [address, a] of pre) {
      const codeHash = a.code.length === 0 ? KECCAK256_NULL : keccak256(a.code)
      this.accounts.set(address, new Account(a.nonce, a.balance, a.storage.size === 0 ? KECCAK256_RLP : SOME_STORAGE, codeHash))
    }
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const a = this.accounts.get(bytesToUnprefixedHex(address.bytes))
    return a === undefined ? undefined : new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const value = this.pre.get(bytesToUnprefixedHex(address.bytes))?.storage.get(bytesToUnprefixedHex(key))
    return value === undefined ? new Uint8Array(0) : bigIntToUnpaddedBytes(value)
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.pre.get(bytesToUnprefixedHex(address.bytes))?.code ?? new Uint8Array(0)
  }
}

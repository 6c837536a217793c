/**
 * A keystore user's database as the chains' keystore users read and write it (avalanchego v1.12.1:
 * vms/components/keystore/user.go GetAddresses, PutKeys, GetKey, GetKeychain; coreth v0.14.0: plugin/evm/user.go),
 * over this node's sealed entries: a value is opened with the user's seal key when read and sealed when
 * written, its entry key bound as associated data (docs/SECURITY.md, K4).
 */
import { assertValidPrivateKey } from '../avalanche/privateKey.js'
import { ethAddress, publicKeyOf, shortAddress } from '../avalanche/signature.js'
import type { KeystoreEntry, KeystoreStore } from '../store/keystoreStore.js'
import { type KeySpace, addressKey, addressListKey, addressOf, decodeAddresses, encodeAddresses } from './chainKeys.js'
import { open, randomSalt, seal } from './crypto.js'
import { KeystoreError } from './errors.js'

/** One of the user's keys with both of its address forms. */
export interface KeystoreKey {
  /** DATA, 32 bytes: the secp256k1 private key. */
  readonly privateKey: Uint8Array
  /** DATA, 20 bytes: the EVM address. */
  readonly ethAddress: Uint8Array
  /** DATA, 20 bytes: the short address (X/P-Chain `ids.ShortID`). */
  readonly shortAddress: Uint8Array
}

/** A fresh random private key (secp256k1.NewPrivateKey). */
export function newPrivateKey(): Uint8Array {
  for (;;) {
    const key = randomSalt(32)
    try {
      assertValidPrivateKey(key)
      return key
    } catch {
      // 0 or >= n: draw again (a chance of about 2^-128)
    }
  }
}

/** The user's entries seen through the seal key; writes are one atomic write each. */
export class UserDb {
  constructor(
    private readonly store: KeystoreStore,
    private readonly username: string,
    private readonly sealKey: Uint8Array,
  ) {}

  /** The opened value at `key`, or undefined (database.ErrNotFound). */
  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const sealed = await this.store.getEntry(this.username, key)
    return sealed === undefined ? undefined : open(this.sealKey, sealed, key)
  }

  /** Every entry opened, in key order (the user's database as avalanchego's iterator walks it). */
  async all(): Promise<KeystoreEntry[]> {
    return (await this.store.entries(this.username)).map((e) => ({ key: e.key, value: open(this.sealKey, e.value, e.key) }))
  }

  /** `value` sealed for `key`, ready for a batch. */
  sealed(key: Uint8Array, value: Uint8Array): KeystoreEntry {
    return { key, value: seal(this.sealKey, value, key) }
  }

  /** GetAddresses: the chain's addresses in the order they were added ([] when none); the codec's error on bad bytes. */
  async addresses(space: KeySpace): Promise<Uint8Array[]> {
    const raw = await this.get(addressListKey(space))
    if (raw === undefined) return []
    try {
      return decodeAddresses(raw)
    } catch (err) {
      throw new KeystoreError((err as Error).message)
    }
  }

  /** GetKey: the private key stored under `address`, or undefined (not found); a stored value that is no key throws. */
  async key(space: KeySpace, address: Uint8Array): Promise<Uint8Array | undefined> {
    const key = await this.get(addressKey(space, address))
    if (key === undefined) return undefined
    try {
      assertValidPrivateKey(key)
    } catch (err) {
      throw new KeystoreError((err as Error).message)
    }
    return key
  }

  /**
   * PutKeys (X, P) / putAddress (C): stores the key under its address unless that address is already held,
   * and appends the address to the chain's list. Whether it was added.
   */
  async putKey(space: KeySpace, privateKey: Uint8Array): Promise<boolean> {
    const address = addressOf(space, privateKey)
    const entry = addressKey(space, address)
    if ((await this.store.getEntry(this.username, entry)) !== undefined) return false
    const addresses = await this.addresses(space)
    const max = space.maxAddresses
    if (max !== undefined && addresses.length > max - 1) throw new KeystoreError(`keystore user has reached its limit of ${max} addresses`)
    addresses.push(address)
    await this.store.putEntries(this.username, [this.sealed(entry, privateKey), this.sealed(addressListKey(space), encodeAddresses(addresses))])
    return true
  }

  /** GetKeychain over every address of the chain: each address's key in list order (one without a key is skipped). */
  async keys(space: KeySpace): Promise<KeystoreKey[]> {
    const out: KeystoreKey[] = []
    for (const address of await this.addresses(space)) {
      const privateKey = await this.key(space, address)
      if (privateKey === undefined) continue
      const pub = publicKeyOf(privateKey)
      out.push({ privateKey, ethAddress: ethAddress(pub), shortAddress: shortAddress(pub) })
    }
    return out
  }
}

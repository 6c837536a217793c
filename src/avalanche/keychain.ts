/**
 * secp256k1fx's Keychain (avalanchego: vms/secp256k1fx/keychain.go): which of a user's keys can spend an
 * output, and in what order their signatures go. Used by every wallet that builds and signs X, P and C
 * atomic transactions.
 */

/** A private key and its 20-byte short address (`ids.ShortID`). */
export interface KeyPair {
  readonly privateKey: Uint8Array
  readonly shortAddress: Uint8Array
}

/** secp256k1fx.OutputOwners, as far as matching needs it. */
export interface Owners {
  readonly locktime: bigint
  readonly threshold: number
  readonly addrs: readonly Uint8Array[]
}

/** A spendable output's input indices (into the owners' addresses) and the keys that sign them, in that order. */
export interface KeyMatch {
  sigIndices: number[]
  signers: Uint8Array[]
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

/** Keychain.Match: the first `threshold` owner addresses the keys hold; undefined when time-locked at `now` (unix seconds) or short. */
export function matchOwners(owners: Owners, keys: readonly KeyPair[], now: bigint): KeyMatch | undefined {
  if (owners.locktime > now) return undefined
  const sigIndices: number[] = []
  const signers: Uint8Array[] = []
  for (let i = 0; i < owners.addrs.length && sigIndices.length < owners.threshold; i++) {
    const key = keys.find((k) => same(k.shortAddress, owners.addrs[i]!))
    if (key === undefined) continue
    sigIndices.push(i)
    signers.push(key.privateKey)
  }
  return sigIndices.length === owners.threshold ? { sigIndices, signers } : undefined
}

/**
 * GetKeychain (avalanchego: vms/components/keystore/user.go): the keys whose address is in `from` (every key
 * when `from` is empty), each address once. The keys left out are zeroed.
 */
export function selectKeys<K extends KeyPair>(keys: readonly K[], from: readonly Uint8Array[]): K[] {
  const chosen: K[] = []
  for (const k of keys) {
    const wanted = from.length === 0 || from.some((a) => same(a, k.shortAddress))
    if (wanted && !chosen.some((c) => same(c.shortAddress, k.shortAddress))) chosen.push(k)
    else k.privateKey.fill(0)
  }
  return chosen
}

/** Wipes the private keys once a wallet call is done with them. */
export function zeroKeys(keys: readonly KeyPair[]): void {
  for (const k of keys) k.privateKey.fill(0)
}

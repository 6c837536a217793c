/**
 * The keys of a keystore user for a keystore-backed X or P call (avalanchego: vms/components/keystore/user.go
 * NewUserFromKeystore, then GetKeychain over the `from` addresses).
 */
import { selectKeys } from '../avalanche/keychain.js'
import type { KeySpace } from './chainKeys.js'
import { IncorrectPasswordError, KeystoreError } from './errors.js'
import type { ChainAliases } from '../avalanche/networks.js'
import type { Keystore, KeystoreCaller, KeystoreKey } from './keystore.js'

/** What a keystore-backed X or P wallet needs besides its chain. */
export interface KeystoreWalletOptions {
  /** undefined when the keystore is off: every user is unknown (as avalanchego's empty keystore). */
  readonly keystore: Keystore | undefined
  readonly networkID: number
  readonly chains: ChainAliases
  readonly avaxAssetID: Uint8Array
  /** Unix seconds (the keychain's time-lock check). */
  readonly now?: () => bigint
}

/**
 * The user's keys in the chain's key set (`space`) whose address is in `from` (all of them when empty), each once. With the keystore off
 * every user is unknown. A keystore failure keeps its class (a throttled client stays a TooManyAttemptsError)
 * and gets `context` before its text, as avalanchego wraps it (`problem retrieving user "bob": `).
 */
export async function userKeys(
  keystore: Keystore | undefined,
  space: KeySpace,
  username: string,
  password: string,
  from: readonly Uint8Array[],
  caller: KeystoreCaller,
  context: string,
): Promise<KeystoreKey[]> {
  let keys: KeystoreKey[]
  try {
    if (keystore === undefined) throw new IncorrectPasswordError(username)
    keys = await keystore.keysWithAddresses(username, password, space, caller)
  } catch (err) {
    if (err instanceof KeystoreError) err.message = context + err.message
    throw err
  }
  return selectKeys(keys, from)
}

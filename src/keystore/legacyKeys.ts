/**
 * Keys stored by versions of this node before the per-chain key sets: one set for every chain, in entries
 * 'c' ‖ n (u32 BE, insertion order), each sealed with its entry key as associated data. They could only be
 * added with avax.importKey, so on the user's next unlock they join the C-Chain's set (after the keys it
 * already holds, in their order) and the old entries go, in one atomic write.
 */
import type { KeystoreStore } from '../store/keystoreStore.js'
import { type KeySpace, addressKey, addressListKey, addressOf, encodeAddresses } from './chainKeys.js'
import { open } from './crypto.js'
import type { UserDb } from './userDb.js'

const LEGACY_ENTRY = 0x63

function isLegacy(key: Uint8Array): boolean {
  return key.length === 5 && key[0] === LEGACY_ENTRY
}

/** Moves the user's legacy keys into `space`; nothing to do (no write) when there are none. */
export async function migrateLegacyKeys(store: KeystoreStore, username: string, sealKey: Uint8Array, db: UserDb, space: KeySpace): Promise<void> {
  const legacy = (await store.entries(username)).filter((e) => isLegacy(e.key))
  if (legacy.length === 0) return
  const addresses = await db.addresses(space)
  const known = new Set(addresses.map((a) => Buffer.from(a).toString('hex')))
  const puts = []
  for (const e of legacy) {
    const privateKey = open(sealKey, e.value, e.key)
    const address = addressOf(space, privateKey)
    const hex = Buffer.from(address).toString('hex')
    if (known.has(hex)) continue
    known.add(hex)
    addresses.push(address)
    puts.push(db.sealed(addressKey(space, address), privateKey))
  }
  if (puts.length > 0) puts.push(db.sealed(addressListKey(space), encodeAddresses(addresses)))
  await store.putEntries(
    username,
    puts,
    legacy.map((e) => e.key),
  )
}

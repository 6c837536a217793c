import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { toAccount } from './account.js'
import type { Journal } from './journal.js'
import type { EvmStateChanges } from './types.js'

/** The journal's writes in the engine's StateChanges shape (src/engine/state/overlayState.ts). */
export function stateChanges(j: Journal): EvmStateChanges {
  const accounts: EvmStateChanges['accounts'] = new Map()
  for (const [addr, acc] of j.accounts) accounts.set(addr, acc === null ? null : toAccount(acc))
  const storage: EvmStateChanges['storage'] = new Map()
  for (const [addr, slots] of j.slots) {
    const out = new Map<string, Uint8Array>()
    for (const [slot, v] of slots) out.set(slot, bigIntToUnpaddedBytes(v))
    storage.set(addr, out)
  }
  return { accounts, storage, cleared: new Set(j.cleared), codes: new Map(j.newCodes) }
}

import { z } from 'zod'
import { DevError } from '../../dev/errors.js'
import type { PoolControls } from '../../dev/poolControls.js'
import { Hash32 } from '../../rpc/schemas.js'
import { hex } from '../../rpc/format.js'
import { type MethodTable, method } from '../../rpc/types.js'

/**
 * Dropping pooled transactions. anvil_dropTransaction answers the hash, or null when the pool did
 * not hold it (anvil: crates/anvil/src/eth/api.rs); hardhat_dropTransaction true or false, and an
 * error for a mined one (hardhat: edr_provider requests/hardhat/transactions.rs). Both drop a
 * queued (nonce-gapped) transaction too, as hardhat does; anvil drops only executable ones.
 */
export function poolMethods(pool: PoolControls): MethodTable {
  // anvil's alias of it (anvil: crates/anvil/core/src/eth/mod.rs).
  const dropAll = method(z.tuple([]), async () => {
    await pool.dropAll()
    return null
  })
  return {
    /** Handler for `anvil_dropTransaction`. */
    anvil_dropTransaction: method(z.tuple([Hash32]), async ([h]) => {
      const hash = hex(h)
      return (await pool.drop(hash)) ? hash : null
    }),
    /** Handler for `hardhat_dropTransaction`. */
    hardhat_dropTransaction: method(z.tuple([Hash32]), async ([h]) => {
      const hash = hex(h)
      if (await pool.drop(hash)) return true
      if (pool.mined(hash)) throw new DevError(`Transaction ${hash} cannot be dropped because it's already mined`)
      return false
    }),
    /** Handler for `anvil_dropAllTransactions`. */
    anvil_dropAllTransactions: dropAll,
    hardhat_dropAllTransactions: dropAll,
  }
}

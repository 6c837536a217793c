import { z } from 'zod'
import type { StateDump } from '../../dev/stateDump.js'
import { hex } from '../../rpc/format.js'
import { Data } from '../../rpc/schemas.js'
import { type MethodTable, method } from '../../rpc/types.js'

/** anvil's state dumps: a hex string of gzipped JSON (src/dev/stateDump.ts). */
export function dumpMethods(dump: StateDump): MethodTable {
  const dumpState = method(z.tuple([z.boolean().nullable().optional()]), async () => hex(await dump.dump()))
  const loadState = method(z.tuple([Data]), async ([buf]) => {
    await dump.load(buf)
    return true
  })
  // anvil also answers hardhat's names (anvil: crates/anvil/core/src/eth/mod.rs), which viem's test client sends in hardhat mode.
  return {
    /** Handler for `anvil_dumpState`: the head's accounts; `preserveHistoricalStates` is taken and ignored (no history is dumped). */
    anvil_dumpState: dumpState,
    hardhat_dumpState: dumpState,
    /** Handler for `anvil_loadState`: writes a dump's accounts over the head's state; true. */
    anvil_loadState: loadState,
    hardhat_loadState: loadState,
  }
}

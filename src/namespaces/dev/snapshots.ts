import { z } from 'zod'
import type { DevControls } from '../../dev/devControls.js'
import { quantity } from '../../rpc/format.js'
import { LenientU256 } from './params.js'
import { type MethodTable, method } from '../../rpc/types.js'

/** anvil_reset's optional argument: `forking` forks again (anvil's ForkingOptions: the origin's URL and block). */
const Forking = z.object({ jsonRpcUrl: z.string().nullable().optional(), blockNumber: LenientU256.nullable().optional() }).loose()
const ResetOptions = z.tuple([z.object({ forking: Forking.nullable().optional() }).loose().nullable().optional()])

/** Snapshots and reset (anvil's semantics; hardhat's and anvil's names). */
export function snapshotMethods(dev: DevControls): MethodTable {
  const snapshot = method(z.tuple([]), async () => quantity(await dev.snapshot()))
  const revert = method(z.tuple([LenientU256]), ([id]) => dev.revert(id))
  const reset = (answer: null | true) =>
    method(ResetOptions, async ([opts]) => {
      const forking = opts?.forking
      // anvil: crates/anvil/src/eth/api.rs anvil_reset: with `forking`, fork again (its URL, else this fork's); without, back to the start.
      if (forking === undefined || forking === null) await dev.reset()
      else await dev.fork(forking.jsonRpcUrl ?? undefined, forking.blockNumber ?? undefined)
      return answer
    })
  return {
    /** Handler for `evm_snapshot`: a snapshot of the whole node (docs/DEV.md). */
    evm_snapshot: snapshot,
    anvil_snapshot: snapshot,
    /** Handler for `evm_revert`: true, or false for an unknown or used-up id. */
    evm_revert: revert,
    anvil_revert: revert,
    /** Handler for `anvil_reset`: back to the genesis (a fork: to its fork block), or `forking` a new fork block. */
    anvil_reset: reset(null),
    hardhat_reset: reset(true),
  }
}

import { z } from 'zod'
import type { DevControls } from '../../dev/devControls.js'
import { DevError } from '../../dev/errors.js'
import { InvalidParamsError } from '../../engine/errors.js'
import { quantity } from '../../rpc/format.js'
import { LenientU256 } from './params.js'
import { type MethodTable, method } from '../../rpc/types.js'

/** anvil_reset's optional argument; `forking` needs a fork origin, which this node does not have yet. */
const ResetOptions = z.tuple([z.object({ forking: z.unknown().optional() }).loose().nullable().optional()])

/** Snapshots and reset (anvil's semantics; hardhat's and anvil's names). */
export function snapshotMethods(dev: DevControls): MethodTable {
  const snapshot = method(z.tuple([]), async () => quantity(await dev.snapshot()))
  const revert = method(z.tuple([LenientU256]), ([id]) => dev.revert(id))
  const reset = (answer: null | true) =>
    method(ResetOptions, async ([opts]) => {
      const forking = opts?.forking as { jsonRpcUrl?: unknown } | null | undefined
      // anvil's answer on a node that does not fork (anvil: crates/anvil/src/eth/api.rs anvil_reset).
      if (forking !== undefined && forking !== null && (forking.jsonRpcUrl === undefined || forking.jsonRpcUrl === null))
        throw new InvalidParamsError('Forking not enabled and RPC URL not provided to start forking')
      if (forking !== undefined && forking !== null) throw new DevError('forking is not supported by this node yet: anvil_reset takes no jsonRpcUrl')
      await dev.reset()
      return answer
    })
  return {
    /** Handler for `evm_snapshot`: a snapshot of the whole node (docs/DEV.md). */
    evm_snapshot: snapshot,
    anvil_snapshot: snapshot,
    /** Handler for `evm_revert`: true, or false for an unknown or used-up id. */
    evm_revert: revert,
    anvil_revert: revert,
    /** Handler for `anvil_reset`: back to the genesis. */
    anvil_reset: reset(null),
    hardhat_reset: reset(true),
  }
}

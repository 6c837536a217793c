import { z } from 'zod'
import { hex, quantity } from '../../rpc/format.js'
import { BlockRef, CallRequest, StateOverride } from '../../rpc/schemas.js'
import { BlockOverrides } from '../../rpc/blockOverrides.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** Execution without a transaction: call, estimate, access list. */
export function ethCallMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-blockchain', {
    /** Handler for `eth_call` (block tag, hash or EIP-1898 object; state overrides; block overrides). */
    eth_call: method(z.tuple([CallRequest, BlockRef.optional(), StateOverride.optional(), BlockOverrides.optional()]), async ([req, ref, overrides, blockOverrides], _call, _origin, cancel) =>
      hex(await engine.call(req, ref ?? 'latest', overrides, cancel, blockOverrides)),
    ),
    /** Handler for `eth_estimateGas`. */
    eth_estimateGas: method(z.tuple([CallRequest, BlockRef.optional(), StateOverride.optional()]), async ([req, ref, overrides], _call, _origin, cancel) =>
      quantity(await engine.estimateGas(req, ref, overrides, cancel)),
    ),
    /** Handler for `eth_createAccessList`. */
    eth_createAccessList: method(z.tuple([CallRequest, BlockRef.optional()]), async ([req, ref], _call, _origin, cancel) => {
      const r = await engine.createAccessList(req, ref ?? 'latest', cancel)
      const out: Record<string, unknown> = { accessList: r.accessList }
      if (r.error !== undefined) out.error = r.error
      out.gasUsed = quantity(r.gasUsed)
      return out
    }),
  })
}

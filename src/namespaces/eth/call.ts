import { z } from 'zod'
import { hex, quantity } from '../../rpc/format.js'
import { BlockRef, CallRequest, StateOverride } from '../../rpc/schemas.js'
import { BlockOverrides } from '../../rpc/blockOverrides.js'
import { executionError } from '../../engine/exec/executor.js'
import { UNSCHEDULED_TIME } from '../../engine/rules/genesis.js'
import { chargedGas, minChargeDivisor } from '../../evm/evmRules.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** Execution without a transaction: call, estimate, access list. */
export function ethCallMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-blockchain', {
    /** Handler for `eth_call` (block tag, hash or EIP-1898 object; state overrides; block overrides). */
    eth_call: method(z.tuple([CallRequest, BlockRef.optional(), StateOverride.optional(), BlockOverrides.optional()]), async ([req, ref, overrides, blockOverrides], _call, _origin, cancel) =>
      hex(await engine.call(req, ref ?? 'latest', overrides, cancel, blockOverrides)),
    ),
    /**
     * Handler for `eth_callDetailed` (Avalanche extension; coreth internal/ethapi/api_extra.go, saevm
     * sae/rpc/custom.go): eth_call's run answered whole, `{gas, errCode, err, returnData}`: a revert is
     * code 3 and its reason (coreth: only with revert data), any other halt code 0 and geth's text. Under
     * Helicon the gas counts the minimum charge, half the call's gas limit (the rpc gas cap when none is
     * given), as its state transition does.
     */
    eth_callDetailed: method(z.tuple([CallRequest, BlockRef, StateOverride.optional()]), async ([req, ref, overrides], _call, _origin, cancel) => {
      const outcome = await engine.callOutcome(req, ref, overrides, cancel)
      const failed = outcome.error === undefined ? undefined : executionError(outcome)
      return {
        gas: Number(chargedGas(outcome.gasUsed, engine.callGas(req.gas), minChargeDivisor(engine.txCommon))),
        errCode: failed !== undefined && outcome.reverted && (engine.rules.heliconTime < UNSCHEDULED_TIME || outcome.returnData.length > 0) ? 3 : 0,
        err: failed?.message ?? '',
        returnData: hex(outcome.returnData),
      }
    }),
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

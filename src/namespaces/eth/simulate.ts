import { z } from 'zod'
import type { SimBlockResult, SimulateOptions } from '../../engine/exec/simulateOptions.js'
import { EXECUTION_REVERTED, VM_ERROR } from '../../rpc/errors.js'
import { formatBlock, formatLog, hex, quantity, type Json } from '../../rpc/format.js'
import { Address, BlockRef, Bool, CallRequest, Hash32, Quantity, StateOverride, Uint64 } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** geth override.BlockOverrides as eth_simulateV1 accepts them (beaconRoot and withdrawals are not C-Chain fields). */
const BlockOverrides = z.object({
  number: Quantity.nullish(),
  difficulty: Quantity.nullish(),
  time: Uint64.nullish(),
  gasLimit: Uint64.nullish(),
  feeRecipient: Address.nullish(),
  prevRandao: Hash32.nullish(),
  baseFeePerGas: Quantity.nullish(),
  blobBaseFee: Quantity.nullish(),
})

/** geth simOpts: blockStateCalls [{ blockOverrides, stateOverrides, calls }], traceTransfers, validation, returnFullTransactions. */
const SimulatePayload = z
  .object({
    blockStateCalls: z
      .array(
        z.object({
          blockOverrides: BlockOverrides.nullish(),
          stateOverrides: StateOverride.nullish(),
          calls: z.array(CallRequest).nullish(),
        }),
      )
      .nullish(),
    traceTransfers: Bool.nullish(),
    validation: Bool.nullish(),
    returnFullTransactions: Bool.nullish(),
  })
  .transform(
    (p): SimulateOptions => ({
      blockStateCalls: (p.blockStateCalls ?? []).map((b) => {
        const o = b.blockOverrides ?? {}
        const blockOverrides = Object.fromEntries(Object.entries(o).filter(([, v]) => v != null))
        return { blockOverrides, ...(b.stateOverrides == null ? {} : { stateOverrides: b.stateOverrides }), calls: b.calls ?? [] }
      }),
      traceTransfers: p.traceTransfers === true,
      validation: p.validation === true,
      returnFullTransactions: p.returnFullTransactions === true,
    }),
  )

/** One simulated block as geth's simBlockResult marshals it: the block object plus `calls`. */
function formatSimBlock(r: SimBlockResult, fullTxs: boolean): Record<string, Json> {
  const out = formatBlock(r.block, fullTxs)
  out.calls = r.calls.map((c) => {
    const call: Record<string, Json> = {
      returnData: hex(c.returnData),
      logs: c.logs.map((l) => formatLog({ log: l.log, block: r.block, txIndex: l.txIndex, logIndex: l.logIndex }, hex(r.block.txs[l.txIndex]!.hash()))),
      gasUsed: quantity(c.gasUsed),
      maxUsedGas: quantity(c.maxUsedGas),
      status: quantity(c.status),
    }
    if (c.error !== undefined) {
      call.error = c.error.kind === 'reverted' ? { message: c.error.message, code: EXECUTION_REVERTED, data: hex(c.error.data ?? new Uint8Array()) } : { message: c.error.message, code: VM_ERROR }
    }
    return call
  })
  return out
}

/** `eth_simulateV1`: simulated blocks of calls (geth internal/ethapi/simulate.go). */
export function ethSimulateMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-blockchain', {
    /** Handler for `eth_simulateV1` (payload, block tag/number/hash; default latest). */
    eth_simulateV1: method(z.tuple([SimulatePayload, BlockRef.optional()]), async ([opts, ref], _call, _origin, cancel) => {
      const results = await engine.simulate(opts, ref ?? 'latest', cancel)
      return results.map((r) => formatSimBlock(r, opts.returnFullTransactions))
    }),
  })
}

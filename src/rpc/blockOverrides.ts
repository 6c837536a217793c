import { z } from 'zod'
import type { CallBlockOverrides } from '../engine/exec/callOverrides.js'
import { AFTER_DECODE } from './errors.js'
import { data, fail, goType, quantity } from './schemas.js'

const S = 'BlockOverrides'

/**
 * geth override.BlockOverrides (internal/ethapi/override/override.go), eth_call's 4th argument and
 * debug_traceCall's `blockOverrides`: each field with hexutil's texts; beaconRoot and withdrawals are
 * refused after decoding, as BlockOverrides.Apply does for these methods; unknown fields are ignored.
 */
export const BlockOverrides = z
  .object(
    {
      number: quantity(256, '*hexutil.Big', `${S}.number`).nullish(),
      difficulty: quantity(256, '*hexutil.Big', `${S}.difficulty`).nullish(),
      time: quantity(64, 'hexutil.Uint64', `${S}.time`).nullish(),
      gasLimit: quantity(64, 'hexutil.Uint64', `${S}.gasLimit`).nullish(),
      feeRecipient: data(20, 'common.Address', `${S}.feeRecipient`).nullish(),
      prevRandao: data(32, 'common.Hash', `${S}.prevRandao`).nullish(),
      baseFeePerGas: quantity(256, '*hexutil.Big', `${S}.baseFeePerGas`).nullish(),
      blobBaseFee: quantity(256, '*hexutil.Big', `${S}.blobBaseFee`).nullish(),
      beaconRoot: data(32, 'common.Hash', `${S}.beaconRoot`).nullish(),
      withdrawals: z.unknown().optional(),
    },
    { error: (i) => (i.code === 'invalid_type' ? `json: cannot unmarshal ${goType(i.input)} into Go value of type override.BlockOverrides` : undefined) },
  )
  .transform((o, ctx): CallBlockOverrides => {
    for (const field of ['beaconRoot', 'withdrawals'] as const) {
      if (o[field] != null) return fail(ctx, o, `block override "${field}" is not supported for this RPC method`, AFTER_DECODE)
    }
    const out: CallBlockOverrides = {}
    for (const key of ['number', 'difficulty', 'time', 'gasLimit', 'feeRecipient', 'prevRandao', 'baseFeePerGas', 'blobBaseFee'] as const) {
      const v = o[key]
      if (v != null) (out as Record<string, unknown>)[key] = v
    }
    return out
  })

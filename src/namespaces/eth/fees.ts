import { z } from 'zod'
import { EngineError } from '../../engine/base/errors.js'
import { quantity } from '../../rpc/format.js'
import { BlockTag, Percentiles } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/** geth math.HexOrDecimal64: eth_feeHistory's block count comes as hex string or number. */
const BlockCount = z
  .union([z.number().int().nonnegative(), z.string().regex(/^(0x[0-9a-fA-F]+|\d+)$/, 'invalid hex or decimal integer')], { error: 'json: cannot unmarshal into Go value of type math.HexOrDecimal64' })
  .transform((v) => BigInt(v))

/** Fee suggestions and history (coreth: eth/gasprice/gasprice.go, internal/ethapi/api.go). */
export function ethFeeMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-eth', {
    /** Handler for `eth_gasPrice`: suggested tip + next base fee. */
    eth_gasPrice: method(z.tuple([]), () => quantity(engine.fees.gasPrice())),
    /** Handler for `eth_maxPriorityFeePerGas`. */
    eth_maxPriorityFeePerGas: method(z.tuple([]), () => quantity(engine.fees.suggestTipCap())),
    /** Handler for `eth_suggestPriceOptions` (Avalanche extension): slow, normal and fast tips and fee caps. */
    eth_suggestPriceOptions: method(z.tuple([]), () => {
      const options = engine.fees.priceOptions()
      const price = (p: { tip: bigint; feeCap: bigint }) => ({ maxPriorityFeePerGas: quantity(p.tip), maxFeePerGas: quantity(p.feeCap) })
      return { slow: price(options.slow), normal: price(options.normal), fast: price(options.fast) }
    }),
    /** Handler for `eth_baseFee` (Avalanche extension): base fee of a block built now. */
    eth_baseFee: method(z.tuple([]), () => quantity(engine.fees.nextBaseFee())),
    /**
     * Handler for `eth_blobBaseFee`: the C-Chain carries no blobs, its headers' excessBlobGas is
     * always 0, so this is EIP-4844's minimum, 1 wei (as coreth computes it).
     */
    eth_blobBaseFee: method(z.tuple([]), () => '0x1'),
    /** Handler for `eth_feeHistory`. */
    eth_feeHistory: method(z.tuple([BlockCount, BlockTag, Percentiles.nullish()]), ([count, ref, percentiles]) => {
      const head = engine.head.header.number
      const last = ref === 'pending' ? engine.head : engine.findBlock(ref)
      if (last === undefined) throw new EngineError(`request beyond head block: requested ${ref as bigint}, head ${head}`)
      const h = engine.fees.feeHistory(ref === 'pending' && count > 0n ? count - 1n : count, last, percentiles ?? undefined)
      const out: Record<string, unknown> = { oldestBlock: quantity(h.oldestBlock) }
      if (h.reward !== undefined) out.reward = h.reward.map((r) => r.map(quantity))
      if (h.baseFeePerGas !== undefined) out.baseFeePerGas = h.baseFeePerGas.map(quantity)
      out.gasUsedRatio = h.gasUsedRatio
      return out
    }),
  })
}

import { z } from 'zod'

/*
 * subnet-evm's fee config (subnet-evm commontype/fee_config.go): the parameters of the dynamic fee
 * algorithm, as the chain config's `feeConfig`, the fee manager's `initialFeeConfig` and its storage
 * hold them. Every field is a big integer in Go except targetBlockRate, a uint64.
 */

/** A complete fee config (every Go pointer set). */
export interface FeeConfig {
  gasLimit: bigint
  /** Seconds; a uint64. */
  targetBlockRate: bigint
  minBaseFee: bigint
  targetGas: bigint
  baseFeeChangeDenominator: bigint
  minBlockGasCost: bigint
  maxBlockGasCost: bigint
  blockGasCostStep: bigint
}

/** The big-integer fields, each a *big.Int in Go (absent = nil). */
export const FEE_CONFIG_BIG_FIELDS = ['gasLimit', 'minBaseFee', 'targetGas', 'baseFeeChangeDenominator', 'minBlockGasCost', 'maxBlockGasCost', 'blockGasCostStep'] as const
type BigField = (typeof FEE_CONFIG_BIG_FIELDS)[number]

/** A fee config as a JSON file may give it: a big-integer field may be absent (nil); targetBlockRate absent is 0. */
export type PartialFeeConfig = { [K in BigField]?: bigint } & { targetBlockRate: bigint }

/** subnet-evm params/extras/config.go DefaultFeeConfig: the chain's fee config when its genesis gives none. */
export const DEFAULT_FEE_CONFIG: Readonly<FeeConfig> = Object.freeze({
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
})

const UINT64_MAX = (1n << 64n) - 1n
/** A value whose big-endian bytes exceed 32 (Go's len(x.Bytes()) > common.HashLength). */
const exceedsHashLength = (x: bigint): boolean => (x < 0n ? -x : x) >= 1n << 256n

/**
 * FeeConfig.Verify (subnet-evm commontype/fee_config.go): undefined when valid, else the Go error's text.
 * The nil checks come first, then the ranges, then the 32-byte bound of each field.
 */
export function verifyFeeConfig(c: PartialFeeConfig): string | undefined {
  for (const field of FEE_CONFIG_BIG_FIELDS) if (c[field] === undefined) return `${field} cannot be nil`
  const f = c as FeeConfig
  if (f.gasLimit <= 0n) return `gasLimit cannot be less than or equal to 0: gasLimit = ${f.gasLimit}`
  if (f.targetBlockRate <= 0n) return `targetBlockRate cannot be less than or equal to 0: targetBlockRate = ${f.targetBlockRate}`
  if (f.minBaseFee < 0n) return `minBaseFee cannot be less than 0: minBaseFee = ${f.minBaseFee}`
  if (f.targetGas <= 0n) return `targetGas cannot be less than or equal to 0: targetGas = ${f.targetGas}`
  if (f.baseFeeChangeDenominator <= 0n) return `baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = ${f.baseFeeChangeDenominator}`
  if (f.minBlockGasCost < 0n) return `minBlockGasCost cannot be less than 0: minBlockGasCost = ${f.minBlockGasCost}`
  if (f.minBlockGasCost > f.maxBlockGasCost) return `minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = ${f.minBlockGasCost}, maxBlockGasCost = ${f.maxBlockGasCost}`
  if (f.blockGasCostStep < 0n) return `blockGasCostStep cannot be less than 0: blockGasCostStep = ${f.blockGasCostStep}`
  if (f.maxBlockGasCost < 0n || f.maxBlockGasCost > UINT64_MAX) return `maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${f.maxBlockGasCost}`
  for (const field of ['gasLimit', 'targetBlockRate', 'minBaseFee', 'targetGas', 'baseFeeChangeDenominator', 'minBlockGasCost', 'maxBlockGasCost', 'blockGasCostStep'] as const) {
    if (exceedsHashLength(f[field])) return `${field} exceeds hash length: 32 bytes`
  }
  return undefined
}

/** Whether every field is as Go's commontype.EmptyFeeConfig holds it (all nil, rate 0): subnet-evm then takes DEFAULT_FEE_CONFIG. */
export function isEmptyFeeConfig(c: PartialFeeConfig): boolean {
  return c.targetBlockRate === 0n && FEE_CONFIG_BIG_FIELDS.every((field) => c[field] === undefined)
}

/** FeeConfig.Equal: the same value in every field (two nils are equal). */
export function feeConfigsEqual(a: PartialFeeConfig, b: PartialFeeConfig): boolean {
  return a.targetBlockRate === b.targetBlockRate && FEE_CONFIG_BIG_FIELDS.every((field) => a[field] === b[field])
}

/**
 * A JSON integer as Go's encoding/json gives a *big.Int: a number (or a bigint from a lossless JSON
 * reader); null is nil. JSON.parse rounds integers past 2^53: a reader that keeps them as bigint is exact.
 */
export const JsonBigInt = z
  .union([z.bigint(), z.number().int('expected an integer')])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : BigInt(v)))

/** A JSON uint64 (targetBlockRate): null or absent is 0, as Go leaves the field. */
const JsonUint64 = z
  .union([z.bigint(), z.number().int('expected an integer')])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? 0n : BigInt(v)))
  .refine((v) => v >= 0n && v <= UINT64_MAX, 'expected a uint64')

/** The JSON of a fee config (chain config `feeConfig`, fee manager `initialFeeConfig`); verify it with verifyFeeConfig. */
export const FeeConfigJson = z
  .object({
    gasLimit: JsonBigInt,
    targetBlockRate: JsonUint64,
    minBaseFee: JsonBigInt,
    targetGas: JsonBigInt,
    baseFeeChangeDenominator: JsonBigInt,
    minBlockGasCost: JsonBigInt,
    maxBlockGasCost: JsonBigInt,
    blockGasCostStep: JsonBigInt,
  })
  .transform((o): PartialFeeConfig => {
    const out: PartialFeeConfig = { targetBlockRate: o.targetBlockRate }
    for (const field of FEE_CONFIG_BIG_FIELDS) if (o[field] !== undefined) out[field] = o[field]
    return out
  })

/**
 * The chain's fee config from its genesis `feeConfig` (absent or null: empty): DEFAULT_FEE_CONFIG when
 * empty (subnet-evm plugin/evm/vm.go parseGenesis), else the value given, which the chain config's
 * Verify checks (`invalid fee config: ` + verifyFeeConfig's text).
 */
export function chainFeeConfig(given: PartialFeeConfig | undefined): PartialFeeConfig {
  return given === undefined || isEmptyFeeConfig(given) ? { ...DEFAULT_FEE_CONFIG } : given
}

/**
 * The JSON of a subnet-evm genesis `config` as Go decodes it (libevm params ChainConfig with
 * subnet-evm's extras on the same root, subnet-evm params/extras/config.go ChainConfig): keys match
 * their fields case-insensitively (Go prefers an exact match; the last key of a field wins), a null
 * leaves a field nil, unknown keys are ignored by Go and kept here, and the registered precompiles'
 * keys (exact matches only) hold their genesis configs.
 */
import { z } from 'zod'
import { FeeConfigJson, JsonBigInt, type PartialFeeConfig } from './feeConfig.js'
import { NETWORK_UPGRADE_KEYS } from './networkUpgrades.js'
import { PRECOMPILE_MODULES } from './precompiles/modules.js'
import { SubnetEvmRuleError } from './ruleError.js'

/** geth's fork blocks (*big.Int), in libevm's order. */
export const ETH_BLOCK_KEYS = [
  'homesteadBlock',
  'daoForkBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
  'arrowGlacierBlock',
  'grayGlacierBlock',
  'mergeNetsplitBlock',
] as const
/** geth's fork times (*uint64). */
export const ETH_TIME_KEYS = ['shanghaiTime', 'cancunTime', 'pragueTime', 'verkleTime'] as const

export type EthBlockKey = (typeof ETH_BLOCK_KEYS)[number]
export type EthTimeKey = (typeof ETH_TIME_KEYS)[number]

const UINT64_MAX = (1n << 64n) - 1n

/** A JSON uint64 behind a pointer (a fork time): null or absent is nil. */
const JsonUint64Pointer = z
  .union([z.bigint(), z.number().int('expected an integer')])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : BigInt(v)))
  .refine((v) => v === undefined || (v >= 0n && v <= UINT64_MAX), 'expected a uint64')

/** A JSON uint64 held by value (initialMinDelayMS): null or absent is 0. */
const JsonUint64Value = JsonUint64Pointer.transform((v) => v ?? 0n)
/** A JSON bool held by value: null or absent is false. */
const JsonBool = z
  .boolean()
  .nullable()
  .optional()
  .transform((v) => v === true)

const fields: Record<string, z.ZodType> = {
  chainId: JsonBigInt,
  daoForkSupport: JsonBool,
  terminalTotalDifficulty: JsonBigInt,
  terminalTotalDifficultyPassed: JsonBool,
  feeConfig: FeeConfigJson.nullable().optional(),
  allowFeeRecipients: JsonBool,
  initialMinDelayMS: JsonUint64Value,
}
for (const key of ETH_BLOCK_KEYS) fields[key] = JsonBigInt
for (const key of [...ETH_TIME_KEYS, ...NETWORK_UPGRADE_KEYS]) fields[key] = JsonUint64Pointer

/** The config's known fields, as parsed; precompile configs and unknown keys apart. */
export interface ChainConfigFields {
  chainId?: bigint
  daoForkSupport: boolean
  terminalTotalDifficulty?: bigint
  terminalTotalDifficultyPassed: boolean
  feeConfig?: PartialFeeConfig | null
  allowFeeRecipients: boolean
  initialMinDelayMS: bigint
  [fork: string]: bigint | boolean | PartialFeeConfig | null | undefined
}

export interface ChainConfigJson {
  fields: ChainConfigFields
  /** Genesis precompile configs by module key (`warpConfig`, …), as written. */
  precompiles: Record<string, unknown>
  /** Keys Go ignores. */
  unknown: Record<string, unknown>
}

const FIELD_NAMES = Object.keys(fields)
const PRECOMPILE_KEYS = new Set<string>(PRECOMPILE_MODULES.map((m) => m.key))

/** The field a JSON key sets, as encoding/json matches it: exactly, else ignoring case. */
function fieldOf(key: string): string | undefined {
  if (key in fields) return key
  const folded = key.toLowerCase()
  return FIELD_NAMES.find((name) => name.toLowerCase() === folded)
}

/** Reads a genesis `config` object; throws SubnetEvmRuleError('errInvalidChainConfigJson') naming the field that does not decode. */
export function readChainConfigJson(raw: unknown): ChainConfigJson {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SubnetEvmRuleError('errInvalidChainConfigJson', 'chain config: expected a JSON object')
  }
  const values: Record<string, unknown> = {}
  const precompiles: Record<string, unknown> = {}
  const unknown: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (PRECOMPILE_KEYS.has(key)) precompiles[key] = value
    const field = fieldOf(key)
    if (field !== undefined) values[field] = value
    else if (!PRECOMPILE_KEYS.has(key)) unknown[key] = value
  }
  const parsed: Record<string, unknown> = {}
  for (const name of FIELD_NAMES) {
    const result = fields[name]!.safeParse(values[name])
    if (!result.success) {
      const issue = result.error.issues[0]!
      const path = [name, ...issue.path.map(String)].join('.')
      throw new SubnetEvmRuleError('errInvalidChainConfigJson', `chain config: ${path}: ${issue.message}`)
    }
    parsed[name] = result.data
  }
  return { fields: parsed as ChainConfigFields, precompiles, unknown }
}

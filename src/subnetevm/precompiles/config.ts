import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { z } from 'zod'
import { FeeConfigJson, type PartialFeeConfig } from '../feeConfig.js'
import { moduleOfKey, PRECOMPILE_MODULES, type PrecompileKey } from './modules.js'

/*
 * The precompile configs of a subnet-evm chain: in its genesis chain config, each under its key
 * (subnet-evm params/extras/precompiles.go), and in upgrade.json's `precompileUpgrades`, one key per
 * entry (subnet-evm params/extras/precompile_upgrade.go). Each config is an upgrade (blockTimestamp,
 * disable) plus its module's fields (subnet-evm precompile/allowlist/config.go and each
 * contracts/<name>/config.go). Verification is verifyConfig.ts's.
 */

/** precompileconfig.Upgrade: blockTimestamp absent (or null) never activates. */
export interface UpgradeFields {
  blockTimestamp?: bigint
  disable: boolean
}

/** allowlist.AllowListConfig: the roles set when the precompile activates. */
export interface AllowListConfig {
  adminAddresses: Uint8Array[]
  managerAddresses: Uint8Array[]
  enabledAddresses: Uint8Array[]
}

/** One initialMint entry; amount absent = JSON null (Go's nil, which Verify refuses). */
export interface InitialMint {
  address: Uint8Array
  amount?: bigint
}

/** rewardmanager.InitialRewardConfig. */
export interface InitialRewardConfig {
  allowFeeRecipients: boolean
  rewardAddress: Uint8Array
}

export type PrecompileConfig =
  | ({ key: 'contractDeployerAllowListConfig' | 'txAllowListConfig' } & UpgradeFields & AllowListConfig)
  | ({ key: 'contractNativeMinterConfig'; initialMint: InitialMint[] } & UpgradeFields & AllowListConfig)
  | ({ key: 'feeManagerConfig'; initialFeeConfig?: PartialFeeConfig } & UpgradeFields & AllowListConfig)
  | ({ key: 'rewardManagerConfig'; initialRewardConfig?: InitialRewardConfig } & UpgradeFields & AllowListConfig)
  /** Warp's fields are kept for its own code (src/warp/); only its schedule and Verify are here. */
  | ({ key: 'warpConfig'; quorumNumerator: bigint; requirePrimaryNetworkSigners: boolean } & UpgradeFields)

const UINT64_MAX = (1n << 64n) - 1n

/** hexutil's fixed-size hex (common.Address): 0x and exactly 40 digits, with hexutil's texts. */
function addressFrom(s: string, ctx: z.RefinementCtx): Uint8Array {
  if (!/^0[xX]/.test(s)) ctx.addIssue({ code: 'custom', message: 'hex string without 0x prefix' })
  else if (!/^0[xX][0-9a-fA-F]*$/.test(s)) ctx.addIssue({ code: 'custom', message: 'invalid hex string' })
  else if (s.length !== 42) ctx.addIssue({ code: 'custom', message: `hex string has length ${s.length - 2}, want 40 for common.Address` })
  else return hexToBytes(`0x${s.slice(2).toLowerCase()}`)
  return new Uint8Array(20)
}
const Address = z.string().transform(addressFrom)
const Uint64 = z
  .union([z.bigint(), z.number().int('expected an integer')])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : BigInt(v)))
  .refine((v) => v === undefined || (v >= 0n && v <= UINT64_MAX), 'expected a uint64')
const Bool = z
  .boolean()
  .nullable()
  .optional()
  .transform((v) => v === true)
const AddressList = z
  .array(Address)
  .nullable()
  .optional()
  .transform((v) => v ?? [])

/** math.ParseBig256 (HexOrDecimal256): "" is 0, 0x-prefixed hex or decimal, a sign allowed, at most 256 bits. */
function parseBig256(s: string): bigint | undefined {
  const hex = /^0[xX]/.test(s)
  const body = hex ? s.slice(2) : s
  if (s === '') return 0n
  if (!(hex ? /^[+-]?[0-9a-fA-F]+$/ : /^[+-]?[0-9]+$/).test(body)) return undefined
  const negative = body.startsWith('-')
  const digits = body.replace(/^[+-]/, '')
  const magnitude = BigInt(hex ? `0x${digits}` : digits)
  return magnitude >= 1n << 256n ? undefined : negative ? -magnitude : magnitude
}
const MintAmount = z.union([z.string(), z.number().int('expected an integer'), z.bigint(), z.null()]).transform((v, ctx) => {
  if (v === null) return undefined
  const parsed = typeof v === 'string' ? parseBig256(v) : BigInt(v)
  if (parsed === undefined || parsed >= 1n << 256n || parsed <= -(1n << 256n)) ctx.addIssue({ code: 'custom', message: `invalid hex or decimal integer ${JSON.stringify(String(v))}` })
  return parsed
})
/** map[common.Address]*HexOrDecimal256: keys in any case, the last of equal addresses wins. */
const InitialMintJson = z
  .record(z.string(), MintAmount)
  .nullable()
  .optional()
  .transform((record, ctx): InitialMint[] => {
    const byAddress = new Map<string, InitialMint>()
    for (const [key, amount] of Object.entries(record ?? {})) {
      const address = addressFrom(key, ctx)
      byAddress.set(bytesToHex(address), amount === undefined ? { address } : { address, amount })
    }
    return [...byAddress.values()]
  })

const UpgradeJson = { blockTimestamp: Uint64, disable: Bool }
const AllowListJson = { adminAddresses: AddressList, managerAddresses: AddressList, enabledAddresses: AddressList }

const SCHEMAS = {
  contractDeployerAllowListConfig: z.object({ ...UpgradeJson, ...AllowListJson }),
  txAllowListConfig: z.object({ ...UpgradeJson, ...AllowListJson }),
  contractNativeMinterConfig: z.object({ ...UpgradeJson, ...AllowListJson, initialMint: InitialMintJson }),
  feeManagerConfig: z.object({ ...UpgradeJson, ...AllowListJson, initialFeeConfig: FeeConfigJson.nullable().optional() }),
  rewardManagerConfig: z.object({
    ...UpgradeJson,
    ...AllowListJson,
    initialRewardConfig: z
      .object({
        allowFeeRecipients: Bool,
        rewardAddress: Address.nullable()
          .optional()
          .transform((v) => v ?? new Uint8Array(20)),
      })
      .nullable()
      .optional(),
  }),
  warpConfig: z.object({ ...UpgradeJson, quorumNumerator: Uint64.transform((v) => v ?? 0n), requirePrimaryNetworkSigners: Bool }),
} satisfies Record<PrecompileKey, z.ZodType>

/** The config under `key` from its JSON value (null: every field zero, as Go leaves it). Throws on a malformed value. */
export function parsePrecompileConfig(key: PrecompileKey, value: unknown): PrecompileConfig {
  const parsed = SCHEMAS[key].safeParse(value ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`${key}${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`)
  }
  const { blockTimestamp, ...rest } = parsed.data as Record<string, unknown> & { blockTimestamp?: bigint }
  for (const field of Object.keys(rest)) if (rest[field] === undefined || rest[field] === null) delete rest[field]
  return { key, ...(blockTimestamp === undefined ? {} : { blockTimestamp }), ...rest } as PrecompileConfig
}

/** Precompiles.UnmarshalJSON: the configs whose keys the genesis chain config holds, in module (address) order. */
export function parseGenesisPrecompiles(chainConfig: Readonly<Record<string, unknown>>): PrecompileConfig[] {
  return PRECOMPILE_MODULES.filter((m) => Object.hasOwn(chainConfig, m.key)).map((m) => parsePrecompileConfig(m.key, chainConfig[m.key]))
}

/**
 * upgrade.json's `precompileUpgrades` (absent or null: none), each entry an object of exactly one
 * registered key. Throws PrecompileUpgrade.UnmarshalJSON's texts (subnet-evm's VM prefixes them
 * with "failed to parse upgrade bytes: ").
 */
export function parsePrecompileUpgrades(value: unknown): PrecompileConfig[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new Error('precompileUpgrades: expected an array')
  return value.map((entry: unknown, i) => {
    if (entry !== null && (typeof entry !== 'object' || Array.isArray(entry))) throw new Error(`precompileUpgrades[${i}]: expected an object`)
    const keys = entry === null ? [] : Object.keys(entry)
    if (keys.length === 0) throw new Error('PrecompileUpgrade cannot be empty')
    if (keys.length > 1) throw new Error(`PrecompileUpgrade must have exactly one key, got ${keys.length}`)
    const module = moduleOfKey(keys[0]!)
    if (module === undefined) throw new Error(`unknown precompile config: ${keys[0]}`)
    return parsePrecompileConfig(module.key, (entry as Record<string, unknown>)[module.key])
  })
}

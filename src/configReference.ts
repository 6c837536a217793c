import type { z } from 'zod'
import { ChainConfigFile, Duration, EvmChainInput, FLAGS, NodeConfig } from './config.js'

/** One documented setting: a CLI flag or a chain config key, with its default as `--help` shows it. */
export interface ConfigEntry {
  /** Flag name without `--`, or the chain config key. */
  readonly name: string
  /** The flag's NodeConfig key (programmatic createNode() input); absent for chain config keys. */
  readonly configKey?: string
  /** boolean, integer, number, string, list or duration. */
  readonly kind: string
  readonly default: string
  readonly meaning: string
}

/** What `--help` shows as the default of a flag that sets a C-Chain config key. */
const CHAIN_FLAG_DEFAULTS: Record<string, string> = { 'admin-api-enabled': 'false', hardfork: 'helicon', 'fork-block-number': "(the origin's latest)" }

/** Defaults decided elsewhere for chain config keys that are optional in the schema. */
const CHAIN_KEY_DEFAULTS: Record<string, string> = {
  'gas-target': '20000000 (this node starts its chain at this target; coreth starts at 1000000)',
  'log-level': '(the --log-level flag)',
}

/**
 * Every CLI flag (from FLAGS, the table the CLI parses), every chain config key (from the
 * ChainConfigFile schema and its `.describe()` texts) and every field of an `evmChains` entry, with
 * defaults: `--help` and docs/CONFIG.md (scripts/genConfigDoc.ts) both read this, so neither drifts.
 */
export function configReference(): { flags: ConfigEntry[]; chainKeys: ConfigEntry[]; evmChainFields: ConfigEntry[] } {
  const defaults = NodeConfig.parse({}) as unknown as Record<string, unknown>
  const flags = Object.entries(FLAGS).map(([name, flag]): ConfigEntry => {
    const value = defaults[flag.key]
    const file = flag.key === 'chainConfigFile' || flag.key === 'configFile'
    const def = file
      ? '(none)'
      : flag.chainKey !== undefined
        ? (CHAIN_FLAG_DEFAULTS[flag.chainKey] ?? '(none)')
        : value === undefined || (Array.isArray(value) && value.length === 0)
          ? '(none)'
          : flag.type === 'duration'
            ? `${Number(value) / 1000}s`
            : String(value)
    const configKey = flag.chainKey !== undefined ? `chain['${flag.chainKey}']` : file ? undefined : flag.key
    return { name, ...(configKey !== undefined && { configKey }), kind: flag.type === 'number' ? 'integer' : flag.type, default: def, meaning: flag.help }
  })
  const chainDefaults = ChainConfigFile.parse({}) as Record<string, unknown>
  const chainKeys = Object.entries(ChainConfigFile.shape).map(([name, schema]): ConfigEntry => {
    const value = chainDefaults[name]
    const def = value === undefined ? (CHAIN_KEY_DEFAULTS[name] ?? '(none)') : JSON.stringify(value)
    return { name, kind: valueKind(schema), default: def, meaning: schema.description ?? '' }
  })
  const evmChainFields = Object.entries(EvmChainInput.shape).map(([name, schema]): ConfigEntry => {
    const value = schema.safeParse(undefined)
    const def = !value.success ? '(required)' : name === 'chain' ? "(every key's default)" : JSON.stringify(value.data)
    return { name, kind: valueKind(schema), default: def, meaning: schema.description ?? '' }
  })
  return { flags, chainKeys, evmChainFields }
}

/** The JSON type a chain config key takes. */
function valueKind(schema: z.ZodType): string {
  type Def = { def: { type: string; innerType?: Def } }
  let inner = schema as unknown as Def
  while ((inner.def.type === 'default' || inner.def.type === 'optional') && inner.def.innerType !== undefined) {
    if ((inner.def.innerType as unknown) === Duration) return 'duration'
    inner = inner.def.innerType
  }
  if (inner.def.type === 'number') return (inner as unknown as z.ZodNumber).isInt ? 'integer' : 'number'
  return inner.def.type === 'array' ? 'list' : inner.def.type
}

/** `--help` text: every flag with its default, then every chain config key with its default. */
export function helpText(): string {
  const { flags, chainKeys } = configReference()
  const lines = ['Usage: cchain-node [flags]', '', 'Flags:']
  for (const flag of flags) lines.push(`  --${flag.name.padEnd(20)} ${flag.meaning} (default: ${flag.default})`)
  lines.push('', 'Chain config file keys (coreth names) and defaults:')
  for (const key of chainKeys) lines.push(`  ${key.name.padEnd(32)} ${key.default}`)
  return lines.join('\n')
}

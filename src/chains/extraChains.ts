import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { cb58Encode } from '../avalanche/cb58.js'
import { type EvmChainInput, type NodeConfig, ChainConfigFile, ConfigError, EvmChainName, readChainConfigFile, readJsonFile } from '../config.js'
import { type Genesis, readGenesisFile } from '../engine/rules/genesis.js'
import { evmBlockchainID } from './blockchainID.js'

/** An extra EVM chain ready to open: its ID, names and configuration. */
export interface EvmChainSpec {
  /** Its folder name in the chain config dir (or `name` of a programmatic entry): the primary alias. */
  readonly name: string
  /** CB58 blockchain ID (src/chains/blockchainID.ts). */
  readonly id: string
  readonly idBytes: Uint8Array
  /** Every alias besides the ID, `name` first. */
  readonly aliases: readonly string[]
  readonly genesis: Genesis
  readonly chain: ChainConfigFile
  /** Its upgrade.json (subnet-evm's precompileUpgrades), as written; undefined without one. */
  readonly upgrade?: unknown
}

/** A chain this node already serves, for alias and EVM chain ID checks. */
export interface KnownChain {
  /** `C`, `X` or `P`. */
  readonly name: string
  readonly id: string
  /** EVM chain ID (C-Chain only). */
  readonly evmChainId?: number
}

/** Names avalanchego gives the primary network's chains (genesis/aliases.go); no extra chain may take them. */
const RESERVED = new Set(['C', 'X', 'P', 'evm', 'avm', 'platform'])

/**
 * The extra EVM chains of a node config (its `evmChains` and the chain config dir's), with the
 * aliases file applied: `aliases` maps every chain's ID (C, X and P too) to its extra aliases.
 * Throws a ConfigError naming the chain for a bad genesis or config, a name or alias used twice,
 * or two EVM chains sharing an EVM chain ID.
 */
export function resolveExtraChains(config: NodeConfig, known: readonly KnownChain[]): { chains: EvmChainSpec[]; aliases: Map<string, string[]> } {
  const { inputs, configOnly } = readChainConfigDir(config.chainConfigDir)
  const all = [...config.evmChains, ...inputs]
  const specs: { input: EvmChainInput; id: string; idBytes: Uint8Array; genesis: Genesis }[] = []
  for (const input of all) {
    let parsed: ReturnType<typeof readGenesisFile>
    try {
      parsed = readGenesisFile(input.genesisFile)
    } catch (err) {
      throw new ConfigError(`chain ${JSON.stringify(input.name)}: ${(err as Error).message}`)
    }
    const idBytes = evmBlockchainID(config.networkId, parsed.json)
    specs.push({ input, id: cb58Encode(idBytes), idBytes, genesis: parsed.genesis })
  }
  // A folder without a genesis named after an extra chain's ID or name holds that chain's config and upgrade.json (avalanchego's layout).
  for (const [folder, files] of configOnly) {
    const spec = specs.find((s) => s.id === folder || s.input.name === folder)
    if (spec !== undefined) {
      spec.input = { ...spec.input, ...(files.config !== undefined && { chain: readChainConfigFile(files.config) }), ...(files.upgrade !== undefined && { upgradeFile: files.upgrade }) }
    } else if (!known.some((k) => k.id === folder)) {
      throw new ConfigError(`chain config dir ${config.chainConfigDir}: folder ${JSON.stringify(folder)} has no genesis.json and names no chain`)
    }
  }

  /** alias -> blockchain ID, and blockchain ID -> chain name for messages. */
  const owner = new Map<string, string>()
  const nameOf = new Map<string, string>([...known.map((k) => [k.id, k.name] as const), ...specs.map((s) => [s.id, s.input.name] as const)])
  const claim = (alias: string, id: string, what: string): void => {
    const prev = owner.get(alias)
    if (prev !== undefined && prev !== id) throw new ConfigError(`${what}: alias ${JSON.stringify(alias)} is already used by chain ${JSON.stringify(nameOf.get(prev))}`)
    owner.set(alias, id)
  }
  for (const k of known) {
    claim(k.name, k.id, 'chain')
    claim(k.id, k.id, 'chain')
  }
  const evmIds = new Map<number, string>(known.filter((k) => k.evmChainId !== undefined).map((k) => [k.evmChainId!, k.name]))
  for (const s of specs) {
    const name = s.input.name
    if (RESERVED.has(name)) throw new ConfigError(`chain ${JSON.stringify(name)}: the name is reserved for the primary network's chains`)
    if (owner.has(s.id))
      throw new ConfigError(
        `chain ${JSON.stringify(name)}: its genesis gives blockchain ID ${s.id}, which chain ${JSON.stringify(specs.find((o) => o.id === s.id)!.input.name)} already has (identical genesis)`,
      )
    claim(s.id, s.id, `chain ${JSON.stringify(name)}`)
    claim(name, s.id, `chain ${JSON.stringify(name)}`)
    const evmChainId = s.genesis.config.chainId
    const other = evmIds.get(evmChainId)
    if (other !== undefined)
      throw new ConfigError(`chains ${JSON.stringify(other)} and ${JSON.stringify(name)} both have EVM chain ID ${evmChainId}; each EVM chain needs its own (transactions would be valid on both)`)
    evmIds.set(evmChainId, name)
  }

  // Aliases: the entries of each chain, then the aliases file (keys: a blockchain ID or a chain name).
  const extra = new Map<string, string[]>()
  const addAlias = (id: string, alias: string, what: string): void => {
    if (RESERVED.has(alias) && owner.get(alias) !== id) throw new ConfigError(`${what}: alias ${JSON.stringify(alias)} is reserved`)
    // An alias is a path segment of /ext/bc/<alias>/...
    if (!EvmChainName.safeParse(alias).success) throw new ConfigError(`${what}: alias ${JSON.stringify(alias)} must be 1-64 letters, digits, ".", "_" or "-"`)
    if (owner.get(alias) === id) return
    claim(alias, id, what)
    extra.set(id, [...(extra.get(id) ?? []), alias])
  }
  for (const s of specs) for (const a of s.input.aliases) addAlias(s.id, a, `chain ${JSON.stringify(s.input.name)}`)
  const aliasesFile = config.chainAliasesFile ?? defaultAliasesFile(config.chainConfigDir)
  if (aliasesFile !== undefined) {
    for (const [key, aliases] of readAliasesFile(aliasesFile)) {
      const id = owner.get(key)
      if (id === undefined) throw new ConfigError(`chain aliases file ${aliasesFile}: no chain has the ID or name ${JSON.stringify(key)}`)
      for (const a of aliases) addAlias(id, a, `chain aliases file ${aliasesFile}`)
    }
  }
  const chains = specs.map((s) => ({
    name: s.input.name,
    id: s.id,
    idBytes: s.idBytes,
    genesis: s.genesis,
    chain: s.input.chain,
    aliases: [s.input.name, ...(extra.get(s.id) ?? [])],
    ...(s.input.upgradeFile !== undefined && { upgrade: readJsonFile(s.input.upgradeFile, `chain ${JSON.stringify(s.input.name)}: upgrade file`) }),
  }))
  const aliases = new Map<string, string[]>()
  for (const k of known) aliases.set(k.id, extra.get(k.id) ?? [])
  return { chains, aliases }
}

function defaultAliasesFile(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined
  const file = join(dir, 'aliases.json')
  return existsSync(file) ? file : undefined
}

/** avalanchego's aliases file: a JSON object of arrays of strings. */
function readAliasesFile(file: string): [string, string[]][] {
  const raw = readJsonFile(file, 'chain aliases file')
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`chain aliases file ${file}: expected {"<blockchain ID>": ["alias", ...]}`)
  return Object.entries(raw).map(([key, list]) => {
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string' && a !== '')) {
      throw new ConfigError(`chain aliases file ${file}: ${JSON.stringify(key)} must map to an array of non-empty strings`)
    }
    return [key, list as string[]]
  })
}

/** A chain folder's files besides a genesis. */
interface ChainFiles {
  config?: string
  upgrade?: string
}

/**
 * The chain config dir's extra chains: every folder with a `genesis.json` (its `config.json` and
 * `upgrade.json` optional). `C` is the C-Chain's (read by configFromArgs); `X` and `P` have no keys
 * here. Folders without a genesis are returned as config-only, keyed by folder name.
 */
function readChainConfigDir(dir: string | undefined): { inputs: EvmChainInput[]; configOnly: Map<string, ChainFiles> } {
  const inputs: EvmChainInput[] = []
  const configOnly = new Map<string, ChainFiles>()
  if (dir === undefined) return { inputs, configOnly }
  let entries: string[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
  } catch (err) {
    throw new ConfigError(`chain config dir ${dir}: ${(err as Error).message}`)
  }
  for (const name of entries) {
    if (name === 'C' || name === 'X' || name === 'P') continue
    const genesisFile = join(dir, name, 'genesis.json')
    const configFile = join(dir, name, 'config.json')
    const upgradeFile = join(dir, name, 'upgrade.json')
    const files: ChainFiles = { ...(existsSync(configFile) && { config: configFile }), ...(existsSync(upgradeFile) && { upgrade: upgradeFile }) }
    if (!existsSync(genesisFile)) {
      if (files.config !== undefined || files.upgrade !== undefined) configOnly.set(name, files)
      continue
    }
    const parsed = EvmChainName.safeParse(name)
    if (!parsed.success) throw new ConfigError(`chain config dir ${dir}: folder ${JSON.stringify(name)}: ${parsed.error.issues[0]!.message}`)
    inputs.push({
      name,
      genesisFile,
      chain: files.config !== undefined ? readChainConfigFile(files.config) : ChainConfigFile.parse({}),
      aliases: [],
      ...(files.upgrade !== undefined && { upgradeFile: files.upgrade }),
    })
  }
  return { inputs, configOnly }
}

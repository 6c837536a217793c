import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ConfigError, FLAGS, parseNodeConfig, readChainConfigFile, readJsonFile, type NodeConfig, type NodeConfigInput } from './config.js'
import { parseGoDuration } from './util/goDuration.js'

/** Parses argv (flags as `--name value` or `--name=value`) into a validated NodeConfig. */
export function configFromArgs(argv: readonly string[]): NodeConfig {
  const input: Record<string, unknown> = {}
  let chainConfigFile: string | undefined
  const chainKeys: Record<string, unknown> = {}
  const args = withConfigFile(argv)
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}`)
    let eq = arg.indexOf('=')
    // The API reference's `--<vm>-admin-api-enabled:true` form.
    const colon = arg.indexOf(':')
    if (eq === -1 && colon !== -1 && FLAGS[arg.slice(2, colon)]?.type === 'boolean') eq = colon
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    const flag = FLAGS[name]
    if (flag === undefined || !Object.hasOwn(FLAGS, name)) throw new ConfigError(`unknown flag --${name} (see --help)`)
    if (flag.type === 'boolean') {
      let text = eq === -1 ? undefined : arg.slice(eq + 1)
      if (text === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) text = args[++i]
      const on = text === undefined ? true : parseBool(text)
      if (on === undefined) throw new ConfigError(`flag --${name}: ${JSON.stringify(text)} is not true or false`)
      if (flag.chainKey !== undefined) chainKeys[flag.chainKey] = on
      else input[flag.key] = on
      continue
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
    if (value === undefined || (value === '' && flag.type === 'string')) throw new ConfigError(`flag --${name} needs a value`)
    if (flag.key === 'configFile') continue
    if (flag.key === 'chainConfigFile') {
      chainConfigFile = value
      continue
    }
    const into = flag.chainKey !== undefined ? chainKeys : input
    const key = flag.chainKey ?? flag.key
    if (flag.type === 'number') {
      if (!/^\d+$/.test(value)) throw new ConfigError(`flag --${name}: ${JSON.stringify(value)} is not a non-negative integer`)
      into[key] = Number(value)
    } else if (flag.type === 'duration') {
      try {
        input[flag.key] = /^\d+$/.test(value) ? Number(value) : Math.round(parseGoDuration(value))
      } catch (err) {
        throw new ConfigError(`flag --${name}: ${(err as Error).message}`)
      }
    } else if (flag.type === 'list') {
      input[flag.key] = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')
    } else {
      into[key] = PATH_KEYS.has(flag.key) ? resolve(value) : value
    }
  }
  // avalanchego reads the C-Chain's config from <chain-config-dir>/C/config.json.
  const dirConfig = typeof input.chainConfigDir === 'string' ? join(input.chainConfigDir, 'C', 'config.json') : undefined
  if (dirConfig !== undefined && existsSync(dirConfig)) {
    if (chainConfigFile !== undefined) throw new ConfigError(`both --chain-config-file and ${dirConfig} give the C-Chain's config; use one`)
    chainConfigFile = dirConfig
  }
  if (chainConfigFile !== undefined) input.chain = readChainConfigFile(chainConfigFile)
  if (Object.keys(chainKeys).length > 0) input.chain = { ...(input.chain as object | undefined), ...chainKeys }
  return parseNodeConfig(input as NodeConfigInput)
}

const PATH_KEYS = new Set<string>(['dataDir', 'genesisFile', 'chainConfigDir', 'chainAliasesFile'])

/**
 * argv with the `--config-file` JSON's entries (flag name -> value, as avalanchego's config file)
 * put first, so that flags given on the command line override them.
 */
function withConfigFile(argv: readonly string[]): readonly string[] {
  let path: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--config-file') path = argv[i + 1]
    else if (arg.startsWith('--config-file=')) path = arg.slice('--config-file='.length)
  }
  if (path === undefined) return argv
  const raw = readJsonFile(path, 'config file')
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`config file ${path}: expected a JSON object of flag names`)
  const args: string[] = []
  for (const [name, value] of Object.entries(raw)) {
    const flag = Object.hasOwn(FLAGS, name) ? FLAGS[name] : undefined
    if (flag === undefined || flag.key === 'configFile') throw new ConfigError(`config file ${path}: unknown key ${JSON.stringify(name)}`)
    const list = Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(',') : undefined
    if (list === undefined && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new ConfigError(`config file ${path}: ${JSON.stringify(name)} must be a string, number, boolean or array of strings`)
    }
    args.push(`--${name}=${list ?? String(value)}`)
  }
  return [...args, ...argv]
}

/** Go's strconv.ParseBool. */
function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  return undefined
}

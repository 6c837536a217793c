/**
 * A subnet-evm chain config from its genesis `config`, as subnet-evm's VM readies it (subnet-evm
 * plugin/evm/vm.go parseGenesis, core/genesis.go Verify, params/extras/config.go Verify,
 * params/config_extra.go SetEthUpgrades, CheckConfigForkOrder): the default fee config when none
 * is given, the network's upgrade times for the upgrades left out (or 0), the checks, then geth's
 * forks aligned with Avalanche's (Berlin/London at block 0, Shanghai = Durango, Cancun = Etna).
 */
import { ETH_BLOCK_KEYS, ETH_TIME_KEYS, readChainConfigJson } from './chainConfigJson.js'
import { chainFeeConfig, DEFAULT_FEE_CONFIG, type FeeConfig, verifyFeeConfig } from './feeConfig.js'
import { INITIAL_DELAY_MS } from './fees/minDelayExcess.js'
import {
  type AvalancheUpgradeTimes,
  avalancheUpgradeTimes,
  checkForkOrder,
  checkNetworkUpgradeOrder,
  defaultNetworkUpgrades,
  LOCAL_UPGRADE_TIMES,
  MAINNET_UPGRADE_TIMES,
  NETWORK_UPGRADE_KEYS,
  type NetworkUpgrades,
  overrideNetworkUpgrades,
  UNSCHEDULED_ACTIVATION_TIME,
  verifyNetworkUpgrades,
  withNetworkUpgradeDefaults,
} from './networkUpgrades.js'
import { SubnetEvmRuleError } from './ruleError.js'

/** geth's part of the config after SetEthUpgrades; undefined = nil (not scheduled). */
export interface EthForkConfig {
  homesteadBlock?: bigint
  daoForkBlock?: bigint
  daoForkSupport: boolean
  eip150Block?: bigint
  eip155Block?: bigint
  eip158Block?: bigint
  byzantiumBlock?: bigint
  constantinopleBlock?: bigint
  petersburgBlock?: bigint
  istanbulBlock?: bigint
  muirGlacierBlock?: bigint
  berlinBlock?: bigint
  londonBlock?: bigint
  arrowGlacierBlock?: bigint
  grayGlacierBlock?: bigint
  mergeNetsplitBlock?: bigint
  shanghaiTime?: bigint
  cancunTime?: bigint
  pragueTime?: bigint
  verkleTime?: bigint
  terminalTotalDifficulty?: bigint
  terminalTotalDifficultyPassed: boolean
}

export interface SubnetEvmChainConfig {
  chainId: bigint
  eth: EthForkConfig
  /** The Avalanche upgrades after the network's defaults and any overrides. */
  upgrades: NetworkUpgrades
  /** The genesis fee config (the fee manager may store another later: see feeConfigAt). */
  feeConfig: FeeConfig
  /** Whether a block's builder may name its coinbase (else fees go to the blackhole). */
  allowFeeRecipients: boolean
  /** ms; 0 = the ACP-226 default of 2000 ms at genesis. */
  initialMinDelayMS: bigint
  /** Genesis precompile configs by module key, as written (the precompiles' own code verifies them). */
  genesisPrecompiles: Readonly<Record<string, unknown>>
  /** Keys subnet-evm ignores, kept as written. */
  unknownKeys: Readonly<Record<string, unknown>>
}

export interface ChainConfigOptions {
  /** avalanchego's network ID; picks the upgrade times (1 Mainnet, 5 Fuji, any other: local). Default: a local network. */
  networkId?: number
  /** Upgrade times to use instead of the network's (e.g. a local Helicon at genesis). */
  upgradeTimes?: Readonly<AvalancheUpgradeTimes>
  /** The upgrade bytes' `networkUpgradeOverrides` (extras/network_upgrades.go Override). */
  networkUpgradeOverrides?: Readonly<NetworkUpgrades>
  /** The genesis block's gasLimit: it must equal the fee config's (core/genesis.go Verify). */
  genesisGasLimit?: bigint
}

/** subnet-evm's chain ID when a genesis has no config (params/config_extra.go DefaultChainID). */
export const DEFAULT_CHAIN_ID = 43214n

/** geth's fork blocks up to London but the DAO's: at block 0 when a config leaves them out. */
const THROUGH_LONDON = ETH_BLOCK_KEYS.slice(0, ETH_BLOCK_KEYS.indexOf('londonBlock') + 1).filter((k) => k !== 'daoForkBlock')

/** The config of a genesis without one (params/config.go SubnetEVMDefaultChainConfig): London at 0, Mainnet's upgrade times. */
function defaultChainConfigJson(): Record<string, unknown> {
  const out: Record<string, unknown> = { chainId: DEFAULT_CHAIN_ID }
  for (const key of THROUGH_LONDON) {
    out[key] = 0
  }
  out.feeConfig = { ...DEFAULT_FEE_CONFIG }
  const mainnet = defaultNetworkUpgrades(MAINNET_UPGRADE_TIMES)
  for (const key of NETWORK_UPGRADE_KEYS) if (mainnet[key] !== undefined) out[key] = mainnet[key]
  return out
}

/** geth's forks aligned with Avalanche's: missing blocks through London at 0, Shanghai = Durango and Cancun = Etna when scheduled (params/config_extra.go SetEthUpgrades). */
function withEthUpgrades(eth: EthForkConfig, upgrades: NetworkUpgrades): EthForkConfig {
  const out = { ...eth }
  for (const key of THROUGH_LONDON) {
    out[key] ??= 0n
  }
  const { durangoTimestamp: durango, etnaTimestamp: etna } = upgrades
  if (durango !== undefined && durango < UNSCHEDULED_ACTIVATION_TIME) out.shanghaiTime = durango
  if (etna !== undefined && etna < UNSCHEDULED_ACTIVATION_TIME) out.cancunTime = etna
  return out
}

/** geth's fork ordering (libevm params/config.go CheckConfigForkOrder), then the Avalanche upgrades'. */
export function checkConfigForkOrder(config: Pick<SubnetEvmChainConfig, 'eth' | 'upgrades'>): void {
  const e = config.eth
  checkForkOrder([
    { name: 'homesteadBlock', block: e.homesteadBlock },
    { name: 'daoForkBlock', block: e.daoForkBlock, optional: true },
    { name: 'eip150Block', block: e.eip150Block },
    { name: 'eip155Block', block: e.eip155Block },
    { name: 'eip158Block', block: e.eip158Block },
    { name: 'byzantiumBlock', block: e.byzantiumBlock },
    { name: 'constantinopleBlock', block: e.constantinopleBlock },
    { name: 'petersburgBlock', block: e.petersburgBlock },
    { name: 'istanbulBlock', block: e.istanbulBlock },
    { name: 'muirGlacierBlock', block: e.muirGlacierBlock, optional: true },
    { name: 'berlinBlock', block: e.berlinBlock },
    { name: 'londonBlock', block: e.londonBlock },
    { name: 'arrowGlacierBlock', block: e.arrowGlacierBlock, optional: true },
    { name: 'grayGlacierBlock', block: e.grayGlacierBlock, optional: true },
    { name: 'mergeNetsplitBlock', block: e.mergeNetsplitBlock, optional: true },
    { name: 'shanghaiTime', timestamp: e.shanghaiTime },
    { name: 'cancunTime', timestamp: e.cancunTime, optional: true },
    { name: 'pragueTime', timestamp: e.pragueTime, optional: true },
    { name: 'verkleTime', timestamp: e.verkleTime, optional: true },
  ])
  checkNetworkUpgradeOrder(config.upgrades)
}

function rethrow(err: unknown, context: string): never {
  if (err instanceof SubnetEvmRuleError) throw new SubnetEvmRuleError(err.code, `${context}: ${err.message}`)
  throw err
}

/**
 * The chain config of a subnet-evm genesis `config` (undefined/null: subnet-evm's default config),
 * readied and verified as subnet-evm does before it builds the genesis block. Throws
 * SubnetEvmRuleError with Go's text: `invalid fee config: …`, `invalid network upgrades: …`,
 * `initialMinDelayMS too large: …`, `gas limit in fee config (…) does not match …`,
 * `unsupported fork ordering: …` (avalanchego prefixes `failed to verify genesis: ` to the first four).
 */
export function parseChainConfig(raw: unknown, options: ChainConfigOptions = {}): SubnetEvmChainConfig {
  const json = readChainConfigJson(raw ?? defaultChainConfigJson())
  const f = json.fields
  if (f.chainId === undefined) throw new SubnetEvmRuleError('errInvalidChainConfigJson', 'chain config: chainId: required')
  const feeGiven = chainFeeConfig(f.feeConfig ?? undefined)
  const times = options.upgradeTimes ?? (options.networkId === undefined ? LOCAL_UPGRADE_TIMES : avalancheUpgradeTimes(options.networkId))
  const given: NetworkUpgrades = {}
  for (const key of NETWORK_UPGRADE_KEYS) given[key] = f[key] as bigint | undefined
  let upgrades = withNetworkUpgradeDefaults(given, times)
  if (options.networkUpgradeOverrides) upgrades = overrideNetworkUpgrades(upgrades, options.networkUpgradeOverrides)

  if (options.genesisGasLimit !== undefined && feeGiven.gasLimit !== undefined && BigInt.asUintN(64, feeGiven.gasLimit) !== options.genesisGasLimit) {
    throw new SubnetEvmRuleError('errGenesisGasLimit', `gas limit in fee config (${BigInt.asUintN(64, feeGiven.gasLimit)}) does not match gas limit in header (${options.genesisGasLimit})`)
  }
  const feeProblem = verifyFeeConfig(feeGiven)
  if (feeProblem !== undefined) throw new SubnetEvmRuleError('errInvalidFeeConfig', `invalid fee config: ${feeProblem}`)
  try {
    verifyNetworkUpgrades(upgrades, times)
  } catch (err) {
    rethrow(err, 'invalid network upgrades')
  }
  if (f.initialMinDelayMS > INITIAL_DELAY_MS) {
    throw new SubnetEvmRuleError('errInitialMinDelayTooLarge', `initialMinDelayMS too large: ${f.initialMinDelayMS} exceeds ${INITIAL_DELAY_MS}`)
  }

  const eth: EthForkConfig = { daoForkSupport: f.daoForkSupport, terminalTotalDifficultyPassed: f.terminalTotalDifficultyPassed }
  for (const key of [...ETH_BLOCK_KEYS, ...ETH_TIME_KEYS, 'terminalTotalDifficulty'] as const) {
    const value = f[key]
    if (typeof value === 'bigint') eth[key] = value
  }
  const config: SubnetEvmChainConfig = {
    chainId: f.chainId,
    eth: withEthUpgrades(eth, upgrades),
    upgrades,
    feeConfig: feeGiven as FeeConfig,
    allowFeeRecipients: f.allowFeeRecipients,
    initialMinDelayMS: f.initialMinDelayMS,
    genesisPrecompiles: json.precompiles,
    unknownKeys: json.unknown,
  }
  checkConfigForkOrder(config)
  return config
}

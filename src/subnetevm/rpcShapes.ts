/**
 * The JSON answers of subnet-evm's own `eth_` methods (subnet-evm internal/ethapi/api_extra.go),
 * as GoJson values whose member order is Go's: write them with goJsonStringify (bigints are JSON
 * numbers there, as Go writes *big.Int and uint64).
 *
 * - eth_getChainConfig: one flat object (libevm params/json.libevm.go merges geth's fields and
 *   subnet-evm's extras through a map, so keys are sorted), then `upgrades` appended last
 *   (params/config_extra.go ChainConfigWithUpgradesJSON).
 * - eth_getActiveRulesAt: {ethRules, avalancheRules, precompiles}.
 * - eth_feeConfig: {feeConfig, lastChangedAt?}.
 * - eth_getActivePrecompilesAt (deprecated, still served): the active precompile configs by key.
 */
import type { SubnetEvmChainConfig } from './chainConfig.js'
import { type EthRules, ethRulesAt } from './ethRulesAt.js'
import type { PartialFeeConfig } from './feeConfig.js'
import type { FeeConfigAt } from './feeConfigAt.js'
import { type GoJson, sortedKeys } from './goJson.js'
import { NETWORK_UPGRADE_KEYS, type NetworkUpgrades } from './networkUpgrades.js'
import { type AvalancheRules, upgradesAt } from './upgradesAt.js'

type GoObject = Record<string, GoJson | undefined>

/** A fee config's JSON (commontype/fee_config.go FeeConfig): struct order, nil fields and a 0 targetBlockRate left out. */
export function feeConfigJson(f: PartialFeeConfig): GoObject {
  return {
    gasLimit: f.gasLimit,
    targetBlockRate: f.targetBlockRate === 0n ? undefined : f.targetBlockRate,
    minBaseFee: f.minBaseFee,
    targetGas: f.targetGas,
    baseFeeChangeDenominator: f.baseFeeChangeDenominator,
    minBlockGasCost: f.minBlockGasCost,
    maxBlockGasCost: f.maxBlockGasCost,
    blockGasCostStep: f.blockGasCostStep,
  }
}

/** The upgrades' timestamps as extras/network_upgrades.go marshals them: struct order, nil left out. */
export function networkUpgradesJson(upgrades: Readonly<NetworkUpgrades>): GoObject {
  const out: GoObject = {}
  for (const key of NETWORK_UPGRADE_KEYS) out[key] = upgrades[key]
  return out
}

/** The upgrade bytes (extras/config.go UpgradeConfig) as already marshalled by their owners; every part optional. */
export interface UpgradeConfigJson {
  networkUpgradeOverrides?: Readonly<NetworkUpgrades>
  /** Each state upgrade as marshalled ({blockTimestamp, accounts}). */
  stateUpgrades?: readonly GoJson[]
  /** Each precompile upgrade as marshalled: {"<module key>": config}. */
  precompileUpgrades?: readonly GoJson[]
}

/**
 * eth_getChainConfig's answer. `genesisPrecompiles`: each genesis precompile config as its module
 * marshals it, by key (default: the config's values as the genesis wrote them).
 */
export function chainConfigAnswer(config: SubnetEvmChainConfig, options: { genesisPrecompiles?: Readonly<Record<string, GoJson>>; upgradeConfig?: UpgradeConfigJson } = {}): GoObject {
  const e = config.eth
  const flat: GoObject = {
    chainId: config.chainId,
    homesteadBlock: e.homesteadBlock,
    daoForkBlock: e.daoForkBlock,
    daoForkSupport: e.daoForkSupport || undefined,
    eip150Block: e.eip150Block,
    eip155Block: e.eip155Block,
    eip158Block: e.eip158Block,
    byzantiumBlock: e.byzantiumBlock,
    constantinopleBlock: e.constantinopleBlock,
    petersburgBlock: e.petersburgBlock,
    istanbulBlock: e.istanbulBlock,
    muirGlacierBlock: e.muirGlacierBlock,
    berlinBlock: e.berlinBlock,
    londonBlock: e.londonBlock,
    arrowGlacierBlock: e.arrowGlacierBlock,
    grayGlacierBlock: e.grayGlacierBlock,
    mergeNetsplitBlock: e.mergeNetsplitBlock,
    shanghaiTime: e.shanghaiTime,
    cancunTime: e.cancunTime,
    pragueTime: e.pragueTime,
    verkleTime: e.verkleTime,
    terminalTotalDifficulty: e.terminalTotalDifficulty,
    terminalTotalDifficultyPassed: e.terminalTotalDifficultyPassed || undefined,
    ...networkUpgradesJson(config.upgrades),
    feeConfig: feeConfigJson(config.feeConfig),
    allowFeeRecipients: config.allowFeeRecipients || undefined,
    initialMinDelayMS: config.initialMinDelayMS === 0n ? undefined : config.initialMinDelayMS,
    ...((options.genesisPrecompiles ?? config.genesisPrecompiles) as Record<string, GoJson>),
  }
  const present = Object.fromEntries(Object.entries(flat).filter(([, v]) => v !== undefined)) as Record<string, GoJson>
  const u = options.upgradeConfig ?? {}
  const upgrades: GoObject = {
    networkUpgradeOverrides: u.networkUpgradeOverrides && networkUpgradesJson(u.networkUpgradeOverrides),
    stateUpgrades: u.stateUpgrades?.length ? u.stateUpgrades : undefined,
    precompileUpgrades: u.precompileUpgrades?.length ? u.precompileUpgrades : undefined,
  }
  return { ...sortedKeys(present), upgrades }
}

/** libevm's Rules as Go marshals the struct: field names as written in Go. */
export function ethRulesJson(r: EthRules): GoObject {
  return {
    ChainID: r.chainId,
    IsHomestead: r.isHomestead,
    IsEIP150: r.isEIP150,
    IsEIP155: r.isEIP155,
    IsEIP158: r.isEIP158,
    IsByzantium: r.isByzantium,
    IsConstantinople: r.isConstantinople,
    IsPetersburg: r.isPetersburg,
    IsIstanbul: r.isIstanbul,
    IsBerlin: r.isBerlin,
    IsLondon: r.isLondon,
    IsMerge: r.isMerge,
    IsShanghai: r.isShanghai,
    IsCancun: r.isCancun,
    IsPrague: r.isPrague,
    IsVerkle: r.isVerkle,
  }
}

/** subnet-evm's AvalancheRules as Go marshals the struct. */
export function avalancheRulesJson(r: AvalancheRules): GoObject {
  return { IsSubnetEVM: r.isSubnetEVM, IsDurango: r.isDurango, IsEtna: r.isEtna, IsFortuna: r.isFortuna, IsGranite: r.isGranite, IsHelicon: r.isHelicon }
}

/**
 * eth_getActiveRulesAt's answer at `time` (seconds; the method's default is the head block's
 * time): the geth rules of block 0 at that time, the Avalanche rules, and each precompile active
 * then (enabled, not disabled) with the timestamp of the config that enabled it, by module key.
 */
export function activeRulesAnswer(config: SubnetEvmChainConfig, time: bigint, activePrecompiles: readonly { key: string; timestamp: bigint }[]): GoObject {
  const precompiles: Record<string, GoJson> = {}
  for (const p of activePrecompiles) precompiles[p.key] = { timestamp: p.timestamp }
  return {
    ethRules: ethRulesJson(ethRulesAt(config, 0n, time)),
    avalancheRules: avalancheRulesJson(upgradesAt(config.upgrades, time)),
    precompiles: sortedKeys(precompiles),
  }
}

/** eth_feeConfig's answer (FeeConfigResult): lastChangedAt left out when nil (before SubnetEVM). */
export function feeConfigAnswer(at: FeeConfigAt): GoObject {
  return { feeConfig: feeConfigJson(at.feeConfig), lastChangedAt: at.lastChangedAt }
}

/** eth_getActivePrecompilesAt's answer: the active precompiles' configs as their modules marshal them, keys sorted (a Go map). */
export function activePrecompilesAnswer(configs: Readonly<Record<string, GoJson>>): Record<string, GoJson> {
  return sortedKeys(configs)
}

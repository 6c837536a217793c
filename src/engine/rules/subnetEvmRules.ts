import { bytesToUnprefixedHex } from '@ethereumjs/util'
import { type SubnetEvmChainConfig, parseChainConfig } from '../../subnetevm/chainConfig.js'
import { type CoinbaseRule, coinbaseAt } from '../../subnetevm/coinbaseAt.js'
import { type FeeConfigAt, feeConfigAt } from '../../subnetevm/feeConfigAt.js'
import { genesisHeaderFields, headerFieldsAt } from '../../subnetevm/headerLayout.js'
import { parseGenesisPrecompiles, parsePrecompileUpgrades } from '../../subnetevm/precompiles/config.js'
import { getFeeConfigLastChangedAt, getStoredFeeConfig } from '../../subnetevm/precompiles/feeManager.js'
import { BLACKHOLE_ADDRESS, moduleOfKey, type PrecompileKey, type StatefulPrecompileKey } from '../../subnetevm/precompiles/modules.js'
import { getStoredRewardAddress } from '../../subnetevm/precompiles/rewardManager.js'
import { enabledPrecompiles, isPrecompileEnabled } from '../../subnetevm/precompiles/schedule.js'
import type { PrecompileState } from '../../subnetevm/precompiles/state.js'
import { type PrecompileSchedule, verifyPrecompileUpgrades } from '../../subnetevm/precompiles/verifyConfig.js'
import { type AvalancheRules, isForked, upgradesAt } from '../../subnetevm/upgradesAt.js'
import { type AvalancheUpgradeTimes, avalancheUpgradeTimes } from '../../subnetevm/networkUpgrades.js'
import { heliconTimeOf } from './genesis.js'
import type { GoJson } from '../../subnetevm/goJson.js'
import { precompileConfigJson } from '../../subnetevm/precompileConfigJson.js'
import { type StateUpgrade, parseStateUpgrades } from '../../subnetevm/stateUpgrades.js'

/** How a subnet-evm chain's rules are read besides its genesis config and upgrade file. */
export interface SubnetEvmOptions {
  networkId: number
  /** The genesis header's gas limit, which must be the fee config's (left out: not checked). */
  genesisGasLimit?: bigint
  /** avalanchego's upgrade times in place of the network's (subnet-evm's own test configs: every upgrade at 0). */
  upgradeTimes?: AvalancheUpgradeTimes
  /** Chain config `feeRecipient`. */
  etherbase?: Uint8Array
}

/** What a subnet-evm chain's next block follows from its parent's state: the fee config and who gets the fees. */
export interface SubnetEvmHeadRules {
  fee: FeeConfigAt
  coinbase: CoinbaseRule
}

/**
 * A subnet-evm chain's rules (docs/L1.md): its chain config (upgrades, fee config, fee recipients)
 * and the stateful precompiles' schedule from the genesis and upgrade.json. Built from the genesis
 * file's `config` as written; throws with subnet-evm's error texts for a config it refuses.
 */
export class SubnetEvmRules {
  private constructor(
    readonly config: SubnetEvmChainConfig,
    readonly schedule: PrecompileSchedule,
    /** The upgrade file as written, for eth_getChainConfig's `upgrades`. */
    readonly upgradeJson: Readonly<Record<string, unknown>> | undefined,
    /** upgrade.json's stateUpgrades. */
    readonly stateUpgrades: readonly StateUpgrade[],
    /** The coinbase of the blocks this node builds where fee recipients are allowed (chain config `feeRecipient`; the blackhole without it). */
    readonly etherbase: Uint8Array,
  ) {}

  /** `genesisConfig`: the genesis file's `config`; `upgrade`: its upgrade.json (or undefined). */
  static parse(genesisConfig: unknown, upgrade: unknown, opts: SubnetEvmOptions): SubnetEvmRules {
    const { networkId, genesisGasLimit } = opts
    // Helicon (a flag in subnet-evm) when the node's C-Chain has it: from genesis on a local network (avalanchego v1.15.1).
    const upgradeTimes = opts.upgradeTimes ?? { ...avalancheUpgradeTimes(networkId), helicon: BigInt(heliconTimeOf(networkId, true)) }
    const config = parseChainConfig(genesisConfig, { upgradeTimes, genesisGasLimit })
    const upgradeJson = upgrade === undefined || upgrade === null ? undefined : (upgrade as Record<string, unknown>)
    // What the node does not apply yet is refused rather than left out (docs/L1.md, "Not yet").
    if (upgradeJson?.networkUpgradeOverrides !== undefined) throw new Error('upgrade.json: networkUpgradeOverrides is not supported by this node yet (precompileUpgrades and stateUpgrades are)')
    const stateUpgrades = upgradeJson?.stateUpgrades === undefined ? [] : parseStateUpgrades(upgradeJson.stateUpgrades)
    const schedule: PrecompileSchedule = {
      genesis: parseGenesisPrecompiles(genesisConfig as Record<string, unknown>),
      upgrades: upgradeJson?.precompileUpgrades === undefined ? [] : parsePrecompileUpgrades(upgradeJson.precompileUpgrades),
    }
    const invalid = verifyPrecompileUpgrades(schedule, (t) => isForked(config.upgrades.durangoTimestamp, t))
    if (invalid !== undefined) throw new Error(`invalid precompile upgrades: ${invalid}`)
    return new SubnetEvmRules(config, schedule, upgradeJson, stateUpgrades, opts.etherbase ?? BLACKHOLE_ADDRESS)
  }

  upgradesAt(time: bigint): AvalancheRules {
    return upgradesAt(this.config.upgrades, time)
  }

  /** How many of subnet-evm's optional header fields a block has (block.ts Header.subnetEvmFields). */
  headerFieldCount(number: bigint, time: bigint, genesisBaseFee?: bigint): number {
    return (number === 0n ? genesisHeaderFields(this.config, time, genesisBaseFee) : headerFieldsAt(this.config, number, time)).length
  }

  isEnabled(key: PrecompileKey, time: bigint): boolean {
    return isPrecompileEnabled(this.schedule, key, time)
  }

  /** statefulAt's last answer: every precompile call of a block asks at the block's time. */
  private lastStateful?: { time: bigint; enabled: ReadonlyMap<string, StatefulPrecompileKey> }

  /** The stateful precompiles enabled at `time`, by address (hex without 0x), Warp left out (the node runs it as the C-Chain's). */
  statefulAt(time: bigint): ReadonlyMap<string, StatefulPrecompileKey> {
    if (this.lastStateful?.time === time) return this.lastStateful.enabled
    const enabled = new Map<string, StatefulPrecompileKey>()
    for (const key of enabledPrecompiles(this.schedule, time).keys()) {
      if (key !== 'warpConfig') enabled.set(bytesToUnprefixedHex(moduleOfKey(key)!.address), key)
    }
    this.lastStateful = { time, enabled }
    return enabled
  }

  /** Every stateful precompile the schedule ever enables, by address: the VM registers them all and asks statefulAt per block. */
  scheduledStateful(): Map<string, StatefulPrecompileKey> {
    const out = new Map<string, StatefulPrecompileKey>()
    for (const c of [...this.schedule.genesis, ...this.schedule.upgrades]) {
      if (c.key !== 'warpConfig' && !c.disable) out.set(bytesToUnprefixedHex(moduleOfKey(c.key)!.address), c.key)
    }
    return out
  }

  /** Whether the schedule enables `key` at any time. */
  everEnables(key: PrecompileKey): boolean {
    return [...this.schedule.genesis, ...this.schedule.upgrades].some((c) => c.key === key && !c.disable && c.blockTimestamp !== undefined)
  }

  /** The precompiles enabled at `time`, each with its config as subnet-evm marshals it and the time it took effect. */
  enabledConfigs(time: bigint): { key: PrecompileKey; timestamp: bigint; json: GoJson }[] {
    return [...enabledPrecompiles(this.schedule, time).entries()].map(([key, config]) => ({ key, timestamp: config.blockTimestamp ?? 0n, json: precompileConfigJson(config) }))
  }

  /** The genesis' precompile configs by key, and upgrade.json's precompileUpgrades, as subnet-evm marshals them (eth_getChainConfig). */
  configsJson(): { genesis: Record<string, GoJson>; upgrades: GoJson[] } {
    return {
      genesis: Object.fromEntries(this.schedule.genesis.map((c) => [c.key, precompileConfigJson(c)])),
      upgrades: this.schedule.upgrades.map((c) => ({ [c.key]: precompileConfigJson(c) })),
    }
  }

  /** The fee config and coinbase rule of a child of a block at `parentTime`, read from that block's state. */
  async headRules(state: PrecompileState, parentTime: bigint): Promise<SubnetEvmHeadRules> {
    const stored = this.isEnabled('feeManagerConfig', parentTime) ? { feeConfig: await getStoredFeeConfig(state), lastChangedAt: await getFeeConfigLastChangedAt(state) } : undefined
    const reward = this.isEnabled('rewardManagerConfig', parentTime) ? await getStoredRewardAddress(state) : undefined
    return { fee: feeConfigAt(this.config, parentTime, stored), coinbase: coinbaseAt(this.config, parentTime, reward) }
  }
}

import { z } from 'zod'
import type { Engine } from '../../engine/engine.js'
import type { SubnetEvmRules } from '../../engine/rules/subnetEvmRules.js'
import { precompileReader } from '../../engine/state/precompileState.js'
import { RawJson } from '../../rpc/rawJson.js'
import { BlockRef } from '../../rpc/schemas.js'
import { type MethodTable, inService, method } from '../../rpc/types.js'
import { type GoJson, goJsonStringify } from '../../subnetevm/goJson.js'
import { activePrecompilesAnswer, activeRulesAnswer, chainConfigAnswer, feeConfigAnswer } from '../../subnetevm/rpcShapes.js'

/** A `*uint64` timestamp as Go's JSON decodes it: a plain number; absent or null = the head's time. */
const Timestamp = z.union([z.number().int().nonnegative(), z.null()]).optional()

/**
 * A subnet-evm chain's own `eth_` methods (subnet-evm internal/ethapi/api_extra.go, docs/L1.md):
 * its chain config in subnet-evm's form, the rules and precompiles active at a time, and the fee
 * config at a block. Answers are Go's JSON (numbers past 2^53 exact).
 */
export function subnetEvmMethods(engine: Engine, rules: SubnetEvmRules): MethodTable {
  const json = (value: GoJson) => new RawJson(goJsonStringify(value))
  const timeOf = (t: number | null | undefined) => (t === undefined || t === null ? engine.head.header.timestamp : BigInt(t))
  const configs = rules.configsJson()
  const chainConfig = json(
    chainConfigAnswer(rules.config, {
      genesisPrecompiles: configs.genesis,
      upgradeConfig: { precompileUpgrades: configs.upgrades, stateUpgrades: (rules.upgradeJson?.stateUpgrades ?? []) as GoJson[] },
    }),
  )
  return inService('internal-blockchain', {
    /** Handler for `eth_getChainConfig`: subnet-evm's config, its upgrade bytes under `upgrades`. */
    eth_getChainConfig: method(z.tuple([]), () => chainConfig),
    /** Handler for `eth_getActiveRulesAt`: geth's and Avalanche's rules and the precompiles active at a time. */
    eth_getActiveRulesAt: method(z.tuple([Timestamp]), ([t]) => {
      const time = timeOf(t)
      return json(activeRulesAnswer(rules.config, time, rules.enabledConfigs(time)))
    }),
    /** Handler for `eth_getActivePrecompilesAt` (deprecated in subnet-evm for eth_getActiveRulesAt, still served): the active configs by key. */
    eth_getActivePrecompilesAt: method(z.tuple([Timestamp]), ([t]) => json(activePrecompilesAnswer(Object.fromEntries(rules.enabledConfigs(timeOf(t)).map((c) => [c.key, c.json as GoJson]))))),
    /** Handler for `eth_feeConfig`: the fee config a child of the block is built with, and the block the fee manager last changed it at. */
    eth_feeConfig: method(z.tuple([BlockRef.optional()]), async ([ref]) => {
      const block = engine.resolveBlock(ref ?? 'latest')
      const head = await rules.headRules(precompileReader(engine.readerAt(block)), block.header.timestamp)
      return json(feeConfigAnswer(head.fee))
    }),
  })
}

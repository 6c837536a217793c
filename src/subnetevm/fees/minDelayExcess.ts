/**
 * The ACP-226 minimum block delay excess of a Granite header (subnet-evm
 * plugin/evm/customheader/min_delay_excess.go; avalanchego vms/evm/acp226/acp226.go): the
 * parent's excess, or 7,970,124 (≈ 2000 ms) when the parent is from before Granite, moved by at
 * most 200 toward the builder's desired excess (config `min-delay-target`) when it has one.
 * The delay itself, e^(excess / 2^20) ms, is ACP-226's Delay, which callers pass in where needed.
 */
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { isForked } from '../upgradesAt.js'

/** The excess of the first Granite block, D · ln(2000) + 1: a 2000 ms delay (acp226.go InitialDelayExcess). */
export const INITIAL_DELAY_EXCESS = 7_970_124n
/** Delay(INITIAL_DELAY_EXCESS) in ms; also the most a genesis' initialMinDelayMS may ask (extras/config.go Verify). */
export const INITIAL_DELAY_MS = 2000n
/** The most the excess moves per block (acp226.go MaxDelayExcessDiff). */
export const MAX_DELAY_EXCESS_DIFF = 200n

type Upgrades = Pick<NetworkUpgrades, 'graniteTimestamp'>

/** `excess` moved toward `desired` by at most 200 (acp226.go UpdateDelayExcess). */
export function updateDelayExcess(excess: bigint, desired: bigint): bigint {
  const diff = excess > desired ? excess - desired : desired - excess
  const change = diff < MAX_DELAY_EXCESS_DIFF ? diff : MAX_DELAY_EXCESS_DIFF
  return excess < desired ? excess + change : excess - change
}

/** The excess a Granite child starts from and moves (min_delay_excess.go minDelayExcess). */
function childExcess(upgrades: Upgrades, parent: { timestamp: bigint; minDelayExcess?: bigint }, desired: bigint | undefined): bigint {
  let excess = INITIAL_DELAY_EXCESS
  if (isForked(upgrades.graniteTimestamp, parent.timestamp)) {
    if (parent.minDelayExcess === undefined) throw new SubnetEvmRuleError('errParentMinDelayExcessNil', 'parent min delay excess should not be nil')
    excess = parent.minDelayExcess
  }
  return desired === undefined ? excess : updateDelayExcess(excess, desired)
}

/**
 * The minDelayExcess of a child at `timestamp` (seconds); undefined before Granite
 * (min_delay_excess.go MinDelayExcess). `desired`: the builder's target excess, if any.
 */
export function minDelayExcess(upgrades: Upgrades, parent: { timestamp: bigint; minDelayExcess?: bigint }, timestamp: bigint, desired?: bigint): bigint | undefined {
  if (!isForked(upgrades.graniteTimestamp, timestamp)) return undefined
  try {
    return childExcess(upgrades, parent, desired)
  } catch (err) {
    if (err instanceof SubnetEvmRuleError) throw new SubnetEvmRuleError(err.code, `calculating min delay excess: ${err.message}`)
    throw err
  }
}

/**
 * Throws unless a Granite header's minDelayExcess is one its builder could have reached from the
 * parent's, i.e. within 200 of it (min_delay_excess.go VerifyMinDelayExcess).
 */
export function verifyMinDelayExcess(upgrades: Upgrades, parent: { timestamp: bigint; minDelayExcess?: bigint }, header: { timestamp: bigint; minDelayExcess?: bigint }): void {
  if (!isForked(upgrades.graniteTimestamp, header.timestamp)) return
  const remote = header.minDelayExcess
  if (remote === undefined) throw new SubnetEvmRuleError('errRemoteMinDelayExcessNil', 'remote min delay excess should not be nil')
  let expected: bigint
  try {
    expected = childExcess(upgrades, parent, remote)
  } catch (err) {
    if (err instanceof SubnetEvmRuleError) throw new SubnetEvmRuleError(err.code, `calculating expected min delay excess: ${err.message}`)
    throw err
  }
  if (remote !== expected) throw new SubnetEvmRuleError('errIncorrectMinDelayExcess', `incorrect min delay excess: expected ${expected}, found ${remote}`)
}

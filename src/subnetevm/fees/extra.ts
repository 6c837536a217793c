/**
 * A subnet-evm header's extraData (subnet-evm plugin/evm/customheader/extra.go, miner/worker.go
 * commit): from SubnetEVM the 80-byte fee window of the block, then from Durango the block's
 * predicate results (codec v0; 6 bytes when no transaction has a predicate). Before SubnetEVM at
 * most 64 bytes; SubnetEVM exactly 80; Durango at least 80.
 */
import { encodePredicateResults } from '../../warp/predicateResults.js'
import type { NetworkUpgrades } from '../networkUpgrades.js'
import { SubnetEvmRuleError } from '../ruleError.js'
import { type AvalancheRules, isForked } from '../upgradesAt.js'
import { childFeeWindow } from './baseFee.js'
import { WINDOW_SIZE, windowBytes } from './feeWindow.js'
import type { ParentHeader } from './parentHeader.js'

/** Most bytes of extraData before SubnetEVM (extra.go maximumExtraDataSize). */
export const MAXIMUM_EXTRA_DATA_SIZE = 64

type Upgrades = Pick<NetworkUpgrades, 'subnetEVMTimestamp'>
type WindowParent = Pick<ParentHeader, 'number' | 'timestamp' | 'gasUsed' | 'extraData'>

function wrap(err: unknown, context: string): unknown {
  return err instanceof SubnetEvmRuleError ? new SubnetEvmRuleError(err.code, `${context}: ${err.message}`) : err
}

/** The fee window bytes a child at `timestamp` (seconds) starts its extraData with; undefined before SubnetEVM (extra.go ExtraPrefix). */
export function extraPrefix(upgrades: Upgrades, parent: WindowParent, timestamp: bigint): Uint8Array | undefined {
  if (!isForked(upgrades.subnetEVMTimestamp, timestamp)) return undefined
  try {
    return windowBytes(childFeeWindow(upgrades, parent, timestamp))
  } catch (err) {
    throw wrap(err, 'failed to calculate fee window')
  }
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')
}

/** Throws unless the header's extraData starts with the expected fee window (extra.go VerifyExtraPrefix). */
export function verifyExtraPrefix(upgrades: Upgrades, parent: WindowParent, header: { timestamp: bigint; extraData: Uint8Array }): void {
  if (!isForked(upgrades.subnetEVMTimestamp, header.timestamp)) return
  let expected: Uint8Array
  try {
    expected = windowBytes(childFeeWindow(upgrades, parent, header.timestamp))
  } catch (err) {
    throw wrap(err, 'calculating expected fee window')
  }
  const extra = header.extraData
  if (extra.length < expected.length || expected.some((b, i) => extra[i] !== b)) {
    throw new SubnetEvmRuleError('errInvalidExtraPrefix', `invalid header.Extra prefix: expected ${toHex(expected)} as prefix, found ${toHex(extra)}`)
  }
}

/** Throws unless the extraData's length fits the rules at the header's time (extra.go VerifyExtra). */
export function verifyExtra(rules: Pick<AvalancheRules, 'isSubnetEVM' | 'isDurango'>, extra: Uint8Array): void {
  const fail = (text: string) => new SubnetEvmRuleError('errInvalidExtraLength', `invalid header.Extra length: ${text} but got ${extra.length}`)
  if (rules.isDurango) {
    if (extra.length < WINDOW_SIZE) throw fail(`expected >= ${WINDOW_SIZE}`)
  } else if (rules.isSubnetEVM) {
    if (extra.length !== WINDOW_SIZE) throw fail(`expected ${WINDOW_SIZE}`)
  } else if (extra.length > MAXIMUM_EXTRA_DATA_SIZE) {
    throw fail(`expected <= ${MAXIMUM_EXTRA_DATA_SIZE}`)
  }
}

/** The predicate results after the fee window; undefined when there are none (extra.go PredicateBytesFromExtra). */
export function predicateBytesFromExtra(extra: Uint8Array): Uint8Array | undefined {
  return extra.length <= WINDOW_SIZE ? undefined : extra.subarray(WINDOW_SIZE)
}

/** The first 80 bytes of `extra` (zero-padded when shorter) followed by `predicateBytes` (extra.go SetPredicateBytesInExtra). */
export function setPredicateBytesInExtra(extra: Uint8Array | undefined, predicateBytes: Uint8Array | undefined): Uint8Array {
  const out = new Uint8Array(WINDOW_SIZE + (predicateBytes?.length ?? 0))
  out.set((extra ?? new Uint8Array()).subarray(0, WINDOW_SIZE))
  if (predicateBytes) out.set(predicateBytes, WINDOW_SIZE)
  return out
}

/**
 * The extraData a builder writes for a child at `timestamp` (seconds): the fee window, then from
 * Durango the predicate results, `predicateResults` or the empty results' 6 bytes (worker.go
 * commit, consensus/dummy FinalizeAndAssemble). Before SubnetEVM: empty.
 */
export function builtExtra(upgrades: Pick<NetworkUpgrades, 'subnetEVMTimestamp' | 'durangoTimestamp'>, parent: WindowParent, timestamp: bigint, predicateResults?: Uint8Array): Uint8Array {
  const prefix = extraPrefix(upgrades, parent, timestamp) ?? new Uint8Array()
  if (!isForked(upgrades.durangoTimestamp, timestamp)) return prefix
  const results = predicateResults ?? encodePredicateResults(new Map())
  const out = new Uint8Array(prefix.length + results.length)
  out.set(prefix)
  out.set(results, prefix.length)
  return out
}

/**
 * subnet-evm's dynamic fee window (subnet-evm plugin/evm/upgrade/subnetevm/window.go): the gas used
 * in each of the last 10 seconds, oldest first, kept in the first 80 bytes of a header's extraData
 * as ten big-endian uint64s. Sums and additions saturate at 2^64 − 1. Windows are never mutated.
 */
import { SubnetEvmRuleError } from '../ruleError.js'

/** Seconds of gas use the window tracks (window.go WindowLen). */
export const WINDOW_LEN = 10
/** Bytes of the window in extraData (window.go WindowSize). */
export const WINDOW_SIZE = 8 * WINDOW_LEN

const MAX_UINT64 = (1n << 64n) - 1n

/** Ten uint64s; index 0 the oldest second, index 9 the current one. */
export type FeeWindow = readonly bigint[]

/** The empty window, of a block after genesis or the first SubnetEVM block. */
export function emptyWindow(): FeeWindow {
  return Array.from({ length: WINDOW_LEN }, () => 0n)
}

/** Reads the window from the start of `extra`; later bytes (predicate results) are ignored (window.go ParseWindow). */
export function parseWindow(extra: Uint8Array): FeeWindow {
  if (extra.length < WINDOW_SIZE) {
    throw new SubnetEvmRuleError('ErrWindowInsufficientLength', `insufficient length for window: expected at least ${WINDOW_SIZE} bytes but got ${extra.length} bytes`)
  }
  const view = new DataView(extra.buffer, extra.byteOffset, WINDOW_SIZE)
  return Array.from({ length: WINDOW_LEN }, (_, i) => view.getBigUint64(i * 8))
}

/** The window's 80 bytes (window.go Bytes). */
export function windowBytes(window: FeeWindow): Uint8Array {
  const out = new Uint8Array(WINDOW_SIZE)
  const view = new DataView(out.buffer)
  for (let i = 0; i < WINDOW_LEN; i++) view.setBigUint64(i * 8, window[i]!)
  return out
}

function saturatingAdd(sum: bigint, values: readonly bigint[]): bigint {
  for (const v of values) {
    sum += v
    if (sum > MAX_UINT64) return MAX_UINT64
  }
  return sum
}

/** `amounts` added to the current (last) second, saturating (window.go Add). */
export function addToWindow(window: FeeWindow, ...amounts: bigint[]): FeeWindow {
  const out = [...window]
  out[WINDOW_LEN - 1] = saturatingAdd(out[WINDOW_LEN - 1]!, amounts)
  return out
}

/** The window `n` seconds later: the oldest `n` entries dropped, `n` empty ones added (window.go Shift). */
export function shiftWindow(window: FeeWindow, n: bigint): FeeWindow {
  if (n >= BigInt(WINDOW_LEN)) return emptyWindow()
  const k = Number(n)
  return [...window.slice(k), ...Array.from({ length: k }, () => 0n)]
}

/** The gas of the whole window, saturating at 2^64 − 1 (window.go Sum). */
export function windowSum(window: FeeWindow): bigint {
  return saturatingAdd(0n, window)
}

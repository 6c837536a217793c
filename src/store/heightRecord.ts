/**
 * A value that records what a block at some height accepted: height(u64 BE) ‖ bytes. The accepted
 * atomic txs and the sent Warp messages are kept so, each under its own key prefix.
 */

export interface HeightRecord {
  height: bigint
  bytes: Uint8Array
}

export function encodeHeightRecord(height: bigint, bytes: Uint8Array): Uint8Array {
  const value = new Uint8Array(8 + bytes.length)
  new DataView(value.buffer).setBigUint64(0, height)
  value.set(bytes, 8)
  return value
}

export function decodeHeightRecord(value: Uint8Array): HeightRecord {
  return { height: new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0), bytes: new Uint8Array(value.subarray(8)) }
}

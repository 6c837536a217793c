import { type CodecReader, marshal, unmarshal } from '../avalanche/codec.js'
import { CodecError } from '../avalanche/errors.js'

/*
 * The payloads of a Warp message (avalanchego vms/platformvm/warp/payload): an AddressedCall (a
 * contract's message: sendWarpMessage) or a Hash (a block hash: warp_getBlockSignature), codec v0
 * with a u32 type ID, at most 24 KiB.
 */

/** payload.MaxMessageSize. */
export const MAX_PAYLOAD_SIZE = 24 * 1024
const HASH = 0
const ADDRESSED_CALL = 1

export type WarpPayload = { kind: 'hash'; hash: Uint8Array } | { kind: 'addressedCall'; sourceAddress: Uint8Array; payload: Uint8Array }

/** An AddressedCall from `sourceAddress` (20 bytes for an EVM caller) carrying `payload`. */
export function encodeAddressedCall(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  return marshal((w) => w.u32(ADDRESSED_CALL).bytesU32(sourceAddress).bytesU32(payload), MAX_PAYLOAD_SIZE)
}

/** A Hash payload (38 bytes). */
export function encodeHashPayload(hash: Uint8Array): Uint8Array {
  return marshal((w) => w.u32(HASH).fixed(hash, 32), MAX_PAYLOAD_SIZE)
}

export function decodePayload(bytes: Uint8Array): WarpPayload {
  return unmarshal(
    bytes,
    (r: CodecReader): WarpPayload => {
      const typeID = r.u32()
      if (typeID === HASH) return { kind: 'hash', hash: r.fixed(32) }
      if (typeID === ADDRESSED_CALL) return { kind: 'addressedCall', sourceAddress: r.bytesU32(), payload: r.bytesU32() }
      throw new CodecError(`couldn't unmarshal interface: unknown type ID ${typeID}`)
    },
    MAX_PAYLOAD_SIZE,
  )
}

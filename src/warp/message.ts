import { type CodecReader, CodecWriter, unmarshal } from '../avalanche/codec.js'
import { CodecError } from '../avalanche/errors.js'
import { sha256 } from '../util/crypto.js'

/*
 * Avalanche Warp messages as avalanchego encodes them (vms/platformvm/warp: codec v0, big-endian,
 * `[]byte` = u32 length + bytes): the unsigned message a chain emits, and the signed message that
 * carries a BitSetSignature after it. docs/WARP.md gives the layouts.
 */

/** The warp codec has no size limit of its own (avalanchego: math.MaxInt); JavaScript's byte arrays do. */
const WARP_MAX_SIZE = Number.MAX_SAFE_INTEGER
/** BitSetSignature's type ID, the only Signature the codec registers. */
const BIT_SET_SIGNATURE = 0
/** A BLS signature, compressed (G2). */
export const SIGNATURE_LENGTH = 96

export interface UnsignedMessage {
  networkID: number
  /** 32 bytes: the blockchain ID of the chain that emitted it. */
  sourceChainID: Uint8Array
  /** The payload's codec bytes (an AddressedCall or a Hash: payload.ts). */
  payload: Uint8Array
}

export interface BitSetSignature {
  /** Big-endian bitset: bit i = validator i of the canonical set signed. */
  signers: Uint8Array
  /** 96 bytes: the aggregate BLS signature. */
  signature: Uint8Array
}

export interface SignedMessage {
  unsigned: UnsignedMessage
  signature: BitSetSignature
}

function writeUnsigned(w: CodecWriter, m: UnsignedMessage): void {
  w.u32(m.networkID).fixed(m.sourceChainID, 32).bytesU32(m.payload)
}

function readUnsigned(r: CodecReader): UnsignedMessage {
  return { networkID: r.u32(), sourceChainID: r.fixed(32), payload: r.bytesU32() }
}

/** The unsigned message's bytes: what is signed, and what its ID hashes. */
export function encodeUnsignedMessage(m: UnsignedMessage): Uint8Array {
  const w = new CodecWriter(WARP_MAX_SIZE).u16(0)
  writeUnsigned(w, m)
  return w.finish()
}

export function decodeUnsignedMessage(bytes: Uint8Array): UnsignedMessage {
  return unmarshal(bytes, readUnsigned, WARP_MAX_SIZE)
}

/** The message's ID: SHA-256 of its unsigned bytes (avalanchego hashing.ComputeHash256Array). */
export function messageID(unsignedBytes: Uint8Array): Uint8Array {
  return sha256(unsignedBytes)
}

/** The signed message: the unsigned message's fields under one codec version, then the signature. */
export function encodeSignedMessage(m: SignedMessage): Uint8Array {
  const w = new CodecWriter(WARP_MAX_SIZE).u16(0)
  writeUnsigned(w, m.unsigned)
  w.u32(BIT_SET_SIGNATURE).bytesU32(m.signature.signers).fixed(m.signature.signature, SIGNATURE_LENGTH)
  return w.finish()
}

export function decodeSignedMessage(bytes: Uint8Array): SignedMessage {
  return unmarshal(
    bytes,
    (r) => {
      const unsigned = readUnsigned(r)
      const typeID = r.u32()
      if (typeID !== BIT_SET_SIGNATURE) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${typeID}`)
      return { unsigned, signature: { signers: r.bytesU32(), signature: r.fixed(SIGNATURE_LENGTH) } }
    },
    WARP_MAX_SIZE,
  )
}

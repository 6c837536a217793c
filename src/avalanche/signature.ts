/**
 * secp256k1 as avalanchego's utils/crypto/secp256k1 uses it: 65-byte r ‖ s ‖ v signatures, low-S enforced,
 * short addresses ripemd160(sha256(compressed key)), EVM addresses keccak256(uncompressed key)[12:].
 */
import { createHash } from 'node:crypto'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { keccak256, nativeSecp } from '../util/crypto.js'
import { SignatureError } from './errors.js'

/** The curve order n. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HALF_N = SECP256K1_N >> 1n
const SIGNATURE_LEN = 65

function bigFrom(bytes: Uint8Array): bigint {
  return BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'))
}

/**
 * Recovers the 33-byte compressed public key from a 65-byte r ‖ s ‖ v signature over a 32-byte hash,
 * with avalanchego's checks and errors (RecoverPublicKeyFromHash).
 */
export function recoverPublicKey(hash: Uint8Array, sig: Uint8Array): Uint8Array {
  if (sig.length !== SIGNATURE_LEN) throw new SignatureError('invalid signature length')
  const r = bigFrom(sig.subarray(0, 32))
  const s = bigFrom(sig.subarray(32, 64))
  // ModNScalar.SetByteSlice reduces mod n before IsOverHalfOrder.
  if (s % SECP256K1_N > HALF_N) throw new SignatureError('signature was mutated from its original format')
  // decred RecoverCompact takes the code v+27 (a byte, so it wraps) in [27, 34]; bit 2 marks a compressed key.
  const code = (sig[64]! + 27) & 0xff
  if (code < 27 || code > 34 || r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) {
    throw new SignatureError('invalid signature')
  }
  const recid = (code - 27) & 3
  const compressedFlag = ((code - 27) & 4) !== 0
  let pub: Uint8Array
  try {
    pub = nativeSecp
      ? new Uint8Array(nativeSecp.ecdsaRecover(sig.subarray(0, 64), recid, hash, true))
      : secp256k1.recoverPublicKey(Uint8Array.of(recid, ...sig.subarray(0, 64)), hash, { prehash: false })
  } catch {
    throw new SignatureError('invalid signature')
  }
  if (compressedFlag) throw new SignatureError("wasn't expecting a compressed key")
  return pub
}

/** Uncompressed (65-byte, 0x04-prefixed) form of a compressed public key. */
export function decompressPublicKey(compressed: Uint8Array): Uint8Array {
  if (nativeSecp) return new Uint8Array(nativeSecp.publicKeyConvert(compressed, false))
  return secp256k1.Point.fromBytes(compressed).toBytes(false)
}

/** Short address (ids.ShortID): ripemd160(sha256(compressed public key)) (hashing.PubkeyBytesToAddress). */
export function shortAddress(compressedPublicKey: Uint8Array): Uint8Array {
  return ripemd160(createHash('sha256').update(compressedPublicKey).digest())
}

/** EVM address: keccak256(uncompressed key without 0x04)[12:]; takes a compressed or uncompressed key. */
export function ethAddress(publicKey: Uint8Array): Uint8Array {
  const uncompressed = publicKey.length === 33 ? decompressPublicKey(publicKey) : publicKey
  return keccak256(uncompressed.subarray(1)).slice(12)
}

/** EIP-55 checksummed `0x…` form of a 20-byte address (common.Address.Hex()). */
export function toChecksumAddress(address: Uint8Array): string {
  const hex = Buffer.from(address).toString('hex')
  const hash = Buffer.from(keccak256(Buffer.from(hex, 'ascii'))).toString('hex')
  let out = '0x'
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!
  return out
}

/** Who signed: the compressed public key and both address forms. */
export interface Signer {
  publicKey: Uint8Array
  shortAddress: Uint8Array
  ethAddress: Uint8Array
}

/** Recovers a signature's signer with both address forms (UTXO owners use the short one, EVMInputs the EVM one). */
export function recoverSigner(hash: Uint8Array, sig: Uint8Array): Signer {
  const publicKey = recoverPublicKey(hash, sig)
  return { publicKey, shortAddress: shortAddress(publicKey), ethAddress: ethAddress(publicKey) }
}

/** The compressed public key of a 32-byte private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, true)
}

/** Signs a 32-byte hash as avalanchego's SignHash: RFC 6979, low-S, 65 bytes r ‖ s ‖ v with v in {0, 1}. */
export function signHash(privateKey: Uint8Array, hash: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered', lowS: true })
  const out = new Uint8Array(SIGNATURE_LEN)
  out.set(recovered.subarray(1), 0)
  out[64] = recovered[0]!
  return out
}

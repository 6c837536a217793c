import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import type { CustomCrypto } from '@ethereumjs/common'
import { calculateSigRecovery, setLengthLeft } from '@ethereumjs/util'
import { createKeccak } from 'hash-wasm'
import { kzgCrypto } from './kzg.js'

const require = createRequire(import.meta.url)

/** The native libsecp256k1 binding's calls used here and in src/atomic/. */
export interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array
  publicKeyConvert(pub: Uint8Array, compressed: boolean): Uint8Array
}

// The native binding loads its shipped N-API prebuild (linux-x64, darwin-arm64, win32-x64: one
// build for every Node.js version); @noble is the fallback (signature recovery measured about 30x
// slower here). `secp256k1/bindings`, not `secp256k1`: the package's index falls back to elliptic
// by itself, which would hide a prebuild that did not load.
function loadNative<T>(name: string): T | undefined {
  try {
    return require(name) as T
  } catch {
    return undefined
  }
}
/** The native secp256k1 binding, or undefined where its prebuild did not load (callers fall back to @noble). */
export const nativeSecp = loadNative<NativeSecp256k1>('secp256k1/bindings')

/**
 * keccak-256 on hash-wasm's WebAssembly sponge, one instance re-initialised per hash: the node hashes
 * short inputs (trie nodes, keys, addresses, log topics) thousands of times per block, where a call's
 * fixed cost decides. Measured here on 32 and 532 bytes: 2 to 2.5x faster than the keccak package's
 * native sponge (a call through N-API and a new Buffer each) and 3 to 10x faster than @noble/hashes.
 */
const sponge = await createKeccak(256)
export function keccak256(data: Uint8Array): Uint8Array {
  sponge.init()
  sponge.update(data)
  return sponge.digest('binary')
}

/** sha256(bytes), avalanchego's hashing.ComputeHash256. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(bytes).digest())
}

/** Whether the native signature recovery is in use (logged at start). */
export const NATIVE_CRYPTO = { secp256k1: nativeSecp !== undefined }

function nativeEcrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = calculateSigRecovery(v, chainId)
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
  const sig = new Uint8Array(64)
  sig.set(setLengthLeft(r, 32), 0)
  sig.set(setLengthLeft(s, 32), 32)
  return nativeSecp!.ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1)
}

/** Handed to ethereumjs through Common so transactions, the EVM and the trie use the native code. */
export const customCrypto: CustomCrypto = {
  keccak256,
  kzg: kzgCrypto,
  ...(nativeSecp ? { ecrecover: nativeEcrecover } : {}),
}

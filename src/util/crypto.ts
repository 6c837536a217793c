import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import type { CustomCrypto } from '@ethereumjs/common'
import { calculateSigRecovery, setLengthLeft } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'

const require = createRequire(import.meta.url)

/** The native libsecp256k1 binding's calls used here and in src/atomic/. */
export interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array
  publicKeyConvert(pub: Uint8Array, compressed: boolean): Uint8Array
}
type KeccakFactory = (algorithm: 'keccak256') => { update(data: Uint8Array): { digest(): Uint8Array } }

// Native bindings load their shipped linux-x64 prebuilds; the pure-JS libraries are the fallback
// (signature recovery measured about 30x slower here).
function loadNative<T>(name: string): T | undefined {
  try {
    return require(name) as T
  } catch {
    return undefined
  }
}
/** The native secp256k1 binding, or undefined where its prebuild did not load (callers fall back to @noble). */
export const nativeSecp = loadNative<NativeSecp256k1>('secp256k1')
const nativeKeccak = loadNative<KeccakFactory>('keccak')

/** keccak-256, native when the prebuild loaded. */
export const keccak256: (data: Uint8Array) => Uint8Array = nativeKeccak
  ? (data) =>
      nativeKeccak('keccak256')
        .update(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength))
        .digest()
  : (data) => keccak_256(data)

/** sha256(bytes), avalanchego's hashing.ComputeHash256. */
export function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(bytes).digest())
}

/** Whether the native hot paths are in use (logged at start). */
export const NATIVE_CRYPTO = { secp256k1: nativeSecp !== undefined, keccak: nativeKeccak !== undefined }

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
  ...(nativeSecp ? { ecrecover: nativeEcrecover } : {}),
}

import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { CustomCrypto } from '@ethereumjs/common'
import { calculateSigRecovery, setLengthLeft } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'

const require = createRequire(import.meta.url)

/** The native libsecp256k1 binding's calls used here and in src/atomic/. */
export interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array
  publicKeyConvert(pub: Uint8Array, compressed: boolean): Uint8Array
}
/** The keccak package's native sponge (its Keccak class wraps it in a stream, which costs more than the hash). */
interface KeccakState {
  initialize(rate: number, capacity: number): void
  absorb(data: Buffer): void
  absorbLastFewBits(bits: number): void
  squeeze(length: number): Buffer
}

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
const nativeKeccak = loadKeccakState()

/** keccak-256, native when the prebuild loaded (one sponge, re-initialised per hash: about 3x faster than the package's API, measured here). */
export const keccak256: (data: Uint8Array) => Uint8Array = nativeKeccak
  ? (data) => {
      nativeKeccak.initialize(1088, 512)
      nativeKeccak.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      nativeKeccak.absorbLastFewBits(0x01)
      return nativeKeccak.squeeze(32)
    }
  : (data) => keccak_256(data)

function loadKeccakState(): KeccakState | undefined {
  try {
    const dir = dirname(require.resolve('keccak/package.json'))
    const State = createRequire(join(dir, 'index.js'))('node-gyp-build')(dir) as new () => KeccakState
    return new State()
  } catch {
    return undefined
  }
}

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

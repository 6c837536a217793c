import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { BlsSigner } from './warp/bls.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { cb58Encode } from './avalanche/cb58.js'

/** What info.getNodeID answers (avalanchego api/info GetNodeIDReply). */
export interface NodeIdentity {
  /** `NodeID-<CB58 of 20 bytes>`. */
  readonly nodeID: string
  /** BLS public key (48 bytes compressed) and its proof of possession (96 bytes), `0x` hex as avalanchego's HexNC. */
  readonly nodePOP: { readonly publicKey: string; readonly proofOfPossession: string }
}

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex')

/**
 * The node's identity, kept in `<data-dir>/staking/signer.key` (32 raw bytes, the format of
 * avalanchego's BLS signer key; created on first start). avalanchego takes its NodeID from the
 * staking TLS certificate (RIPEMD-160 of SHA-256 of the certificate); this node has no TLS
 * certificate and hashes the BLS public key the same way, so the ID is stable per data dir.
 */
export function loadNodeIdentity(dataDir: string): NodeIdentity {
  const dir = join(dataDir, 'staking')
  const path = join(dir, 'signer.key')
  let secretKey: Uint8Array
  if (existsSync(path)) {
    secretKey = new Uint8Array(readFileSync(path))
    if (secretKey.length !== 32) throw new Error(`${path}: a BLS secret key is 32 bytes, found ${secretKey.length}`)
  } else {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    secretKey = bls12_381.longSignatures.keygen(randomBytes(48)).secretKey
    writeFileSync(path, secretKey, { mode: 0o600 })
    chmodSync(path, 0o600)
  }
  const signer = new BlsSigner(secretKey)
  return {
    nodeID: 'NodeID-' + cb58Encode(ripemd160(sha256(signer.publicKey))),
    nodePOP: { publicKey: hex(signer.publicKey), proofOfPossession: hex(signer.proofOfPossession()) },
  }
}

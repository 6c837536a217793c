import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { BlsSigner } from './warp/bls.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { cb58Encode } from './avalanche/cb58.js'

/** avalanchego's local network (networkID 12345). */
const LOCAL_NETWORK_ID = 12345
/**
 * avalanchego's first local staker (staking/local/signer1.key: 32 ASCII bytes) and its node ID, as
 * genesis/genesis_local.json lists them: on the local network the node is that validator, so its
 * public key, proof of possession and node ID are avalanchego's (docs/WARP.md).
 */
const LOCAL_STAKER1 = { secretKey: new TextEncoder().encode('AvalancheLocalNetworkValidator01'), nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg' }

/** What info.getNodeID answers (avalanchego api/info GetNodeIDReply), and the key that signs the node's Warp messages. */
export interface NodeIdentity {
  /** `NodeID-<CB58 of 20 bytes>`. */
  readonly nodeID: string
  /** BLS public key (48 bytes compressed) and its proof of possession (96 bytes), `0x` hex as avalanchego's HexNC. */
  readonly nodePOP: { readonly publicKey: string; readonly proofOfPossession: string }
  /** The node's BLS key. */
  readonly signer: BlsSigner
}

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex')

/**
 * The node's identity. On the local network: avalanchego's first local staker. Elsewhere: kept in `<data-dir>/staking/signer.key` (32 raw bytes, the format of
 * avalanchego's BLS signer key; created on first start). avalanchego takes its NodeID from the
 * staking TLS certificate (RIPEMD-160 of SHA-256 of the certificate); this node has no TLS
 * certificate and hashes the BLS public key the same way, so the ID is stable per data dir.
 */
export function loadNodeIdentity(dataDir: string, networkID?: number): NodeIdentity {
  if (networkID === LOCAL_NETWORK_ID) return identityOf(new BlsSigner(LOCAL_STAKER1.secretKey), LOCAL_STAKER1.nodeID)
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
  return identityOf(signer, 'NodeID-' + cb58Encode(ripemd160(sha256(signer.publicKey))))
}

function identityOf(signer: BlsSigner, nodeID: string): NodeIdentity {
  return { nodeID, nodePOP: { publicKey: hex(signer.publicKey), proofOfPossession: hex(signer.proofOfPossession()) }, signer }
}

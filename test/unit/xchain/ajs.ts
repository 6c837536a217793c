/** Shared AvalancheJS 5.2.0 plumbing for the X- and P-Chain codec tests (not a test file). */
import { createHash } from 'node:crypto'
import { Utxo, secp256k1, utils } from '@avalabs/avalanchejs'
import type { Context } from '@avalabs/avalanchejs'
import { NETWORKS } from '../../../src/avalanche/networks.js'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { feeConfigJSON } from '../../../src/pchain/fees.js'

export const LOCAL = NETWORKS.local
export const X_ID = cb58Encode(LOCAL.xChainID)
export const P_ID = cb58Encode(LOCAL.pChainID)
export const C_ID = cb58Encode(LOCAL.cChainID)
export const AVAX = cb58Encode(LOCAL.avaxAssetID)

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
export const sha256 = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest())

export const EWOQ_KEY = utils.hexToBuffer('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
/** Deterministic extra keys. */
export const keyN = (n: number): Uint8Array => sha256(Buffer.from(`cchain-node test key ${n}`))
export const addrOf = (key: Uint8Array): Uint8Array => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))
export const EWOQ = addrOf(EWOQ_KEY)
export const txIDN = (n: number): Uint8Array => sha256(Buffer.from(`utxo tx ${n}`))

const fee = feeConfigJSON()
/** What Context.getContextFromURI yields against a local node (fees from avalanchego LocalParams). */
export const context: Context.Context = Object.freeze({
  networkID: LOCAL.networkID,
  hrp: 'local',
  xBlockchainID: X_ID,
  pBlockchainID: P_ID,
  cBlockchainID: C_ID,
  avaxAssetID: AVAX,
  baseTxFee: 1_000_000n,
  createAssetTxFee: 1_000_000n,
  platformFeeConfig: {
    weights: { 0: fee.weights[0]!, 1: fee.weights[1]!, 2: fee.weights[2]!, 3: fee.weights[3]! },
    maxCapacity: BigInt(fee.maxCapacity),
    maxPerSecond: BigInt(fee.maxPerSecond),
    targetPerSecond: BigInt(fee.targetPerSecond),
    minPrice: BigInt(fee.minPrice),
    excessConversionConstant: BigInt(fee.excessConversionConstant),
  },
})

/** Our UTXO bytes, parsed by AvalancheJS's codec of that VM. */
export function toAjsUtxo(vm: 'AVM' | 'PVM', bytes: Uint8Array): Utxo {
  return utils.getManagerForVM(vm).unpack(bytes, Utxo) as Utxo
}

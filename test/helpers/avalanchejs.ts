/** Shared AvalancheJS 5.2.0 plumbing: the local Context, ewoq's key and address as AvalancheJS holds them, hashes. */
import { createHash } from 'node:crypto'
import { Utxo, addTxSignatures, evm, secp256k1, utils, type avaxSerial, type Context } from '@avalabs/avalanchejs'
import { expect } from 'vitest'
import { NETWORKS } from '../../src/avalanche/networks.js'
import { feeConfigJSON } from '../../src/pchain/fees.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_C, EWOQ_KEY as EWOQ_KEY_HEX, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from './constants.js'

export { AVAX }
export const LOCAL = NETWORKS.local
export const X_ID = LOCAL_X
export const P_ID = LOCAL_P
export const C_ID = LOCAL_C

export { hex } from './bytes.js'
export const sha256 = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest())
/** CB58 as AvalancheJS writes it (an ID, a tx ID). */
export const cb58 = (b: Uint8Array): string => utils.base58check.encode(b)

/** ewoq's private key bytes. */
export const EWOQ_KEY = utils.hexToBuffer(EWOQ_KEY_HEX)
/** Deterministic extra keys. */
export const keyN = (n: number): Uint8Array => sha256(Buffer.from(`cchain-node test key ${n}`))
export const addrOf = (key: Uint8Array): Uint8Array => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))
/** ewoq's short address and its EVM address, as bytes. */
export const EWOQ = addrOf(EWOQ_KEY)
export const EWOQ_ETH = utils.hexToBuffer(EWOQ_ADDRESS)
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

/** Polls an EVMApi's getAtomicTxStatus until `txID` is Accepted, at most 20 s. */
export async function waitAtomicAccepted(api: { getAtomicTxStatus(txID: string): Promise<{ status: string }> }, txID: string): Promise<void> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const st = await api.getAtomicTxStatus(txID)
    if (st.status === 'Accepted') return
    if (Date.now() > deadline) throw new Error(`tx ${txID} still ${st.status}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Imports into the C-Chain the UTXO that tx `exportID` of `sourceChain` exported to ewoq (evm.newImportTxFromBaseFee,
 * issued and polled to Accepted); answers the signed tx and ewoq's EVM balance change (wei) as `balance` reads it.
 */
export async function importIntoC(
  capi: InstanceType<typeof evm.EVMApi>,
  ctx: Context.Context,
  sourceChain: 'X' | 'P',
  exportID: string,
  balance: () => Promise<bigint>,
): Promise<{ signed: avaxSerial.SignedTx; credit: bigint }> {
  const { utxos } = await capi.getUTXOs({ addresses: [EWOQ_C], sourceChain })
  const mine = utxos.filter((u) => u.utxoId.txID.toString() === exportID)
  expect(mine).toHaveLength(1)
  const before = await balance()
  const baseFee = ((await capi.getBaseFee()) + NANO - 1n) / NANO
  const importTx = evm.newImportTxFromBaseFee(ctx, EWOQ_ETH, [EWOQ], mine, sourceChain === 'X' ? LOCAL_X : LOCAL_P, baseFee)
  await addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] })
  const signed = importTx.getSignedTx()
  const { txID } = await capi.issueSignedTx(signed)
  await waitAtomicAccepted(capi, txID)
  return { signed, credit: (await balance()) - before }
}

/** Our UTXO bytes, parsed by AvalancheJS's codec of that VM. */
export function toAjsUtxo(vm: 'AVM' | 'PVM', bytes: Uint8Array): Utxo {
  return utils.getManagerForVM(vm).unpack(bytes, Utxo) as Utxo
}

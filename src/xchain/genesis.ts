/**
 * The local X-Chain genesis as far as AVAX goes (avalanchego genesis/genesis.go FromConfig, vms/avm/genesis.go,
 * genesis/genesis_local.json). The genesis holds one CreateAssetTx ("Avalanche"/"AVAX", 9 decimals) whose
 * txID is the AVAX asset ID: sha256 of the genesis-codec bytes `version ‖ typeID 1 ‖ CreateAssetTx ‖ 0 creds`.
 * Its fixed-cap outputs become UTXOs {txID: assetID, outputIndex: i} in their sorted order
 * (InitialState.Sort: by the outputs' codec bytes, i.e. by amount first).
 */
import { parseBech32 } from '../avalanche/address.js'
import { ID_LEN } from '../avalanche/avax.js'
import { marshal } from '../avalanche/codec.js'
import { writeTransferOutput } from '../avalanche/secp256k1fx.js'
import { sha256 } from '../util/crypto.js'
import type { TransferOutput, UTXO } from '../avalanche/types.js'
import { compareBytes } from '../avalanche/compare.js'
import { AVM_TYPE_ID } from './codec.js'

/** One X-Chain allocation of the genesis config (`initialAmount` > 0 only). */
export interface XAllocation {
  /** 20-byte short address */
  avaxAddr: Uint8Array
  /** 20-byte EVM address; its bytes make up the asset's memo */
  ethAddr: Uint8Array
  initialAmount: bigint
}

const hexBytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'))
const bech = (a: string): Uint8Array => parseBech32(a).bytes
const LOCAL_ETH = hexBytes('b3d82b1367d362de99ab59a658165aff520cbd4d')

/** The local network's allocations with an X-Chain amount (genesis_local.json). */
export const LOCAL_X_ALLOCATIONS: readonly XAllocation[] = [
  { avaxAddr: bech('local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'), ethAddr: LOCAL_ETH, initialAmount: 300_000_000_000_000_000n },
  { avaxAddr: bech('local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu'), ethAddr: LOCAL_ETH, initialAmount: 10_000_000_000_000_000n },
]

export const AVAX_NAME = 'Avalanche'
export const AVAX_SYMBOL = 'AVAX'
export const AVAX_DENOMINATION = 9

function holderOutput(a: XAllocation): TransferOutput {
  return { amount: a.initialAmount, locktime: 0n, threshold: 1, addrs: [a.avaxAddr] }
}

function outputBytes(out: TransferOutput): Uint8Array {
  return marshal((w) => {
    w.u32(AVM_TYPE_ID.TransferOutput)
    writeTransferOutput(w, out)
  })
}

/** The genesis CreateAssetTx's outputs in UTXO order. */
export function genesisOutputs(allocations: readonly XAllocation[]): TransferOutput[] {
  return allocations
    .filter((a) => a.initialAmount > 0n)
    .map(holderOutput)
    .sort((a, b) => compareBytes(outputBytes(a), outputBytes(b)))
}

/** Signed-tx bytes of the genesis CreateAssetTx (no credentials), whose sha256 is the AVAX asset ID. */
export function genesisAssetTxBytes(networkID: number, allocations: readonly XAllocation[]): Uint8Array {
  // xAllocations are sorted by (initialAmount, avaxAddr) before their EVM addresses form the memo.
  const sorted = allocations.filter((a) => a.initialAmount > 0n).sort((a, b) => (a.initialAmount < b.initialAmount ? -1 : a.initialAmount > b.initialAmount ? 1 : compareBytes(a.avaxAddr, b.avaxAddr)))
  const memo = Buffer.concat(sorted.map((a) => a.ethAddr))
  const outs = genesisOutputs(allocations)
  return marshal((w) => {
    w.u32(AVM_TYPE_ID.CreateAssetTx)
    w.u32(networkID).fixed(new Uint8Array(ID_LEN), ID_LEN).u32(0).u32(0).bytesU32(memo)
    w.str(AVAX_NAME).str(AVAX_SYMBOL).u8(AVAX_DENOMINATION)
    w.u32(outs.length > 0 ? 1 : 0)
    if (outs.length > 0) {
      w.u32(0) // fxIndex: secp256k1fx
      w.slice(outs, (e, out) => {
        e.u32(AVM_TYPE_ID.TransferOutput)
        writeTransferOutput(e, out)
      })
    }
    w.u32(0) // no credentials
  })
}

/** The AVAX asset ID a genesis yields. */
export function genesisAssetID(networkID: number, allocations: readonly XAllocation[]): Uint8Array {
  return sha256(genesisAssetTxBytes(networkID, allocations))
}

/** The genesis UTXOs of the X-Chain: {txID: asset ID, outputIndex: i}, asset AVAX. */
export function genesisXUTXOs(networkID: number, allocations: readonly XAllocation[]): UTXO[] {
  const assetID = genesisAssetID(networkID, allocations)
  return genesisOutputs(allocations).map((out, i) => ({ utxoID: { txID: assetID, outputIndex: i }, assetID, out }))
}

/** The local network's X-Chain genesis UTXOs (ewoq's 300,000,000 AVAX among them). */
export function localXGenesisUTXOs(): UTXO[] {
  return genesisXUTXOs(12345, LOCAL_X_ALLOCATIONS)
}

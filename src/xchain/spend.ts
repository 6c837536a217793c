/**
 * Coin selection of the X-Chain's keystore wallet (avalanchego: vms/avm/utxo/spender.go Spend and SpendAll):
 * which UTXOs a keychain spends for given amounts per asset, as sorted inputs with their signers.
 */
import { cb58Encode } from '../avalanche/cb58.js'
import { matchOwners, type KeyPair } from '../avalanche/keychain.js'
import { WalletError, payTo } from '../avalanche/wallet.js'
import type { TransferableInput, TransferableOutput, UTXO } from '../avalanche/types.js'
import { compareTransferableInputs } from '../avalanche/compare.js'

const UINT64_MAX = 0xffffffffffffffffn

/** Amounts per asset, keyed by the asset ID's hex. */
export type AssetAmounts = Map<string, bigint>

/** Chosen inputs (sorted) with the keys signing each, and the total spent per asset. */
export interface Spent {
  ins: TransferableInput[]
  signers: Uint8Array[][]
  spent: AssetAmounts
}

export const assetKey = (assetID: Uint8Array): string => Buffer.from(assetID.buffer, assetID.byteOffset, assetID.byteLength).toString('hex')
const assetOf = (key: string): Uint8Array => new Uint8Array(Buffer.from(key, 'hex'))

function sorted(pairs: { input: TransferableInput; signers: Uint8Array[] }[], spent: AssetAmounts): Spent {
  pairs.sort((a, b) => compareTransferableInputs(a.input, b.input))
  return { ins: pairs.map((p) => p.input), signers: pairs.map((p) => p.signers), spent }
}

/**
 * Spend: the UTXOs in order, each taken while its asset's amount is not yet covered and the keys can spend it
 * at `now`. Throws `want to spend <n> of asset <id> but only have <m>` when the keys hold too little.
 */
export function spend(utxos: readonly UTXO[], keys: readonly KeyPair[], amounts: AssetAmounts, now: bigint): Spent {
  const spent: AssetAmounts = new Map()
  const pairs: { input: TransferableInput; signers: Uint8Array[] }[] = []
  for (const u of utxos) {
    const asset = assetKey(u.assetID)
    const have = spent.get(asset) ?? 0n
    if (have >= (amounts.get(asset) ?? 0n)) continue
    const m = matchOwners(u.out, keys, now)
    if (m === undefined) continue
    const total = have + u.out.amount
    if (total > UINT64_MAX) throw new WalletError('spent amount overflows uint64')
    spent.set(asset, total)
    pairs.push({ input: { utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: m.sigIndices } }, signers: m.signers })
  }
  for (const [asset, want] of amounts) {
    const have = spent.get(asset) ?? 0n
    if (have < want) throw new WalletError(`want to spend ${want} of asset ${cb58Encode(assetOf(asset))} but only have ${have}`)
  }
  return sorted(pairs, spent)
}

/** SpendAll: every UTXO the keys can spend at `now`, and the total per asset. */
export function spendAll(utxos: readonly UTXO[], keys: readonly KeyPair[], now: bigint): Spent {
  const spent: AssetAmounts = new Map()
  const pairs: { input: TransferableInput; signers: Uint8Array[] }[] = []
  for (const u of utxos) {
    const m = matchOwners(u.out, keys, now)
    if (m === undefined) continue
    const asset = assetKey(u.assetID)
    const total = (spent.get(asset) ?? 0n) + u.out.amount
    if (total > UINT64_MAX) throw new WalletError('spent amount overflows uint64')
    spent.set(asset, total)
    pairs.push({ input: { utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: m.sigIndices } }, signers: m.signers })
  }
  return sorted(pairs, spent)
}

/** One output to `to` per asset whose amount is positive. */
export function outputsTo(amounts: AssetAmounts, to: Uint8Array): TransferableOutput[] {
  const outs: TransferableOutput[] = []
  for (const [asset, amount] of amounts) if (amount > 0n) outs.push({ assetID: assetOf(asset), out: payTo(amount, to) })
  return outs
}

/** The change of a spend: `spent` beyond `need`, per asset, to `change`. */
export function changeOutputs(spent: AssetAmounts, need: AssetAmounts, change: Uint8Array): TransferableOutput[] {
  const extra: AssetAmounts = new Map()
  for (const [asset, amount] of spent) extra.set(asset, amount - (need.get(asset) ?? 0n))
  return outputsTo(extra, change)
}

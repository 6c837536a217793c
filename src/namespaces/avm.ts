/**
 * The X-Chain's `avm` service at /ext/bc/X (avalanchego vms/avm/service.go) as far as AVAX transfers need it:
 * issueTx, getTx, getTxStatus, getUTXOs (with sourceChain: atomic UTXOs exported to X), getBalance,
 * getAssetDescription, getTxFee. Gorilla transport (avalanchego: utils/json/codec.go).
 */
import { z } from 'zod'
import { cb58DecodeID, cb58Encode } from '../avalanche/cb58.js'
import type { ChainAliases } from '../avalanche/networks.js'
import { APIError, withContext } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { EMPTY_ID, IDArg } from '../rpc/avalancheArgs.js'
import { type MethodTable, method } from '../rpc/types.js'
import { type LedgerWording, ledgerApi } from './ledgerApi.js'
import { parseAVMTx } from '../xchain/tx.js'
import { avmTxJson } from '../xchain/txJson.js'
import { avmTxFeeReply, X_CREATE_ASSET_TX_FEE } from '../xchain/fees.js'
import { AVAX_DENOMINATION, AVAX_NAME, AVAX_SYMBOL } from '../xchain/genesis.js'
import type { XChainService } from '../xchain/service.js'
import { unixNow } from '../util/unixNow.js'

export interface AVMContext {
  readonly x: XChainService
  readonly networkID: number
  readonly chains: ChainAliases
  readonly avaxAssetID: Uint8Array
}

/** avalanchego vms/avm/service.go's texts (GetUTXOs, GetTx) and its JSON txs. */
const AVM_WORDING: LedgerWording = {
  utxoEncodeError: (inputID) => `couldn't encode UTXO ${inputID} as string: `,
  txNotFound: 'not found',
  nilTxID: true,
  txJson: (bytes, formatAddr) => avmTxJson(parseAVMTx(bytes), formatAddr),
}

/** The `avm.*` table. */
export function avmMethods(ctx: AVMContext): MethodTable {
  const xChainID = ctx.chains.xChainID
  const api = ledgerApi({ networkID: ctx.networkID, chains: ctx.chains, chainID: xChainID, ledger: ctx.x, wording: AVM_WORDING })
  const { parseAddr } = api
  const assetByName = (text: string): Uint8Array => (text === AVAX_SYMBOL ? ctx.avaxAssetID : cb58DecodeID(text))
  return {
    /** avm.issueTx {tx, encoding}: verifies and accepts at once; `{txID}`. */
    'avm.issueTx': api.issueTx,
    /** avm.getTx {txID, encoding}: the signed bytes in `encoding`, or (`json`) the tx as avalanchego marshals it. */
    'avm.getTx': api.getTx,

    /** avm.getTxStatus {txID}: `status` as avalanchego sends it, and `Status` as the API reference's sample shows. */
    'avm.getTxStatus': method(z.object({ txID: IDArg }), (args) => {
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      const status = ctx.x.status(args.txID)
      return { status, Status: status }
    }),

    /** avm.getUTXOs: the X ledger, or (sourceChain) what that chain exported to X. */
    'avm.getUTXOs': api.getUTXOs,

    /** avm.getBalance {address, assetID, includePartial}: unlocked single-owner UTXOs unless includePartial. */
    'avm.getBalance': method(z.object({ address: GoString, assetID: GoString, includePartial: z.boolean().nullish() }), (args) => {
      const addr = withContext(`problem parsing address '${args.address}': `, () => parseAddr(args.address))
      const assetID = assetByName(args.assetID)
      const now = unixNow()
      let balance = 0n
      const utxoIDs: { txID: string; outputIndex: number }[] = []
      for (const u of ctx.x.utxosOf(addr)) {
        if (!Buffer.from(u.assetID).equals(assetID)) continue
        if (args.includePartial !== true && (u.out.addrs.length !== 1 || u.out.threshold > 1 || u.out.locktime > now)) continue
        balance += u.out.amount
        utxoIDs.push({ txID: cb58Encode(u.utxoID.txID), outputIndex: u.utxoID.outputIndex })
      }
      return { balance: balance.toString(), utxoIDs }
    }),

    /** avm.getAssetDescription {assetID}: AVAX only (by symbol or ID). */
    'avm.getAssetDescription': method(z.object({ assetID: GoString }), (args) => {
      const id = assetByName(args.assetID)
      if (!Buffer.from(id).equals(ctx.avaxAssetID)) throw new APIError('not found')
      return { assetID: cb58Encode(id), name: AVAX_NAME, symbol: AVAX_SYMBOL, denomination: String(AVAX_DENOMINATION) }
    }),

    /** avm.getTxFee: {txFee, createAssetTxFee} as decimal strings. */
    'avm.getTxFee': method(z.object({}), () => avmTxFeeReply(ctx.x.txFee, X_CREATE_ASSET_TX_FEE)),
  }
}

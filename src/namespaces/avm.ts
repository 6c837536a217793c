/**
 * The X-Chain's `avm` service at /ext/bc/X (avalanchego vms/avm/service.go) as far as AVAX transfers need it:
 * issueTx, getTx, getTxStatus, getUTXOs (with sourceChain: atomic UTXOs exported to X), getBalance,
 * getAssetDescription, getTxFee. Gorilla transport (AVALANCHE.md 9.1).
 */
import { z } from 'zod'
import { formatLocalAddress, parseServiceAddress } from '../atomic/address.js'
import type { AddressContext } from '../atomic/address.js'
import { cb58Decode, cb58Encode } from '../atomic/cb58.js'
import { decodeBytes, encodeBytes } from '../atomic/encoding.js'
import type { Encoding } from '../atomic/encoding.js'
import { AtomicError, FormatError } from '../atomic/errors.js'
import { lookupChainAlias } from '../atomic/networks.js'
import type { ChainAliases } from '../atomic/networks.js'
import { goQuote } from '../goQuote.js'
import { APIError, GoString } from '../rpc/gorilla.js'
import { EMPTY_ID, EncodingArg, IDArg, Uint32Arg } from '../rpc/avalancheArgs.js'
import type { MethodTable } from '../rpc/types.js'
import { method } from '../rpc/types.js'
import { avmTxFeeReply, X_CREATE_ASSET_TX_FEE } from '../xchain/fees.js'
import { AVAX_DENOMINATION, AVAX_NAME, AVAX_SYMBOL } from '../xchain/genesis.js'
import type { XChainService } from '../xchain/service.js'

/** avalanchego's maxPageSize for getUTXOs and its address cap. */
const MAX_UTXOS_TO_FETCH = 1024
const MAX_ADDRS = 1024
const ZERO_ADDR = new Uint8Array(20)

export interface AVMContext {
  readonly x: XChainService
  readonly networkID: number
  readonly chains: ChainAliases
  readonly avaxAssetID: Uint8Array
}

const IndexArg = z.object({ address: GoString, utxo: GoString }).nullish().transform((v) => v ?? { address: '', utxo: '' })

const GetUTXOsArgs = z.object({
  addresses: z.array(GoString).nullish().transform((v) => v ?? []),
  sourceChain: GoString,
  limit: Uint32Arg,
  startIndex: IndexArg,
  encoding: EncodingArg,
})

function messageOf(err: unknown): string {
  if (err instanceof AtomicError) return err.message
  throw err
}

/** The `avm.*` table. */
export function avmMethods(ctx: AVMContext): MethodTable {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const xChainID = ctx.chains.xChainID
  const parseAddr = (text: string): Uint8Array => parseServiceAddress(addrCtx, xChainID, text)
  const assetByName = (text: string): Uint8Array => {
    if (text === AVAX_SYMBOL) return ctx.avaxAssetID
    const id = cb58Decode(text)
    if (id.length !== 32) throw new FormatError(`invalid hash length: expected 32 bytes but got ${id.length}`)
    return id
  }
  return {
    /** avm.issueTx {tx, encoding}: verifies and accepts at once; `{txID}`. */
    'avm.issueTx': method(z.object({ tx: GoString, encoding: EncodingArg }), async (args) => {
      let bytes: Uint8Array
      try {
        bytes = decodeBytes(args.encoding, args.tx)
      } catch (err) {
        throw new APIError(`problem decoding transaction: ${messageOf(err)}`)
      }
      try {
        return { txID: cb58Encode(await ctx.x.issueTx(bytes)) }
      } catch (err) {
        throw new APIError(messageOf(err))
      }
    }),

    /** avm.getTx {txID, encoding}: `0x` + hex + checksum of the signed bytes. */
    'avm.getTx': method(z.object({ txID: IDArg, encoding: EncodingArg }), (args) => {
      const found = ctx.x.getTx(args.txID)
      if (found === undefined) throw new APIError('not found')
      try {
        return { tx: encodeBytes(args.encoding, found.signedBytes), encoding: args.encoding }
      } catch (err) {
        throw new APIError(messageOf(err))
      }
    }),

    /** avm.getTxStatus {txID}: `status` as avalanchego sends it, and `Status` as the API reference's sample shows. */
    'avm.getTxStatus': method(z.object({ txID: IDArg }), (args) => {
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      const status = ctx.x.status(args.txID)
      return { status, Status: status }
    }),

    /** avm.getUTXOs: the X ledger, or (sourceChain) what that chain exported to X. */
    'avm.getUTXOs': method(GetUTXOsArgs, (args) => {
      if (args.addresses.length === 0) throw new APIError('no addresses provided')
      if (args.addresses.length > MAX_ADDRS) throw new APIError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_ADDRS}`)
      let sourceChain: Uint8Array | undefined
      if (args.sourceChain !== '') {
        try {
          sourceChain = lookupChainAlias(ctx.chains, args.sourceChain)
        } catch (err) {
          throw new APIError(`problem parsing source chainID ${goQuote(args.sourceChain)}: ${messageOf(err)}`)
        }
      }
      const addrs = args.addresses.map((text) => {
        try {
          return parseAddr(text)
        } catch (err) {
          throw new APIError(`couldn't parse address ${goQuote(text)}: ${messageOf(err)}`)
        }
      })
      let startAddr: Uint8Array = ZERO_ADDR
      let startUTXO: Uint8Array = EMPTY_ID
      const { address: sa, utxo: su } = args.startIndex
      if (sa !== '' || su !== '') {
        try {
          startAddr = parseAddr(sa)
        } catch (err) {
          throw new APIError(`couldn't parse start index address ${goQuote(sa)}: ${messageOf(err)}`)
        }
        try {
          startUTXO = cb58Decode(su)
          if (startUTXO.length !== 32) throw new FormatError(`invalid hash length: expected 32 bytes but got ${startUTXO.length}`)
        } catch (err) {
          throw new APIError(`couldn't parse start index utxo: ${messageOf(err)}`)
        }
      }
      const limit = args.limit <= 0 || args.limit > MAX_UTXOS_TO_FETCH ? MAX_UTXOS_TO_FETCH : args.limit
      const page = sourceChain === undefined || Buffer.from(sourceChain).equals(xChainID)
        ? ctx.x.getUTXOs(addrs, startAddr, startUTXO, limit)
        : ctx.x.getAtomicUTXOs(sourceChain, addrs, startAddr, startUTXO, limit)
      const utxos = page.utxos.map((b) => {
        try {
          return encodeBytes(args.encoding, b)
        } catch (err) {
          throw new APIError(`couldn't encode UTXO ${goQuote('')}: ${messageOf(err)}`)
        }
      })
      return {
        numFetched: String(utxos.length),
        utxos,
        endIndex: { address: formatLocalAddress(addrCtx, xChainID, page.endAddress), utxo: cb58Encode(page.endUTXOID) },
        encoding: args.encoding,
      }
    }),

    /** avm.getBalance {address, assetID, includePartial}: unlocked single-owner UTXOs unless includePartial. */
    'avm.getBalance': method(z.object({ address: GoString, assetID: GoString, includePartial: z.boolean().nullish() }), (args) => {
      let addr: Uint8Array
      try {
        addr = parseAddr(args.address)
      } catch (err) {
        throw new APIError(`problem parsing address '${args.address}': ${messageOf(err)}`)
      }
      let assetID: Uint8Array
      try {
        assetID = assetByName(args.assetID)
      } catch (err) {
        throw new APIError(messageOf(err))
      }
      const now = BigInt(Math.floor(Date.now() / 1000))
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
      let id: Uint8Array
      try {
        id = assetByName(args.assetID)
      } catch (err) {
        throw new APIError(messageOf(err))
      }
      if (!Buffer.from(id).equals(ctx.avaxAssetID)) throw new APIError('not found')
      return { assetID: cb58Encode(id), name: AVAX_NAME, symbol: AVAX_SYMBOL, denomination: String(AVAX_DENOMINATION) }
    }),

    /** avm.getTxFee: {txFee, createAssetTxFee} as decimal strings. */
    'avm.getTxFee': method(z.object({}), () => avmTxFeeReply(ctx.x.txFee, X_CREATE_ASSET_TX_FEE)),
  }
}

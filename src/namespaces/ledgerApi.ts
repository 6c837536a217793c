/**
 * What the X-Chain's `avm` and the P-Chain's `platform` services share (avalanchego
 * vms/avm/service.go, vms/platformvm/service.go GetUTXOs): address parsing and the getUTXOs
 * method over a chain's own ledger or, with `sourceChain`, the UTXOs other chains exported to it.
 */
import { z } from 'zod'
import { formatLocalAddress, parseServiceAddress, type AddressContext } from '../avalanche/address.js'
import { cb58DecodeID, cb58Encode } from '../avalanche/cb58.js'
import { utxoInputID } from '../avalanche/avax.js'
import { decodeBytes, encodeBytes, type Encoding } from '../avalanche/encoding.js'
import { lookupChainAlias, type ChainAliases } from '../avalanche/networks.js'
import { goQuote } from '../util/goQuote.js'
import { EMPTY_ID, EncodingArg, IDArg, Uint32Arg } from '../rpc/avalancheArgs.js'
import { APIError, withContext } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { RawJson } from '../rpc/rawJson.js'
import { method, type MethodDef } from '../rpc/types.js'

const MAX_UTXOS_TO_FETCH = 1024
const MAX_ADDRS = 1024
const ZERO_ADDR = new Uint8Array(20)

/** A page of a chain's UTXO listing: codec bytes, and where it stopped. */
export interface UTXOPage {
  utxos: Uint8Array[]
  endAddress: Uint8Array
  endUTXOID: Uint8Array
}

/** A chain's transactions and UTXO sources: its ledger, and shared memory from a peer chain. */
export interface UTXOLedger {
  /** Verifies and accepts a signed tx; its ID. */
  issueTx(signedBytes: Uint8Array): Promise<Uint8Array>
  getTx(txID: Uint8Array): { signedBytes: Uint8Array } | undefined
  getUTXOs(addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): UTXOPage
  getAtomicUTXOs(sourceChain: Uint8Array, addrs: readonly Uint8Array[], startAddr: Uint8Array, startUTXO: Uint8Array, limit: number): UTXOPage
}

export const Addresses = z
  .array(GoString)
  .nullish()
  .transform((v) => v ?? [])
const IndexArg = z
  .object({ address: GoString, utxo: GoString })
  .nullish()
  .transform((v) => v ?? { address: '', utxo: '' })

/** api.GetUTXOsArgs. */
const GetUTXOsArgs = z.object({
  addresses: Addresses,
  sourceChain: GoString,
  limit: Uint32Arg,
  startIndex: IndexArg,
  encoding: EncodingArg,
})

/** Where avm and platform word their answers differently (avalanchego vms/avm/service.go, vms/platformvm/service.go). */
export interface LedgerWording {
  /** The prefix of a UTXO that `encoding` cannot carry: avm `couldn't encode UTXO <id> as string: `, platform `… as <encoding>: `. */
  utxoEncodeError(inputID: string, encoding: Encoding): string
  /** getTx for an unknown tx: avm `not found`, platform `couldn't get tx: not found`. */
  readonly txNotFound: string
  /** avm refuses the empty txID in getTx (`nil transaction ID`); platform looks it up. */
  readonly nilTxID: boolean
  /** The tx as `encoding: "json"` shows it (the chain's tx structs marshalled by Go). */
  txJson(signedBytes: Uint8Array, formatAddr: (addr: Uint8Array) => string): string
}

/** The UTXO ID of codec bytes (version u16 ‖ txID ‖ outputIndex u32 ‖ …) as UTXOID.InputID prints it. */
function inputIDOf(utxoBytes: Uint8Array): string {
  const txID = utxoBytes.subarray(2, 34)
  const outputIndex = Buffer.from(utxoBytes.buffer, utxoBytes.byteOffset, utxoBytes.byteLength).readUInt32BE(34)
  return cb58Encode(utxoInputID({ txID, outputIndex }))
}

/** Address parsing, getUTXOs, issueTx and getTx for the service of chain `chainID`. */
export function ledgerApi(ctx: { networkID: number; chains: ChainAliases; chainID: Uint8Array; ledger: UTXOLedger; wording: LedgerWording }) {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const parseAddr = (text: string): Uint8Array => parseServiceAddress(addrCtx, ctx.chainID, text)
  const parseAddrs = (texts: readonly string[]): Uint8Array[] => texts.map((text) => withContext(`couldn't parse address ${goQuote(text)}: `, () => parseAddr(text)))
  const getUTXOs: MethodDef = method(GetUTXOsArgs, (args) => {
    if (args.addresses.length === 0) throw new APIError('no addresses provided')
    if (args.addresses.length > MAX_ADDRS) throw new APIError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_ADDRS}`)
    const sourceChain = args.sourceChain === '' ? undefined : withContext(`problem parsing source chainID ${goQuote(args.sourceChain)}: `, () => lookupChainAlias(ctx.chains, args.sourceChain))
    const addrs = parseAddrs(args.addresses)
    let startAddr: Uint8Array = ZERO_ADDR
    let startUTXO: Uint8Array = EMPTY_ID
    const { address: sa, utxo: su } = args.startIndex
    if (sa !== '' || su !== '') {
      startAddr = withContext(`couldn't parse start index address ${goQuote(sa)}: `, () => parseAddr(sa))
      startUTXO = withContext("couldn't parse start index utxo: ", () => cb58DecodeID(su))
    }
    const limit = args.limit <= 0 || args.limit > MAX_UTXOS_TO_FETCH ? MAX_UTXOS_TO_FETCH : args.limit
    const page =
      sourceChain === undefined || Buffer.from(sourceChain).equals(ctx.chainID)
        ? ctx.ledger.getUTXOs(addrs, startAddr, startUTXO, limit)
        : ctx.ledger.getAtomicUTXOs(sourceChain, addrs, startAddr, startUTXO, limit)
    const utxos = page.utxos.map((b) => withContext(ctx.wording.utxoEncodeError(inputIDOf(b), args.encoding), () => encodeBytes(args.encoding, b)))
    return {
      numFetched: String(utxos.length),
      utxos,
      endIndex: { address: formatLocalAddress(addrCtx, ctx.chainID, page.endAddress), utxo: cb58Encode(page.endUTXOID) },
      encoding: args.encoding,
    }
  })
  /** issueTx {tx, encoding}: verifies and accepts at once; `{txID}`; the ledger's errors verbatim. */
  const issueTx: MethodDef = method(z.object({ tx: GoString, encoding: EncodingArg }), async (args) => {
    const bytes = withContext('problem decoding transaction: ', () => decodeBytes(args.encoding, args.tx))
    return { txID: cb58Encode(await ctx.ledger.issueTx(bytes)) }
  })
  /** getTx {txID, encoding}: the signed bytes in `encoding` (`hex`, `hexc`: with the checksum), or for `json` the tx as Go marshals it. */
  const getTx: MethodDef = method(z.object({ txID: IDArg, encoding: EncodingArg }), (args) => {
    if (ctx.wording.nilTxID && Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
    const found = ctx.ledger.getTx(args.txID)
    if (found === undefined) throw new APIError(ctx.wording.txNotFound)
    if (args.encoding === 'json') return { tx: new RawJson(ctx.wording.txJson(found.signedBytes, (a) => formatLocalAddress(addrCtx, ctx.chainID, a))), encoding: args.encoding }
    return { tx: encodeBytes(args.encoding, found.signedBytes), encoding: args.encoding }
  })
  return { addrCtx, parseAddr, parseAddrs, getUTXOs, issueTx, getTx }
}

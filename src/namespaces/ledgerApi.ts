/**
 * What the X-Chain's `avm` and the P-Chain's `platform` services share (avalanchego
 * vms/avm/service.go, vms/platformvm/service.go GetUTXOs): address parsing and the getUTXOs
 * method over a chain's own ledger or, with `sourceChain`, the UTXOs other chains exported to it.
 */
import { z } from 'zod'
import { formatLocalAddress, parseServiceAddress } from '../avalanche/address.js'
import type { AddressContext } from '../avalanche/address.js'
import { cb58Decode, cb58Encode } from '../avalanche/cb58.js'
import { decodeBytes, encodeBytes } from '../avalanche/encoding.js'
import { AtomicError } from '../atomic/errors.js'
import { AvalancheError, FormatError } from '../avalanche/errors.js'
import { lookupChainAlias } from '../avalanche/networks.js'
import type { ChainAliases } from '../avalanche/networks.js'
import { goQuote } from '../util/goQuote.js'
import { EMPTY_ID, EncodingArg, IDArg, Uint32Arg } from '../rpc/avalancheArgs.js'
import { APIError, GoString } from '../rpc/gorilla.js'
import { method } from '../rpc/types.js'
import type { MethodDef } from '../rpc/types.js'

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

export const Addresses = z.array(GoString).nullish().transform((v) => v ?? [])
const IndexArg = z.object({ address: GoString, utxo: GoString }).nullish().transform((v) => v ?? { address: '', utxo: '' })

/** api.GetUTXOsArgs. */
const GetUTXOsArgs = z.object({
  addresses: Addresses,
  sourceChain: GoString,
  limit: Uint32Arg,
  startIndex: IndexArg,
  encoding: EncodingArg,
})

/** The message of an expected (AtomicError) failure; anything else is a bug and propagates. */
export function messageOf(err: unknown): string {
  if (err instanceof AvalancheError) return err.message
  throw err
}

/** Address parsing and getUTXOs for the service of chain `chainID`. */
export function ledgerApi(ctx: { networkID: number; chains: ChainAliases; chainID: Uint8Array; ledger: UTXOLedger }) {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const parseAddr = (text: string): Uint8Array => parseServiceAddress(addrCtx, ctx.chainID, text)
  const parseAddrs = (texts: readonly string[]): Uint8Array[] => texts.map((text) => {
    try {
      return parseAddr(text)
    } catch (err) {
      throw new APIError(`couldn't parse address ${goQuote(text)}: ${messageOf(err)}`)
    }
  })
  const getUTXOs: MethodDef = method(GetUTXOsArgs, (args) => {
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
    const addrs = parseAddrs(args.addresses)
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
    const page = sourceChain === undefined || Buffer.from(sourceChain).equals(ctx.chainID)
      ? ctx.ledger.getUTXOs(addrs, startAddr, startUTXO, limit)
      : ctx.ledger.getAtomicUTXOs(sourceChain, addrs, startAddr, startUTXO, limit)
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
      endIndex: { address: formatLocalAddress(addrCtx, ctx.chainID, page.endAddress), utxo: cb58Encode(page.endUTXOID) },
      encoding: args.encoding,
    }
  })
  /** issueTx {tx, encoding}: verifies and accepts at once; `{txID}`. */
  const issueTx: MethodDef = method(z.object({ tx: GoString, encoding: EncodingArg }), async (args) => {
    let bytes: Uint8Array
    try {
      bytes = decodeBytes(args.encoding, args.tx)
    } catch (err) {
      throw new APIError(`problem decoding transaction: ${messageOf(err)}`)
    }
    try {
      return { txID: cb58Encode(await ctx.ledger.issueTx(bytes)) }
    } catch (err) {
      throw new APIError(messageOf(err))
    }
  })
  /** getTx {txID, encoding}: `0x` + hex + checksum of the signed bytes. */
  const getTx: MethodDef = method(z.object({ txID: IDArg, encoding: EncodingArg }), (args) => {
    const found = ctx.ledger.getTx(args.txID)
    if (found === undefined) throw new APIError('not found')
    try {
      return { tx: encodeBytes(args.encoding, found.signedBytes), encoding: args.encoding }
    } catch (err) {
      throw new APIError(messageOf(err))
    }
  })
  return { addrCtx, parseAddr, parseAddrs, getUTXOs, issueTx, getTx }
}

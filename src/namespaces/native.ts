/**
 * The C-Chain's atomic API (coreth: plugin/evm/atomic/vm/api.go): `getUTXOs`, `issueTx`,
 * `getAtomicTx`, `getAtomicTxStatus`. One handler table, keyed by the `native` wire names of
 * /ext/bc/C/native (the API reference's, docs/API.md) and served again under `avax` at
 * /ext/bc/C/avax (avalanchego's name, the one AvalancheJS's EVMApi calls). The keystore-backed
 * methods (export, import, exportKey, importKey, exportNative/exportAVAX, importNative/importAVAX)
 * live in nativeKeystore.ts and join the same table when the context carries their backend.
 * Handlers throw; src/rpc/errors.ts toGorillaError turns what they throw into the answer.
 */
import { z } from 'zod'
import { parseServiceAddress, formatLocalAddress, type AddressContext } from '../avalanche/address.js'
import { cb58DecodeID, cb58Encode } from '../avalanche/cb58.js'
import { decodeBytes, encodeBytes, type Encoding } from '../avalanche/encoding.js'
import { alreadyKnownAs } from '../atomic/errors.js'
import { FormatError } from '../avalanche/errors.js'
import { lookupChainAlias, type ChainAliases } from '../avalanche/networks.js'
import type { AtomicService, UTXOCursor } from '../atomic/service.js'
import { parseTx } from '../atomic/tx.js'
import { goQuote } from '../util/goQuote.js'
import { APIError, withContext } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { EMPTY_ID, EncodingArg, IDArg, Uint32Arg } from '../rpc/avalancheArgs.js'
import { type MethodTable, method } from '../rpc/types.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { type NativeKeystoreContext, nativeKeystoreHandlers } from './nativeKeystore.js'

/** coreth maxGetUTXOsAddrs and avalanchego's maxUTXOsToFetch. */
export const MAX_GET_UTXOS_ADDRS = 1024
export const MAX_UTXOS_TO_FETCH = 1024

/** The two service names the table is served under. */
export type NativeServiceName = 'native' | 'avax'

export interface NativeContext {
  /** The atomic engine (mempool, shared memory, accepted-tx repository). */
  readonly atomic: AtomicService
  readonly networkID: number
  /** The X, P and C chain IDs the aliaser knows (`X`/`avm`, `P`/`platform`, `C`/`evm`, CB58). */
  readonly chains: ChainAliases
  /** The keystore-backed methods' backend; without it only the four atomic methods are served. */
  readonly keystoreBackend?: Omit<NativeKeystoreContext, 'atomic' | 'networkID' | 'chains'>
  /** The chain runs Helicon: getAtomicTx and getAtomicTxStatus answer as saevm's (accepted txs only). */
  readonly saevm?: boolean
}

/** Deprecated methods (`native` wire names, docs/API.md) and the method of the same service that replaces each. */
export const DEPRECATED_HANDLERS: Readonly<Record<string, string>> = { 'native.exportNative': 'native.export', 'native.importNative': 'native.import' }

/** The `avax` wire names of the methods the API reference renames (coreth v0.14.0: plugin/evm/service.go ExportAVAX, ImportAVAX). */
export const AVAX_NAMES: Readonly<Record<string, string>> = { 'native.exportNative': 'avax.exportAVAX', 'native.importNative': 'avax.importAVAX' }

/**
 * The `encoding` values `native.*` serves. The API reference (docs/API.md): "only `hex` is allowed
 * when given": anything else gets avalanchego's `unsupported encoding in method`, up front. `avax.*`
 * (avalanchego's own service) takes what coreth takes: `hex`, `hexc`, `hexnc`, and `json` fails only
 * where bytes are (en|de)coded (avalanchego: utils/formatting/encoding.go; coreth:
 * plugin/evm/atomic/vm/api.go). Names avalanchego does not know stay argument errors on both.
 */
export const SERVED_ENCODINGS: readonly Encoding[] = ['hex']

/** Refuses an encoding `native.*` does not serve, with formatting.Encode/Decode's error; `avax.*` refuses nothing here. */
function servedEncoding(service: NativeServiceName, encoding: Encoding): void {
  if (service === 'native' && !SERVED_ENCODINGS.includes(encoding)) throw new FormatError('unsupported encoding in method')
}

/** Go's case-insensitive struct-field matching for a nested object (api.Index). */
function foldKeys(keys: readonly string[]) {
  return (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const out: Record<string, unknown> = {}
    for (const [k, val] of Object.entries(v)) {
      const key = keys.find((s) => s.toLowerCase() === k.toLowerCase())
      if (key !== undefined && (k === key || !Object.hasOwn(v, key))) out[key] = val
    }
    return out
  }
}

/** api.Index {address, utxo}: null/absent = both empty. */
const IndexArg = z.preprocess(foldKeys(['address', 'utxo']), z.object({ address: GoString, utxo: GoString }).nullish()).transform((v) => v ?? { address: '', utxo: '' })

/** api.GetUTXOsArgs. */
const GetUTXOsArgs = z.object({
  addresses: z
    .array(GoString)
    .nullish()
    .transform((v) => v ?? []),
  sourceChain: GoString,
  limit: Uint32Arg,
  startIndex: IndexArg,
  encoding: EncodingArg,
})

/** coreth FormattedTx (issueTx's args). */
const FormattedTxArgs = z.object({ tx: GoString, encoding: EncodingArg })

/** api.GetTxArgs / api.JSONTxID. */
const GetTxArgs = z.object({ txID: IDArg, encoding: EncodingArg })
const TxIDArgs = z.object({ txID: IDArg })

/**
 * The methods keyed by their `native` wire names (`native.getUTXOs`): the four atomic ones, plus the
 * keystore-backed ones when `ctx.keystoreBackend` is set. `nativeMethods` and `avaxMethods` serve them,
 * each the table built for its service (they differ in the encodings served, SERVED_ENCODINGS).
 */
export function nativeHandlers(ctx: NativeContext, service: NativeServiceName = 'native'): MethodTable {
  const keystore = ctx.keystoreBackend === undefined ? {} : nativeKeystoreHandlers({ ...ctx.keystoreBackend, atomic: ctx.atomic, networkID: ctx.networkID, chains: ctx.chains })
  return { ...atomicHandlers(ctx, service), ...keystore }
}

/** native.getUTXOs, native.issueTx, native.getAtomicTx, native.getAtomicTxStatus (coreth: plugin/evm/atomic/vm/api.go). */
function atomicHandlers(ctx: NativeContext, service: NativeServiceName): MethodTable {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const cChainID = ctx.chains.cChainID
  const parseAddress = (context: string, text: string): Uint8Array => withContext(`${context} ${goQuote(text)}: `, () => parseServiceAddress(addrCtx, cChainID, text))

  return {
    /** native.getUTXOs (avax.getUTXOs) {addresses, sourceChain, limit, startIndex, encoding}: UTXOs that `sourceChain` exported to the C-Chain. */
    'native.getUTXOs': method(GetUTXOsArgs, async (args) => {
      if (args.addresses.length === 0) throw new APIError('no addresses provided')
      if (args.addresses.length > MAX_GET_UTXOS_ADDRS) {
        throw new APIError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRS}`)
      }
      if (args.sourceChain === '') throw new APIError('no source chain provided')
      const sourceChain = withContext(`problem parsing source chainID ${goQuote(args.sourceChain)}: `, () => lookupChainAlias(ctx.chains, args.sourceChain))
      // A set: the same address twice (in any of its spellings) is iterated once.
      const seen = new Map<string, Uint8Array>()
      for (const text of args.addresses) {
        const addr = parseAddress("couldn't parse address", text)
        seen.set(Buffer.from(addr).toString('hex'), addr)
      }
      let startIndex: UTXOCursor | undefined
      const { address: startAddr, utxo: startUTXO } = args.startIndex
      if (startAddr !== '' || startUTXO !== '') {
        const address = parseAddress("couldn't parse start index address", startAddr)
        const utxoID = withContext("couldn't parse start index utxo: ", () => cb58DecodeID(startUTXO))
        startIndex = { address, utxoID }
      }
      const limit = args.limit <= 0 || args.limit > MAX_UTXOS_TO_FETCH ? MAX_UTXOS_TO_FETCH : args.limit
      withContext('problem encoding utxo: ', () => servedEncoding(service, args.encoding))
      const result = await withContext('problem retrieving UTXOs: ', () => ctx.atomic.getUTXOs({ addresses: [...seen.values()], sourceChain, limit, ...(startIndex && { startIndex }) }))
      const utxos = withContext('problem encoding utxo: ', () => result.utxos.map((bytes) => encodeBytes(args.encoding, bytes)))
      return {
        numFetched: String(utxos.length),
        utxos,
        endIndex: {
          address: formatLocalAddress(addrCtx, cChainID, result.endIndex.address),
          utxo: cb58Encode(result.endIndex.utxoID),
        },
        encoding: args.encoding,
      }
    }),

    /**
     * native.issueTx (avax.issueTx) {tx, encoding}: decodes and parses a signed atomic tx once, then queues
     * the parsed tx; `{txID}`. The service's errors pass verbatim; txpool.ErrAlreadyKnown is success.
     */
    'native.issueTx': method(FormattedTxArgs, async (args) => {
      const bytes = withContext('problem decoding transaction: ', () => {
        servedEncoding(service, args.encoding)
        return decodeBytes(args.encoding, args.tx)
      })
      const tx = withContext('problem parsing transaction: ', () => parseTx(bytes))
      const id = await ctx.atomic.issueTx(bytes, tx).catch(alreadyKnownAs(tx.id))
      return { txID: cb58Encode(id) }
    }),

    /**
     * native.getAtomicTx (avax.getAtomicTx) {txID, encoding}: the signed bytes, with blockHeight when
     * Accepted; under Helicon an accepted tx only, else saevm's error (vms/saevm/cchain/api.go).
     */
    'native.getAtomicTx': method(GetTxArgs, (args) => {
      if (ctx.saevm) {
        const accepted = ctx.atomic.getTx(args.txID)
        if (accepted?.status !== 'Accepted' || accepted.blockHeight === undefined) throw new APIError('fetching tx: not found')
        servedEncoding(service, args.encoding)
        return { tx: encodeBytes(args.encoding, accepted.tx), encoding: args.encoding, blockHeight: accepted.blockHeight.toString() }
      }
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      const found = ctx.atomic.getTx(args.txID)
      if (found === undefined || found.status === 'Unknown') throw new APIError(`could not find tx ${cb58Encode(args.txID)}`)
      servedEncoding(service, args.encoding)
      return {
        tx: encodeBytes(args.encoding, found.tx),
        encoding: args.encoding,
        ...(found.status === 'Accepted' && found.blockHeight !== undefined && { blockHeight: found.blockHeight.toString() }),
      }
    }),

    /**
     * native.getAtomicTxStatus (avax.getAtomicTxStatus) {txID}: Accepted (with blockHeight), Processing,
     * Dropped or Unknown; under Helicon Accepted (with blockHeight) or Unknown, as saevm's.
     */
    'native.getAtomicTxStatus': method(TxIDArgs, (args) => {
      if (ctx.saevm) {
        const st = ctx.atomic.status(args.txID)
        return st.status === 'Accepted' && st.blockHeight !== undefined ? { status: 'Accepted', blockHeight: st.blockHeight.toString() } : { status: 'Unknown' }
      }
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      const st = ctx.atomic.status(args.txID)
      if (st.status === 'Accepted' && st.blockHeight !== undefined) return { status: st.status, blockHeight: st.blockHeight.toString() }
      return { status: st.status === 'Accepted' ? 'Processing' : st.status }
    }),
  }
}

/**
 * The table under one service name: `native` as keyed, `avax` with the prefix swapped (and avalanchego's
 * names for the renamed methods); the same MethodDef objects, a deprecated one wrapped to warn once
 * naming its replacement in the same service.
 */
export function serviceTable(service: NativeServiceName, handlers: MethodTable, deprecated?: DeprecationWarner): MethodTable {
  const out: MethodTable = {}
  const served = (name: string): string => (service === 'native' ? name : (AVAX_NAMES[name] ?? `avax.${name.slice('native.'.length)}`))
  for (const name of Object.keys(handlers)) {
    const wire = served(name)
    const def = handlers[name]!
    const replacement = DEPRECATED_HANDLERS[name]
    out[wire] =
      replacement === undefined || deprecated === undefined
        ? def
        : {
            ...def,
            handler: (params, call, origin) => {
              deprecated(wire, served(replacement))
              return def.handler(params, call, origin)
            },
          }
  }
  return out
}

/** The `native` service of /ext/bc/C/native (the API reference's names). */
export function nativeMethods(handlers: MethodTable, deprecated?: DeprecationWarner): MethodTable {
  return serviceTable('native', handlers, deprecated)
}

/** The `avax` service of /ext/bc/C/avax (avalanchego's names; AvalancheJS's EVMApi calls these). */
export function avaxMethods(handlers: MethodTable, deprecated?: DeprecationWarner): MethodTable {
  return serviceTable('avax', handlers, deprecated)
}

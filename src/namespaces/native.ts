import { goQuote } from '../util/goQuote.js'
/**
 * The C-Chain's atomic API (coreth atomic/vm/api.go, AVALANCHE.md 9.2-9.5): `getUTXOs`, `issueTx`,
 * `getAtomicTx`, `getAtomicTxStatus`. One handler table served twice: as the `native` service at
 * /ext/bc/C/native (the API reference's name) and as `avax` at /ext/bc/C/avax (avalanchego's real
 * name, the one AvalancheJS's EVMApi calls). The keystore-backed methods (export, import,
 * exportKey, importKey, exportNative/exportAVAX, importNative/importAVAX) live in nativeKeystore.ts
 * and join the same table when the context carries their backend.
 */
import { z } from 'zod'
import { parseServiceAddress, formatLocalAddress } from '../avalanche/address.js'
import type { AddressContext } from '../avalanche/address.js'
import { cb58Decode, cb58Encode } from '../avalanche/cb58.js'
import { decodeBytes, encodeBytes } from '../avalanche/encoding.js'
import type { Encoding } from '../avalanche/encoding.js'
import { AlreadyKnownError } from '../atomic/errors.js'
import { AvalancheError, FormatError } from '../avalanche/errors.js'
import { lookupChainAlias } from '../avalanche/networks.js'
import type { ChainAliases } from '../avalanche/networks.js'
import type { AtomicService, UTXOCursor } from '../atomic/service.js'
import { parseTx } from '../atomic/tx.js'
import { EngineError } from '../engine/errors.js'
import { APIError, GoString } from '../rpc/gorilla.js'
import { EMPTY_ID, EncodingArg, IDArg, Uint32Arg } from '../rpc/avalancheArgs.js'
import type { MethodDef, MethodTable } from '../rpc/types.js'
import { method } from '../rpc/types.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import type { NativeKeystoreContext } from './nativeKeystore.js'
import { nativeKeystoreHandlers } from './nativeKeystore.js'

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
}

/** Deprecated handlers (bare names) and the method that replaces each (API-REFERENCE.md 4.3). */
export const DEPRECATED_HANDLERS: Readonly<Record<string, string>> = { exportNative: 'export', importNative: 'import' }

/** avalanchego's names of the handlers the API reference renames (AVALANCHE.md 9 table). */
export const AVAX_NAMES: Readonly<Record<string, string>> = { exportNative: 'exportAVAX', importNative: 'importAVAX' }

/**
 * The `encoding` values the methods serve. The API reference (4.3): "only `hex` is allowed when
 * given"; avalanchego also takes `hexc` and `hexnc` and fails `json` only where bytes are
 * (en|de)coded (AVALANCHE.md 4.5, 9.2). The reference wins: anything but `hex` gets avalanchego's
 * `unsupported encoding in method`, up front. Names avalanchego does not know stay argument errors.
 */
export const SERVED_ENCODINGS: readonly Encoding[] = ['hex']

/** Refuses an encoding the methods do not serve, with formatting.Encode/Decode's error. */
function servedEncoding(encoding: Encoding): void {
  if (!SERVED_ENCODINGS.includes(encoding)) throw new FormatError('unsupported encoding in method')
}

/** Go's case-insensitive struct-field matching for a nested object (api.Index). */
function foldKeys(keys: readonly string[]) {
  return (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const out: Record<string, unknown> = {}
    for (const [k, val] of Object.entries(v)) {
      const key = keys.find((s) => s.toLowerCase() === k.toLowerCase())
      if (key !== undefined && (k === key || !Object.prototype.hasOwnProperty.call(v, key))) out[key] = val
    }
    return out
  }
}

/** api.Index {address, utxo}: null/absent = both empty. */
const IndexArg = z.preprocess(
  foldKeys(['address', 'utxo']),
  z.object({ address: GoString, utxo: GoString }).nullish(),
).transform((v) => v ?? { address: '', utxo: '' })

/** api.GetUTXOsArgs. */
const GetUTXOsArgs = z.object({
  addresses: z.array(GoString).nullish().transform((v) => v ?? []),
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

/** The error text of a domain error from the atomic engine, as coreth returns it; anything else stays internal. */
function asAPIError(err: unknown, prefix = ''): unknown {
  if (err instanceof AvalancheError || err instanceof EngineError) return new APIError(prefix + err.message)
  return err
}

/** Formatting errors (encoding, addresses, IDs) carry avalanchego's text. */
function formatMessage(err: unknown): string {
  if (err instanceof FormatError || err instanceof AvalancheError) return err.message
  throw err
}

/**
 * The methods keyed by their bare names (`getUTXOs`): the four atomic ones, plus the keystore-backed
 * ones when `ctx.keystoreBackend` is set. `nativeMethods` and `avaxMethods` put them under a service name.
 */
export function nativeHandlers(ctx: NativeContext): Record<string, MethodDef> {
  const keystore = ctx.keystoreBackend === undefined ? {} : nativeKeystoreHandlers({ ...ctx.keystoreBackend, atomic: ctx.atomic, networkID: ctx.networkID, chains: ctx.chains })
  return { ...atomicHandlers(ctx), ...keystore }
}

/** getUTXOs, issueTx, getAtomicTx, getAtomicTxStatus. */
function atomicHandlers(ctx: NativeContext): Record<string, MethodDef> {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const cChainID = ctx.chains.cChainID

  return {
    /** getUTXOs {addresses, sourceChain, limit, startIndex, encoding}: UTXOs that `sourceChain` exported to the C-Chain. */
    getUTXOs: method(GetUTXOsArgs, (args) => {
      if (args.addresses.length === 0) throw new APIError('no addresses provided')
      if (args.addresses.length > MAX_GET_UTXOS_ADDRS) {
        throw new APIError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRS}`)
      }
      if (args.sourceChain === '') throw new APIError('no source chain provided')
      let sourceChain: Uint8Array
      try {
        sourceChain = lookupChainAlias(ctx.chains, args.sourceChain)
      } catch (err) {
        throw new APIError(`problem parsing source chainID ${goQuote(args.sourceChain)}: ${formatMessage(err)}`)
      }
      // A set: the same address twice (in any of its spellings) is iterated once.
      const seen = new Map<string, Uint8Array>()
      for (const text of args.addresses) {
        let addr: Uint8Array
        try {
          addr = parseServiceAddress(addrCtx, cChainID, text)
        } catch (err) {
          throw new APIError(`couldn't parse address ${goQuote(text)}: ${formatMessage(err)}`)
        }
        seen.set(Buffer.from(addr).toString('hex'), addr)
      }
      let startIndex: UTXOCursor | undefined
      const { address: startAddr, utxo: startUTXO } = args.startIndex
      if (startAddr !== '' || startUTXO !== '') {
        let address: Uint8Array
        try {
          address = parseServiceAddress(addrCtx, cChainID, startAddr)
        } catch (err) {
          throw new APIError(`couldn't parse start index address ${goQuote(startAddr)}: ${formatMessage(err)}`)
        }
        let utxoID: Uint8Array
        try {
          utxoID = cb58Decode(startUTXO)
          if (utxoID.length !== 32) throw new FormatError(`invalid hash length: expected 32 bytes but got ${utxoID.length}`)
        } catch (err) {
          throw new APIError(`couldn't parse start index utxo: ${formatMessage(err)}`)
        }
        startIndex = { address, utxoID }
      }
      const limit = args.limit <= 0 || args.limit > MAX_UTXOS_TO_FETCH ? MAX_UTXOS_TO_FETCH : args.limit
      try {
        servedEncoding(args.encoding)
      } catch (err) {
        throw new APIError(`problem encoding utxo: ${formatMessage(err)}`)
      }
      let result
      try {
        result = ctx.atomic.getUTXOs({ addresses: [...seen.values()], sourceChain, limit, ...(startIndex && { startIndex }) })
      } catch (err) {
        throw asAPIError(err, 'problem retrieving UTXOs: ')
      }
      const utxos = result.utxos.map((bytes) => {
        try {
          return encodeBytes(args.encoding, bytes)
        } catch (err) {
          throw new APIError(`problem encoding utxo: ${formatMessage(err)}`)
        }
      })
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

    /** issueTx {tx, encoding}: decodes, parses and queues a signed atomic tx; `{txID}`. */
    issueTx: method(FormattedTxArgs, async (args) => {
      let bytes: Uint8Array
      try {
        // formatting.Decode refuses json before looking at the string.
        servedEncoding(args.encoding)
        bytes = decodeBytes(args.encoding, args.tx)
      } catch (err) {
        throw new APIError(`problem decoding transaction: ${formatMessage(err)}`)
      }
      let id: Uint8Array
      try {
        id = parseTx(bytes).id
      } catch (err) {
        throw new APIError(`problem parsing transaction: ${formatMessage(err)}`)
      }
      try {
        id = await ctx.atomic.issueTx(bytes)
      } catch (err) {
        // txpool.ErrAlreadyKnown is success: the txID is returned (and the tx re-gossiped).
        if (!(err instanceof AlreadyKnownError)) throw asAPIError(err)
      }
      return { txID: cb58Encode(id) }
    }),

    /** getAtomicTx {txID, encoding}: the signed bytes, with blockHeight when Accepted. */
    getAtomicTx: method(GetTxArgs, (args) => {
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      let found
      try {
        found = ctx.atomic.getTx(args.txID)
      } catch (err) {
        throw asAPIError(err)
      }
      if (found === undefined || found.status === 'Unknown') throw new APIError(`could not find tx ${cb58Encode(args.txID)}`)
      let tx: string
      try {
        servedEncoding(args.encoding)
        tx = encodeBytes(args.encoding, found.tx)
      } catch (err) {
        throw new APIError(formatMessage(err))
      }
      return {
        tx,
        encoding: args.encoding,
        ...(found.status === 'Accepted' && found.blockHeight !== undefined && { blockHeight: found.blockHeight.toString() }),
      }
    }),

    /** getAtomicTxStatus {txID}: Accepted (with blockHeight), Processing, Dropped or Unknown. */
    getAtomicTxStatus: method(TxIDArgs, (args) => {
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      let st
      try {
        st = ctx.atomic.status(args.txID)
      } catch (err) {
        throw asAPIError(err)
      }
      if (st.status === 'Accepted' && st.blockHeight !== undefined) return { status: st.status, blockHeight: st.blockHeight.toString() }
      return { status: st.status === 'Accepted' ? 'Processing' : st.status }
    }),
  }
}

/**
 * The handlers under one service name: `<service>.<method>` wire names (avalanchego's names under `avax`),
 * the same MethodDef objects; a deprecated one is wrapped to warn once naming its replacement.
 */
export function serviceTable(service: NativeServiceName, handlers: Record<string, MethodDef>, deprecated?: DeprecationWarner): MethodTable {
  const out: MethodTable = {}
  for (const name of Object.keys(handlers)) {
    const wire = service === 'avax' ? (AVAX_NAMES[name] ?? name) : name
    const def = handlers[name]!
    const replacement = DEPRECATED_HANDLERS[name]
    out[`${service}.${wire}`] = replacement === undefined || deprecated === undefined ? def : {
      ...def,
      handler: (params, call, origin) => {
        deprecated(`${service}.${wire}`, `${service}.${replacement}`)
        return def.handler(params, call, origin)
      },
    }
  }
  return out
}

/** The `native` service of /ext/bc/C/native (the API reference's names). */
export function nativeMethods(handlers: Record<string, MethodDef>, deprecated?: DeprecationWarner): MethodTable {
  return serviceTable('native', handlers, deprecated)
}

/** The `avax` service of /ext/bc/C/avax (avalanchego's names; AvalancheJS's EVMApi calls these). */
export function avaxMethods(handlers: Record<string, MethodDef>, deprecated?: DeprecationWarner): MethodTable {
  return serviceTable('avax', handlers, deprecated)
}

/**
 * The keystore-backed methods of the native/avax API (coreth v0.14.0: plugin/evm/service.go, user.go;
 * docs/API.md): `importKey`, `exportKey`, `export`, `exportNative` (avalanchego: `exportAVAX`),
 * `import`, `importNative` (`importAVAX`). Checks run in coreth's order with its error texts. With the keystore off (no `--api-keystore-enabled`) avalanchego still served these
 * methods over an empty keystore (its node.initKeystoreAPI only skips the /ext/keystore route), so
 * every user is unknown: the same wrapped `incorrect password: user "<u>"` as for a wrong password.
 * Params (passwords, keys) are never logged.
 */
import { z } from 'zod'
import { PrivateKeyArg, Uint64Arg, parseOrIssue } from '../rpc/avalancheArgs.js'
import { parseExportDestination, type AddressContext } from '../avalanche/address.js'
import { type SigningKey, buildExportTx, buildImportTx } from '../atomic/builder.js'
import { cb58DecodeID, cb58Encode } from '../avalanche/cb58.js'
import { alreadyKnownAs } from '../atomic/errors.js'
import { parseHexBig, suggestedBaseFee } from '../atomic/fees.js'
import { lookupChainAlias, type ChainAliases } from '../avalanche/networks.js'
import { formatPrivateKey } from '../avalanche/privateKey.js'
import type { AtomicService } from '../atomic/service.js'
import { ethAddress, publicKeyOf, toChecksumAddress } from '../avalanche/signature.js'
import type { AtomicTx } from '../atomic/tx.js'
import type { VerifyContext } from '../atomic/verify.js'
import { goQuote } from '../util/goQuote.js'
import { wipeAfter } from '../util/wipeAfter.js'
import { evmKeySpace } from '../keystore/chainKeys.js'
import { IncorrectPasswordError, shown } from '../keystore/errors.js'
import type { Keystore } from '../keystore/keystore.js'
import { GoString } from '../rpc/gorilla.js'
import { APIError, withContext } from '../rpc/errors.js'
import { type MethodTable, type RequestOrigin, method } from '../rpc/types.js'
import { keystoreCaller } from './keystoreCaller.js'
import { unixNow } from '../util/unixNow.js'

/** maxUTXOsToFetch: an import spends at most this many UTXOs. */
const MAX_IMPORT_UTXOS = 1024
/** The literal that names the native asset in `assetID` (coreth parseAssetID). */
export const NATIVE_ASSET_LITERAL = 'AVAX'

/** What the keystore-backed methods need besides the atomic service. */
export interface NativeKeystoreContext {
  /** undefined when the keystore is off: every user is unknown. */
  readonly keystore: Keystore | undefined
  readonly atomic: AtomicService
  readonly networkID: number
  readonly chains: ChainAliases
  /** network, C-Chain ID, X-Chain ID and AVAX asset ID, as the atomic verifier uses them */
  readonly verify: VerifyContext
  /** Head-state reads (wei balance, nonce) for export inputs. */
  balance(address: Uint8Array): Promise<bigint>
  nonce(address: Uint8Array): Promise<bigint>
  /** eth_baseFee (wei) of a block built now; undefined before AP3. */
  baseFee(): bigint | undefined
  /** Unix seconds (the keychain's time-lock check). */
  now?(): bigint
}

function issue(tctx: z.RefinementCtx, message: string): never {
  tctx.addIssue({ code: 'custom', message })
  return z.NEVER
}

/**
 * `baseFee`, wei per gas: avalanchego's hexutil.Big string (`"0x5d21dba00"`, no leading zero digits), and,
 * as the API reference types it "integer", a JSON integer or a decimal string. null/absent = suggested.
 */
const BaseFeeArg = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v, tctx): bigint | undefined => {
    if (v === undefined || v === null) return undefined
    if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : issue(tctx, 'invalid baseFee')
    if (/^[0-9]{1,78}$/.test(v) && BigInt(v) < 1n << 256n) return BigInt(v)
    return parseOrIssue(tctx, 'invalid baseFee', () => parseHexBig(v))
  })

/** common.Address's UnmarshalJSON: `0x` + 40 hex digits; null/absent = not given. */
const EthAddressArg = z
  .string()
  .nullish()
  .transform((v, tctx): Uint8Array | undefined => {
    if (v === undefined || v === null) return undefined
    if (!/^0[xX][0-9a-fA-F]{40}$/.test(v)) return issue(tctx, 'invalid address')
    return new Uint8Array(Buffer.from(v.slice(2), 'hex'))
  })

const UserPass = { username: GoString, password: GoString }
const ImportKeyArgs = z.object({ ...UserPass, privateKey: PrivateKeyArg })
const ExportKeyArgs = z.object({ ...UserPass, address: GoString })
const ExportNativeArgs = z.object({ ...UserPass, baseFee: BaseFeeArg, amount: Uint64Arg, targetChain: GoString, to: GoString })
const ExportArgs = ExportNativeArgs.extend({ assetID: GoString })
const ImportArgs = z.object({ ...UserPass, baseFee: BaseFeeArg, sourceChain: GoString, to: EthAddressArg })

/** The private keys of `keys`, for wipeAfter. */
const secrets = (keys: readonly SigningKey[]): Uint8Array[] => keys.map((k) => k.privateKey)

/**
 * The six keystore-backed handlers by `native` wire name; `native.exportNative`/`native.importNative`
 * are the deprecated aliases (served as `avax.exportAVAX`/`avax.importAVAX`, see native.ts).
 */
export function nativeKeystoreHandlers(ctx: NativeKeystoreContext): MethodTable {
  const addrCtx: AddressContext = { networkID: ctx.networkID, chains: ctx.chains }
  const now = ctx.now ?? unixNow
  // This chain's own key set: a key imported here is not spendable on X or P until imported there (coreth: plugin/evm/user.go).
  const space = evmKeySpace(ctx.chains.cChainID)

  /** Keystore.GetDatabase + user.getKeys: the user's keys in stored order; the keystore's error after `context`. */
  const userKeys = (username: string, password: string, origin: RequestOrigin | undefined, context: string): Promise<SigningKey[]> =>
    withContext(context, async () => {
      if (ctx.keystore === undefined) throw new IncorrectPasswordError(username)
      return ctx.keystore.keysWithAddresses(username, password, space, keystoreCaller(origin))
    })

  /** The given base fee, else vm.estimateBaseFee (coreth v0.14.0: plugin/evm/service.go, eth_baseFee x 11/10). */
  const baseFeeOf = (given: bigint | undefined): bigint => given ?? suggestedBaseFee(ctx.baseFee())

  /** mempool.AddLocalTx through the path of issueTx; its errors verbatim, "already known" is success. */
  async function issue(tx: AtomicTx): Promise<{ txID: string }> {
    await ctx.atomic.issueTx(tx.signedBytes).catch(alreadyKnownAs(tx.id))
    return { txID: cb58Encode(tx.id) }
  }

  /** service.Export after parseAssetID. */
  async function exportWith(assetID: Uint8Array, args: z.output<typeof ExportNativeArgs>, origin: RequestOrigin | undefined) {
    if (args.amount === 0n) throw new APIError("argument 'amount' must be > 0")
    const { chainID, address: to } = parseExportDestination(addrCtx, args.to, args.targetChain)
    const keys = await userKeys(args.username, args.password, origin, `problem retrieving user '${shown(args.username)}': `)
    const tx = await wipeAfter(secrets(keys), () =>
      withContext("couldn't create tx: ", () =>
        buildExportTx({
          ctx: ctx.verify,
          state: { balance: ctx.balance, nonce: ctx.nonce },
          assetID,
          amount: args.amount,
          destinationChain: chainID,
          to,
          baseFee: baseFeeOf(args.baseFee),
          keys,
        }),
      ),
    )
    return issue(tx)
  }

  /** service.Import. */
  async function importWith(args: z.output<typeof ImportArgs>, origin: RequestOrigin | undefined) {
    const sourceChain = withContext(`problem parsing chainID ${goQuote(args.sourceChain)}: `, () => lookupChainAlias(ctx.chains, args.sourceChain))
    // Go would credit the zero address; the API reference makes `to` required.
    if (args.to === undefined) throw new APIError("argument 'to' not given")
    const to = args.to
    const keys = await userKeys(args.username, args.password, origin, `couldn't get user '${shown(args.username)}': `)
    const tx = await wipeAfter(secrets(keys), async () => {
      const seen = new Map<string, Uint8Array>()
      for (const k of keys) seen.set(Buffer.from(k.shortAddress).toString('hex'), k.shortAddress)
      const utxos =
        seen.size === 0 ? [] : (await withContext('problem retrieving atomic UTXOs: ', () => ctx.atomic.getUTXOs({ addresses: [...seen.values()], sourceChain, limit: MAX_IMPORT_UTXOS }))).utxos
      return buildImportTx({ ctx: ctx.verify, sourceChain, to, baseFee: baseFeeOf(args.baseFee), keys, utxos, nowUnix: now() })
    })
    return issue(tx)
  }

  const exportNative = method(ExportNativeArgs, (args, _call, origin) => exportWith(ctx.verify.avaxAssetID, args, origin))
  const importHandler = method(ImportArgs, (args, _call, origin) => importWith(args, origin))

  return {
    /** native.importKey (avax.importKey) {username, password, privateKey}: stores the key for the user; `{address}` (EIP-55). */
    'native.importKey': method(ImportKeyArgs, async (args, _call, origin) => {
      const key = args.privateKey
      if (key === undefined) throw new APIError("argument 'privateKey' not given")
      return wipeAfter([key], async () => {
        const address = toChecksumAddress(ethAddress(publicKeyOf(key)))
        await withContext('problem retrieving data: ', async () => {
          if (ctx.keystore === undefined) throw new IncorrectPasswordError(args.username)
          await ctx.keystore.addKey(args.username, args.password, space, key, keystoreCaller(origin))
        })
        return { address }
      })
    }),

    /** native.exportKey (avax.exportKey) {username, password, address}: `{privateKey: "PrivateKey-…", privateKeyHex: "0x…"}`. */
    'native.exportKey': method(ExportKeyArgs, async (args, _call, origin) => {
      // client.ParseEthAddress: common.IsHexAddress (optional 0x, 40 hex digits).
      if (!/^(0[xX])?[0-9a-fA-F]{40}$/.test(args.address)) throw new APIError(`couldn't parse ${args.address} to address: invalid hex address`)
      const address = Buffer.from(args.address.slice(-40), 'hex')
      const keys = await userKeys(args.username, args.password, origin, `problem retrieving user '${shown(args.username)}': `)
      return wipeAfter(secrets(keys), () => {
        const key = keys.find((k) => address.equals(k.ethAddress))
        if (key === undefined) throw new APIError('problem retrieving private key: not found')
        return { privateKey: formatPrivateKey(key.privateKey), privateKeyHex: '0x' + Buffer.from(key.privateKey).toString('hex') }
      })
    }),

    /** native.export (avax.export) {username, password, amount, assetID, to, targetChain?, baseFee?}: ExportTx C -> X/P; `{txID}`. */
    'native.export': method(ExportArgs, (args, _call, origin) => {
      if (args.assetID === '') throw new APIError('assetID is required')
      const assetID = args.assetID === NATIVE_ASSET_LITERAL ? ctx.verify.avaxAssetID : cb58DecodeID(args.assetID)
      return exportWith(assetID, args, origin)
    }),

    /** native.exportNative (avax.exportAVAX), deprecated: export of the native asset; extra `from`/`changeAddr` ignored. */
    'native.exportNative': exportNative,

    /** native.import (avax.import) {username, password, sourceChain, to, baseFee?}: ImportTx of all spendable UTXOs; `{txID}`. */
    'native.import': importHandler,

    /** native.importNative (avax.importAVAX), deprecated: the same handler as import. */
    'native.importNative': method(ImportArgs, (args, _call, origin) => importWith(args, origin)),
  }
}

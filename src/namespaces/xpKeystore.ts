/**
 * The keystore-backed (deprecated) methods of the X-Chain and the P-Chain: wire name -> params -> the chain's
 * keystore wallet (src/xchain/wallet.ts, src/pchain/wallet.ts), which builds, signs and issues the tx through
 * the same path as issueTx, or the chain's own key set (importKey, exportKey, listAddresses, createAddress;
 * src/keystore/chainKeys.ts): a key imported on one chain is not spendable on another until imported there.
 * With the keystore off every user is unknown (an empty keystore), as in nativeKeystore.ts. Every call logs
 * "deprecated API called" once (avalanchego logs it on every call).
 */
import { z } from 'zod'
import { type AddressContext, formatLocalAddress, parseAvaxServiceAddress } from '../avalanche/address.js'
import { formatPrivateKey } from '../avalanche/privateKey.js'
import { type KeySpace, addressOf, avaxKeySpace } from '../keystore/chainKeys.js'
import { IncorrectPasswordError, shown } from '../keystore/errors.js'
import type { UserDb, UserSession } from '../keystore/keystore.js'
import { newPrivateKey } from '../keystore/userDb.js'
import type { KeystoreWalletOptions } from '../keystore/userKeys.js'
import { PWallet } from '../pchain/wallet.js'
import type { PChainService } from '../pchain/service.js'
import { PrivateKeyArg, Uint64Arg } from '../rpc/avalancheArgs.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { APIError, withContext } from '../rpc/errors.js'
import { GoString } from '../rpc/gorilla.js'
import { type MethodDef, type MethodTable, type RequestOrigin, method } from '../rpc/types.js'
import { goQuote } from '../util/goQuote.js'
import { wipeAfter } from '../util/wipeAfter.js'
import { XWallet } from '../xchain/wallet.js'
import type { XChainService } from '../xchain/service.js'
import { keystoreCaller } from './keystoreCaller.js'

export interface XPKeystoreContext extends KeystoreWalletOptions {
  readonly deprecated?: DeprecationWarner
}

const Strings = z
  .array(GoString)
  .nullish()
  .transform((v) => v ?? [])
/** api.JSONSpendHeader: username, password, from, changeAddr. */
const SpendHeader = { username: GoString, password: GoString, from: Strings, changeAddr: GoString }
const SendArgs = z.object({ ...SpendHeader, amount: Uint64Arg, assetID: GoString, to: GoString, memo: GoString })
const XExportArgs = z.object({ ...SpendHeader, amount: Uint64Arg, targetChain: GoString, to: GoString, assetID: GoString })
const XImportArgs = z.object({ username: GoString, password: GoString, sourceChain: GoString, to: GoString })
const PExportArgs = z.object({ ...SpendHeader, amount: Uint64Arg, targetChain: GoString, to: GoString })
const PImportArgs = z.object({ ...SpendHeader, sourceChain: GoString, to: GoString })
/** api.UserPass and the key methods' arguments. */
const UserPass = z.object({ username: GoString, password: GoString })
const ImportKeyArgs = UserPass.extend({ privateKey: PrivateKeyArg })
const ExportKeyArgs = UserPass.extend({ address: GoString })

/** Each method logs its deprecation (the wallets' domain errors reach the dispatcher, which answers with their text). */
function table(ctx: XPKeystoreContext, defs: MethodTable): MethodTable {
  const out: MethodTable = {}
  for (const [name, def] of Object.entries(defs)) {
    out[name] = {
      ...def,
      handler: (params, call, origin) => {
        ctx.deprecated?.(name)
        return def.handler(params, call, origin)
      },
    } satisfies MethodDef
  }
  return out
}

/** One chain's key set and how the chain writes its addresses. */
class ChainKeys {
  readonly space: KeySpace
  private readonly addrs: AddressContext

  constructor(
    private readonly ctx: XPKeystoreContext,
    readonly chainID: Uint8Array,
  ) {
    this.space = avaxKeySpace(chainID)
    this.addrs = { networkID: ctx.networkID, chains: ctx.chains }
  }

  /** keystore.NewUserFromKeystore: the user's database, or `problem retrieving user "<u>": <why>`. */
  open(username: string, password: string, origin: RequestOrigin | undefined): Promise<UserSession> {
    return withContext(`problem retrieving user ${goQuote(shown(username))}: `, async () => {
      if (this.ctx.keystore === undefined) throw new IncorrectPasswordError(username)
      return this.ctx.keystore.open(username, password, keystoreCaller(origin))
    })
  }

  /** Opens the user, runs `work` on its database, closes it. */
  async with<T>(args: { username: string; password: string }, origin: RequestOrigin | undefined, work: (db: UserDb) => Promise<T>): Promise<T> {
    const session = await this.open(args.username, args.password, origin)
    try {
      return await session.run(work)
    } finally {
      session.close()
    }
  }

  /** FormatLocalAddress: `<X|P>-<hrp>1…`. */
  format(address: Uint8Array): string {
    return formatLocalAddress(this.addrs, this.chainID, address)
  }

  /** avax.ParseServiceAddress for this chain. */
  parse(text: string): Uint8Array {
    return parseAvaxServiceAddress(this.addrs, this.chainID, text)
  }

  /** ImportKey: `privateKey` joins this chain's key set (once); `{address}`. */
  async importKey(args: z.output<typeof ImportKeyArgs>, origin: RequestOrigin | undefined): Promise<{ address: string }> {
    const key = args.privateKey
    if (key === undefined) throw new APIError("argument 'privateKey' not given")
    return wipeAfter([key], async () => {
      const address = this.format(addressOf(this.space, key))
      await this.with(args, origin, (db) => withContext('problem saving key ', () => db.putKey(this.space, key)))
      return { address }
    })
  }

  /** ExportKey: the key this chain holds for `address` (already parsed); `{privateKey: "PrivateKey-…"}`. */
  async exportKey(args: z.output<typeof UserPass>, address: Uint8Array, origin: RequestOrigin | undefined): Promise<{ privateKey: string }> {
    const key = await this.with(args, origin, (db) => withContext('problem retrieving private key: ', () => db.key(this.space, address)))
    if (key === undefined) throw new APIError('problem retrieving private key: not found')
    return wipeAfter([key], () => ({ privateKey: formatPrivateKey(key) }))
  }

  /** GetAddresses formatted for this chain; `onError` decides what a malformed list answers. */
  async listAddresses(args: z.output<typeof UserPass>, origin: RequestOrigin | undefined, onError: (err: unknown) => Uint8Array[]): Promise<{ addresses: string[] }> {
    const addresses = await this.with(args, origin, (db) => db.addresses(this.space).catch(onError))
    return { addresses: addresses.map((a) => this.format(a)) }
  }

  /** CreateAddress (keystore.NewKey): a fresh key in this chain's set; `{address}`. */
  async createAddress(args: z.output<typeof UserPass>, origin: RequestOrigin | undefined): Promise<{ address: string }> {
    const key = newPrivateKey()
    return wipeAfter([key], async () => {
      const address = this.format(addressOf(this.space, key))
      await this.with(args, origin, (db) => db.putKey(this.space, key))
      return { address }
    })
  }
}

/**
 * `avm.send`, `avm.export`, `avm.import` and the X-Chain's key set: `avm.importKey`, `avm.exportKey`,
 * `avm.listAddresses`, `avm.createAddress` (avalanchego v1.12.1: vms/avm/service.go).
 */
export function avmKeystoreMethods(ctx: XPKeystoreContext & { x: XChainService }): MethodTable {
  const wallet = new XWallet(ctx.x, ctx)
  const keys = new ChainKeys(ctx, ctx.chains.xChainID)
  return table(ctx, {
    'avm.send': method(SendArgs, (args, _call, origin) => wallet.send(args, keystoreCaller(origin))),
    'avm.export': method(XExportArgs, (args, _call, origin) => wallet.export(args, keystoreCaller(origin))),
    'avm.import': method(XImportArgs, (args, _call, origin) => wallet.import(args, keystoreCaller(origin))),
    /** avm.importKey {username, password, privateKey}: `{address: "X-…"}`. */
    'avm.importKey': method(ImportKeyArgs, (args, _call, origin) => keys.importKey(args, origin)),
    /** avm.exportKey {username, password, address}: `{privateKey}`; the address is parsed first. */
    'avm.exportKey': method(ExportKeyArgs, (args, _call, origin) => {
      const address = withContext(`problem parsing address ${goQuote(args.address)}: `, () => keys.parse(args.address))
      return keys.exportKey(args, address, origin)
    }),
    /** avm.listAddresses {username, password}: `{addresses}`; an unreadable list answers none, as avalanchego. */
    'avm.listAddresses': method(UserPass, (args, _call, origin) => keys.listAddresses(args, origin, () => [])),
    /** avm.createAddress {username, password}: `{address}`. */
    'avm.createAddress': method(UserPass, (args, _call, origin) => keys.createAddress(args, origin)),
  })
}

/**
 * `platform.exportAVAX`, `platform.importAVAX` and the P-Chain's key set: `platform.importKey`,
 * `platform.exportKey`, `platform.listAddresses`, `platform.createAddress` (avalanchego v1.11.1:
 * vms/platformvm/service.go, the last release serving all of them; exportKey and listAddresses are unchanged
 * in v1.12.1).
 */
export function platformKeystoreMethods(ctx: XPKeystoreContext & { p: PChainService }): MethodTable {
  const wallet = new PWallet(ctx.p, ctx)
  const keys = new ChainKeys(ctx, ctx.chains.pChainID)
  return table(ctx, {
    'platform.exportAVAX': method(PExportArgs, (args, _call, origin) => wallet.exportAVAX(args, keystoreCaller(origin))),
    'platform.importAVAX': method(PImportArgs, (args, _call, origin) => wallet.importAVAX(args, keystoreCaller(origin))),
    /** platform.importKey {username, password, privateKey}: `{address: "P-…"}`. */
    'platform.importKey': method(ImportKeyArgs, (args, _call, origin) => keys.importKey(args, origin)),
    /** platform.exportKey {username, password, address}: `{privateKey}`; the address is parsed first. */
    'platform.exportKey': method(ExportKeyArgs, (args, _call, origin) => {
      const address = withContext(`couldn't parse ${args.address} to address: `, () => keys.parse(args.address))
      return keys.exportKey(args, address, origin)
    }),
    /** platform.listAddresses {username, password}: `{addresses}`; an unreadable list is `couldn't get addresses: …`. */
    'platform.listAddresses': method(UserPass, (args, _call, origin) =>
      keys.listAddresses(args, origin, (err) =>
        withContext("couldn't get addresses: ", () => {
          throw err
        }),
      ),
    ),
    /** platform.createAddress {username, password}: `{address}`. */
    'platform.createAddress': method(UserPass, (args, _call, origin) => keys.createAddress(args, origin)),
  })
}

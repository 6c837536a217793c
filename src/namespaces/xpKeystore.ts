/**
 * The keystore-backed (deprecated) methods of the X-Chain and the P-Chain: wire name -> params -> the chain's
 * keystore wallet (src/xchain/wallet.ts, src/pchain/wallet.ts), which builds, signs and issues the tx through
 * the same path as issueTx. With the keystore off every user is unknown (an empty keystore), as in
 * nativeKeystore.ts. Every call logs "deprecated API called" once (avalanchego logs it on every call).
 */
import { z } from 'zod'
import type { KeystoreWalletOptions } from '../keystore/userKeys.js'
import { PWallet } from '../pchain/wallet.js'
import type { PChainService } from '../pchain/service.js'
import { Uint64Arg } from '../rpc/avalancheArgs.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { GoString } from '../rpc/gorilla.js'
import { type MethodDef, type MethodTable, method } from '../rpc/types.js'
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

/** The HTTP peer, for the keystore's per-client back-off. */

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

/** `avm.send`, `avm.export`, `avm.import` (avalanchego: vms/avm/service.go). */
export function avmKeystoreMethods(ctx: XPKeystoreContext & { x: XChainService }): MethodTable {
  const wallet = new XWallet(ctx.x, ctx)
  return table(ctx, {
    'avm.send': method(SendArgs, (args, _call, origin) => wallet.send(args, keystoreCaller(origin))),
    'avm.export': method(XExportArgs, (args, _call, origin) => wallet.export(args, keystoreCaller(origin))),
    'avm.import': method(XImportArgs, (args, _call, origin) => wallet.import(args, keystoreCaller(origin))),
  })
}

/** `platform.exportAVAX`, `platform.importAVAX` (avalanchego v1.11.0: vms/platformvm/service.go). */
export function platformKeystoreMethods(ctx: XPKeystoreContext & { p: PChainService }): MethodTable {
  const wallet = new PWallet(ctx.p, ctx)
  return table(ctx, {
    'platform.exportAVAX': method(PExportArgs, (args, _call, origin) => wallet.exportAVAX(args, keystoreCaller(origin))),
    'platform.importAVAX': method(PImportArgs, (args, _call, origin) => wallet.importAVAX(args, keystoreCaller(origin))),
  })
}

/**
 * The keystore-backed (deprecated) methods of the X-Chain and the P-Chain, built with the user's keys and
 * UTXOs and issued through the same path as issueTx:
 * - `avm.send`, `avm.import`, `avm.export` (avalanchego v1.12.1 vms/avm/service.go Send/buildSendMultiple,
 *   buildImport, buildExport; vm.go LoadUser/selectChangeAddr/lookupAssetID; utxo/spender.go Spend/SpendAll),
 *   the X fee (1,000,000 nAVAX locally) paid in AVAX;
 * - `platform.exportAVAX`, `platform.importAVAX` (v1.11.0 vms/platformvm/service.go, the last release serving
 *   them), the Etna dynamic fee: gas of the built tx × the current price.
 * Error texts follow avalanchego. With the keystore off every user is unknown (an empty keystore), as in
 * nativeKeystore.ts. Every call logs "deprecated API called" once (avalanchego logs it on every call).
 */
import { z } from 'zod'
import { Uint64Arg } from '../rpc/avalancheArgs.js'
import { formatLocalAddress, parseExportDestination } from '../avalanche/address.js'
import { utxoInputID } from '../avalanche/avax.js'
import { cb58Decode, cb58Encode } from '../avalanche/cb58.js'
import { AtomicError } from '../atomic/errors.js'
import { AvalancheError } from '../avalanche/errors.js'
import { lookupChainAlias } from '../avalanche/networks.js'
import type { ChainAliases } from '../avalanche/networks.js'
import type { OutputOwners, TransferableInput, TransferableOutput, UTXO } from '../avalanche/types.js'
import { compareTransferableInputs, compareTransferableOutputs } from '../avalanche/compare.js'
import { goQuote } from '../util/goQuote.js'
import { IncorrectPasswordError, KeystoreError, shown } from '../keystore/errors.js'
import type { Keystore } from '../keystore/keystore.js'
import { PVM_TYPE_ID } from '../pchain/codec.js'
import { calculateFee } from '../pchain/fees.js'
import type { PChainService } from '../pchain/service.js'
import type { PVMTransferableInput, PVMTransferableOutput, PVMUTXO, PVMUnsignedTx } from '../pchain/tx.js'
import { decodePVMUTXO, signPVMTx } from '../pchain/tx.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { APIError, GoString } from '../rpc/gorilla.js'
import { keystoreErrorCode } from '../rpc/errors.js'
import type { MethodDef, MethodTable, RequestOrigin } from '../rpc/types.js'
import { method } from '../rpc/types.js'
import { AVM_TYPE_ID } from '../xchain/codec.js'
import { MAX_MEMO_SIZE, decodeAVMUTXO, signAVMTx } from '../xchain/tx.js'
import type { AVMUnsignedTx } from '../xchain/tx.js'
import type { XChainService } from '../xchain/service.js'
import { AVAX_SYMBOL } from '../xchain/genesis.js'
import { ledgerApi } from './ledgerApi.js'

const UINT64_MAX = 0xffffffffffffffffn
/** maxPageSize / maxUTXOsToFetch: an import spends at most this many atomic UTXOs. */
const MAX_IMPORT_UTXOS = 1024

export interface XPKeystoreContext {
  /** undefined when the keystore is off: every user is unknown. */
  readonly keystore: Keystore | undefined
  readonly networkID: number
  readonly chains: ChainAliases
  readonly avaxAssetID: Uint8Array
  readonly deprecated?: DeprecationWarner
  /** Unix seconds (the keychain's time-lock check). */
  now?(): bigint
}

interface Key {
  privateKey: Uint8Array
  shortAddress: Uint8Array
}


const Strings = z.array(GoString).nullish().transform((v) => v ?? [])
/** api.JSONSpendHeader: username, password, from, changeAddr. */
const SpendHeader = { username: GoString, password: GoString, from: Strings, changeAddr: GoString }
const SendArgs = z.object({ ...SpendHeader, amount: Uint64Arg, assetID: GoString, to: GoString, memo: GoString })
const XExportArgs = z.object({ ...SpendHeader, amount: Uint64Arg, targetChain: GoString, to: GoString, assetID: GoString })
const XImportArgs = z.object({ username: GoString, password: GoString, sourceChain: GoString, to: GoString })
const PExportArgs = z.object({ ...SpendHeader, amount: Uint64Arg, targetChain: GoString, to: GoString })
const PImportArgs = z.object({ ...SpendHeader, sourceChain: GoString, to: GoString })

/** The domain error's text; anything else is a bug and propagates. */
function messageOf(err: unknown): string {
  if (err instanceof AvalancheError || err instanceof KeystoreError || err instanceof APIError) return err.message
  throw err
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

function zero(keys: readonly Key[]): void {
  for (const k of keys) k.privateKey.fill(0)
}

/** secp256k1fx Keychain.Match: the first `threshold` owners the keychain holds, unless still time-locked. */
function match(owners: OutputOwners, keys: readonly Key[], now: bigint): { sigIndices: number[]; signers: Uint8Array[] } | undefined {
  if (owners.locktime > now) return undefined
  const sigIndices: number[] = []
  const signers: Uint8Array[] = []
  for (let i = 0; i < owners.addrs.length && sigIndices.length < owners.threshold; i++) {
    const key = keys.find((k) => same(k.shortAddress, owners.addrs[i]!))
    if (key === undefined) continue
    sigIndices.push(i)
    signers.push(key.privateKey)
  }
  return sigIndices.length === owners.threshold ? { sigIndices, signers } : undefined
}

const single = (amount: bigint, to: Uint8Array) => ({ amount, locktime: 0n, threshold: 1, addrs: [to] })

interface Spent {
  ins: TransferableInput[]
  signers: Uint8Array[][]
  spent: Map<string, bigint>
}

/** utxo/spender.go Spend: UTXOs in order until each asset's amount is covered; inputs sorted with their signers. */
function spend(utxos: readonly UTXO[], keys: readonly Key[], amounts: Map<string, bigint>, now: bigint): Spent {
  const spent = new Map<string, bigint>()
  const pairs: { input: TransferableInput; signers: Uint8Array[] }[] = []
  for (const u of utxos) {
    const asset = hexOf(u.assetID)
    const want = amounts.get(asset) ?? 0n
    const have = spent.get(asset) ?? 0n
    if (have >= want) continue
    const m = match(u.out, keys, now)
    if (m === undefined) continue
    const total = have + u.out.amount
    if (total > UINT64_MAX) throw new AtomicError('spent amount overflows uint64')
    spent.set(asset, total)
    pairs.push({ input: { utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: m.sigIndices } }, signers: m.signers })
  }
  for (const [asset, want] of amounts) {
    const have = spent.get(asset) ?? 0n
    if (have < want) throw new AtomicError(`want to spend ${want} of asset ${cb58Encode(Buffer.from(asset, 'hex'))} but only have ${have}`)
  }
  pairs.sort((a, b) => compareTransferableInputs(a.input, b.input))
  return { ins: pairs.map((p) => p.input), signers: pairs.map((p) => p.signers), spent }
}

/** Shared plumbing: the keystore lookup (with avalanchego's wrapping), the from-address keychain. */
function keystoreAccess(ctx: XPKeystoreContext) {
  const caller = (origin: RequestOrigin | undefined) => (origin === undefined ? {} : { client: origin.remoteAddress })
  /** NewUserFromKeystore + GetKeychain: all of the user's keys, or those of `from` (when given). */
  return async (username: string, password: string, from: readonly Uint8Array[], origin: RequestOrigin | undefined): Promise<Key[]> => {
    let keys: Key[]
    try {
      if (ctx.keystore === undefined) throw new IncorrectPasswordError(username)
      keys = await ctx.keystore.keysWithAddresses(username, password, caller(origin))
    } catch (err) {
      throw new APIError(`problem retrieving user ${goQuote(shown(username))}: ${messageOf(err)}`, keystoreErrorCode(err))
    }
    const unique: Key[] = []
    for (const k of keys) {
      const wanted = from.length === 0 || from.some((a) => same(a, k.shortAddress))
      if (wanted && !unique.some((u) => same(u.shortAddress, k.shortAddress))) unique.push(k)
      else k.privateKey.fill(0)
    }
    return unique
  }
}

function deprecatedDef(ctx: XPKeystoreContext, name: string, def: MethodDef): MethodDef {
  if (ctx.deprecated === undefined) return def
  const warn = ctx.deprecated
  return {
    ...def,
    handler: (params, call, origin) => {
      warn(name)
      return def.handler(params, call, origin)
    },
  }
}

/** `avm.send`, `avm.export`, `avm.import`. */
export function avmKeystoreMethods(ctx: XPKeystoreContext & { x: XChainService }): MethodTable {
  const xChainID = ctx.chains.xChainID
  const api = ledgerApi({ networkID: ctx.networkID, chains: ctx.chains, chainID: xChainID, ledger: ctx.x })
  const addrCtx = { networkID: ctx.networkID, chains: ctx.chains }
  const userKeys = keystoreAccess(ctx)
  const now = ctx.now ?? (() => BigInt(Math.floor(Date.now() / 1000)))
  const fee = ctx.x.txFee
  const avax = hexOf(ctx.avaxAssetID)
  const formatX = (addr: Uint8Array): string => formatLocalAddress(addrCtx, xChainID, addr)

  /** lookupAssetID: the `AVAX` alias, else a CB58 ID. */
  const lookupAsset = (text: string): Uint8Array | undefined => {
    if (text === AVAX_SYMBOL || text === cb58Encode(ctx.avaxAssetID)) return ctx.avaxAssetID
    try {
      const id = cb58Decode(text)
      return id.length === 32 ? id : undefined
    } catch {
      return undefined
    }
  }

  /** LoadUser's UTXOs: every UTXO any of the keys owns, once. */
  const userUTXOs = (keys: readonly Key[]): UTXO[] => {
    const seen = new Set<string>()
    const out: UTXO[] = []
    for (const k of keys) {
      for (const u of ctx.x.utxosOf(k.shortAddress)) {
        const id = hexOf(utxoInputID(u.utxoID))
        if (seen.has(id)) continue
        seen.add(id)
        out.push(u)
      }
    }
    return out
  }

  const changeOf = (keys: readonly Key[], text: string, noKeys: string): Uint8Array => {
    if (keys.length === 0) throw new APIError(noKeys)
    if (text === '') return keys[0]!.shortAddress
    try {
      return api.parseAddr(text)
    } catch (err) {
      throw new APIError(`couldn't parse changeAddr: ${messageOf(err)}`)
    }
  }

  const issue = async (utx: AVMUnsignedTx, signers: Uint8Array[][]): Promise<string> => {
    const tx = signAVMTx(utx, signers)
    try {
      return cb58Encode(await ctx.x.issueTx(tx.signedBytes))
    } catch (err) {
      throw new APIError(`problem issuing transaction: ${messageOf(err)}`)
    }
  }

  const base = (outs: TransferableOutput[], ins: TransferableInput[], memo = new Uint8Array(0)) => ({
    networkID: ctx.networkID, blockchainID: xChainID, outs: outs.sort(compareTransferableOutputs), ins, memo,
  })

  /** Change outputs for every asset spent beyond its need. */
  const changeOuts = (spent: Map<string, bigint>, need: Map<string, bigint>, change: Uint8Array): TransferableOutput[] => {
    const outs: TransferableOutput[] = []
    for (const [asset, amount] of spent) {
      const want = need.get(asset) ?? 0n
      if (amount > want) outs.push({ assetID: new Uint8Array(Buffer.from(asset, 'hex')), out: single(amount - want, change) })
    }
    return outs
  }

  const send = method(SendArgs, async (args, _call, origin) => {
    const memo = new Uint8Array(Buffer.from(args.memo, 'utf8'))
    if (memo.length > MAX_MEMO_SIZE) throw new APIError(`max memo length is ${MAX_MEMO_SIZE} but provided memo field is length ${memo.length}`)
    const from = api.parseAddrs(args.from)
    const keys = await userKeys(args.username, args.password, from, origin)
    try {
      const change = changeOf(keys, args.changeAddr, 'from addresses have no keys or funds')
      if (args.amount === 0n) throw new APIError('amount must be positive')
      const assetID = lookupAsset(args.assetID)
      if (assetID === undefined) throw new APIError(`couldn't find asset ${args.assetID}`)
      let to: Uint8Array
      try {
        to = api.parseAddr(args.to)
      } catch (err) {
        throw new APIError(`problem parsing to address ${goQuote(args.to)}: ${messageOf(err)}`)
      }
      const need = new Map<string, bigint>([[hexOf(assetID), args.amount]])
      const withFee = (need.get(avax) ?? 0n) + fee
      if (withFee > UINT64_MAX) throw new APIError('problem calculating required spend amount: overflow')
      need.set(avax, withFee)
      let s: Spent
      try {
        s = spend(userUTXOs(keys), keys, need, now())
      } catch (err) {
        throw new APIError(messageOf(err))
      }
      const outs = [{ assetID, out: single(args.amount, to) }, ...changeOuts(s.spent, need, change)]
      const txID = await issue({ typeID: AVM_TYPE_ID.BaseTx, ...base(outs, s.ins, memo) }, s.signers)
      return { txID, changeAddr: formatX(change) }
    } finally {
      zero(keys)
    }
  })

  const exportDef = method(XExportArgs, async (args, _call, origin) => {
    const assetID = lookupAsset(args.assetID)
    if (assetID === undefined) throw new APIError(`asset '${args.assetID}' not found`)
    let chainID: Uint8Array
    let to: Uint8Array
    try {
      ({ chainID, address: to } = parseExportDestination(addrCtx, args.to, args.targetChain))
    } catch (err) {
      throw new APIError(messageOf(err))
    }
    if (args.amount === 0n) throw new APIError('amount must be positive')
    const from = api.parseAddrs(args.from)
    const keys = await userKeys(args.username, args.password, from, origin)
    try {
      const change = changeOf(keys, args.changeAddr, 'from addresses have no keys or funds')
      const need = new Map<string, bigint>()
      if (same(assetID, ctx.avaxAssetID)) {
        if (args.amount + fee > UINT64_MAX) throw new APIError('problem calculating required spend amount: overflow')
        need.set(avax, args.amount + fee)
      } else {
        need.set(avax, fee)
        need.set(hexOf(assetID), args.amount)
      }
      let s: Spent
      try {
        s = spend(userUTXOs(keys), keys, need, now())
      } catch (err) {
        throw new APIError(messageOf(err))
      }
      const exportedOuts = [{ assetID, out: single(args.amount, to) }]
      const txID = await issue({
        typeID: AVM_TYPE_ID.ExportTx, ...base(changeOuts(s.spent, need, change), s.ins), destinationChain: chainID, exportedOuts,
      }, s.signers)
      return { txID, changeAddr: formatX(change) }
    } finally {
      zero(keys)
    }
  })

  const importDef = method(XImportArgs, async (args, _call, origin) => {
    let sourceChain: Uint8Array
    try {
      sourceChain = lookupChainAlias(ctx.chains, args.sourceChain)
    } catch (err) {
      throw new APIError(`problem parsing chainID ${goQuote(args.sourceChain)}: ${messageOf(err)}`)
    }
    let to: Uint8Array
    try {
      to = api.parseAddr(args.to)
    } catch (err) {
      throw new APIError(`problem parsing to address ${goQuote(args.to)}: ${messageOf(err)}`)
    }
    const keys = await userKeys(args.username, args.password, [], origin)
    try {
      let atomic: UTXO[] = []
      if (keys.length > 0) {
        try {
          atomic = ctx.x.getAtomicUTXOs(sourceChain, keys.map((k) => k.shortAddress), new Uint8Array(20), new Uint8Array(32), MAX_IMPORT_UTXOS).utxos.map(decodeAVMUTXO)
        } catch (err) {
          throw new APIError(`problem retrieving user's atomic UTXOs: ${messageOf(err)}`)
        }
      }
      // SpendAll: every atomic UTXO the keys can spend.
      const t = now()
      const imported: { input: TransferableInput; signers: Uint8Array[] }[] = []
      const amounts = new Map<string, bigint>()
      for (const u of atomic) {
        const m = match(u.out, keys, t)
        if (m === undefined) continue
        const asset = hexOf(u.assetID)
        const total = (amounts.get(asset) ?? 0n) + u.out.amount
        if (total > UINT64_MAX) throw new APIError('spent amount overflows uint64')
        amounts.set(asset, total)
        imported.push({ input: { utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: m.sigIndices } }, signers: m.signers })
      }
      imported.sort((a, b) => compareTransferableInputs(a.input, b.input))
      let local: Spent = { ins: [], signers: [], spent: new Map() }
      const importedAVAX = amounts.get(avax) ?? 0n
      if (importedAVAX < fee) {
        try {
          local = spend(userUTXOs(keys), keys, new Map([[avax, fee - importedAVAX]]), t)
        } catch (err) {
          throw new APIError(messageOf(err))
        }
        for (const [asset, amount] of local.spent) amounts.set(asset, (amounts.get(asset) ?? 0n) + amount)
      }
      amounts.set(avax, (amounts.get(avax) ?? 0n) - fee)
      const outs: TransferableOutput[] = []
      for (const [asset, amount] of amounts) if (amount > 0n) outs.push({ assetID: new Uint8Array(Buffer.from(asset, 'hex')), out: single(amount, to) })
      const txID = await issue({
        typeID: AVM_TYPE_ID.ImportTx, ...base(outs, local.ins), sourceChain, importedIns: imported.map((p) => p.input),
      }, [...local.signers, ...imported.map((p) => p.signers)])
      return { txID }
    } finally {
      zero(keys)
    }
  })

  return {
    'avm.send': deprecatedDef(ctx, 'avm.send', send),
    'avm.export': deprecatedDef(ctx, 'avm.export', exportDef),
    'avm.import': deprecatedDef(ctx, 'avm.import', importDef),
  }
}

/** `platform.exportAVAX`, `platform.importAVAX`. */
export function platformKeystoreMethods(ctx: XPKeystoreContext & { p: PChainService }): MethodTable {
  const pChainID = ctx.chains.pChainID
  const api = ledgerApi({ networkID: ctx.networkID, chains: ctx.chains, chainID: pChainID, ledger: ctx.p })
  const addrCtx = { networkID: ctx.networkID, chains: ctx.chains }
  const userKeys = keystoreAccess(ctx)
  const now = ctx.now ?? (() => BigInt(Math.floor(Date.now() / 1000)))
  const avaxID = ctx.avaxAssetID

  /** The user's unlocked AVAX UTXOs on P (an expired stakeable lock spends as a plain input). */
  const spendable = (keys: readonly Key[], t: bigint): { utxo: PVMUTXO; sigIndices: number[]; signers: Uint8Array[] }[] => {
    const seen = new Set<string>()
    const out: { utxo: PVMUTXO; sigIndices: number[]; signers: Uint8Array[] }[] = []
    for (const k of keys) {
      for (const u of ctx.p.utxosOf(k.shortAddress)) {
        const id = hexOf(utxoInputID(u.utxoID))
        if (seen.has(id)) continue
        seen.add(id)
        if (!same(u.assetID, avaxID) || (u.locktime !== undefined && u.locktime > t)) continue
        const m = match(u.out, keys, t)
        if (m !== undefined) out.push({ utxo: u, ...m })
      }
    }
    return out
  }

  const changeOf = (keys: readonly Key[], text: string): Uint8Array => {
    if (keys.length === 0) throw new APIError('couldn\'t create tx: user has no keys or funds')
    if (text === '') return keys[0]!.shortAddress
    try {
      return api.parseAddr(text)
    } catch (err) {
      throw new APIError(`couldn't create tx: couldn't parse changeAddr: ${messageOf(err)}`)
    }
  }

  const toInput = (c: { utxo: PVMUTXO; sigIndices: number[] }): PVMTransferableInput => ({
    utxoID: c.utxo.utxoID, assetID: c.utxo.assetID, in: { amount: c.utxo.out.amount, sigIndices: c.sigIndices },
  })

  /**
   * Picks local inputs until they cover `needed` plus the dynamic fee of the tx `build` makes of them
   * (with a change output when there is change); returns the tx and its signers.
   */
  const fund = (
    candidates: ReturnType<typeof spendable>, needed: bigint, extraIn: bigint, change: Uint8Array,
    build: (ins: PVMTransferableInput[], changeOut: PVMTransferableOutput[]) => PVMUnsignedTx,
  ): { utx: PVMUnsignedTx; localSigners: Uint8Array[][] } => {
    const price = ctx.p.price()
    const chosen: typeof candidates = []
    let consumed = extraIn
    const attempt = (): { utx: PVMUnsignedTx; localSigners: Uint8Array[][] } | undefined => {
      const sorted = [...chosen].sort((a, b) => compareTransferableInputs(toInput(a), toInput(b)))
      const ins = sorted.map(toInput)
      const signers = sorted.map((c) => c.signers)
      const placeholder: PVMTransferableOutput = { assetID: avaxID, out: single(1n, change) }
      const feeWithChange = calculateFee(build(ins, [placeholder]), price)
      if (consumed > needed + feeWithChange) {
        return { utx: build(ins, [{ assetID: avaxID, out: single(consumed - needed - feeWithChange, change) }]), localSigners: signers }
      }
      const feeNoChange = calculateFee(build(ins, []), price)
      if (consumed >= needed + feeNoChange) return { utx: build(ins, []), localSigners: signers }
      return undefined
    }
    let done = attempt()
    for (const c of candidates) {
      if (done !== undefined) break
      chosen.push(c)
      consumed += c.utxo.out.amount
      done = attempt()
    }
    if (done === undefined) {
      const fee = calculateFee(build(chosen.map(toInput), []), price)
      throw new APIError(`couldn't create tx: couldn't generate tx inputs/outputs: provided keys have balance (unlocked, locked) (${consumed - extraIn}, 0) but need (${needed + fee - extraIn}, 0)`)
    }
    return done
  }

  const issue = async (utx: PVMUnsignedTx, signers: Uint8Array[][]): Promise<string> => {
    const tx = signPVMTx(utx, signers)
    try {
      return cb58Encode(await ctx.p.issueTx(tx.signedBytes))
    } catch (err) {
      throw new APIError(messageOf(err))
    }
  }

  const base = { networkID: ctx.networkID, blockchainID: pChainID, memo: new Uint8Array(0) }
  const sortOuts = (outs: PVMTransferableOutput[]): PVMTransferableOutput[] => outs.sort((a, b) => compareTransferableOutputs(a, b))

  const exportDef = method(PExportArgs, async (args, _call, origin) => {
    if (args.amount === 0n) throw new APIError("couldn't create tx: argument 'amount' must be > 0")
    let chainID: Uint8Array
    let to: Uint8Array
    try {
      ({ chainID, address: to } = parseExportDestination(addrCtx, args.to, args.targetChain))
    } catch (err) {
      throw new APIError(`couldn't create tx: ${messageOf(err)}`)
    }
    const from = api.parseAddrs(args.from)
    const keys = await userKeys(args.username, args.password, from, origin).catch((err: unknown) => {
      throw new APIError(`couldn't create tx: ${messageOf(err)}`)
    })
    try {
      const change = changeOf(keys, args.changeAddr)
      const exportedOutputs = [{ assetID: avaxID, out: single(args.amount, to) }]
      const { utx, localSigners } = fund(spendable(keys, now()), args.amount, 0n, change, (ins, changeOut) => ({
        typeID: PVM_TYPE_ID.ExportTx, ...base, outs: sortOuts(changeOut), ins, destinationChain: chainID, exportedOutputs,
      }))
      const txID = await issue(utx, localSigners)
      return { txID, changeAddr: formatLocalAddress(addrCtx, pChainID, change) }
    } finally {
      zero(keys)
    }
  })

  const importDef = method(PImportArgs, async (args, _call, origin) => {
    let sourceChain: Uint8Array
    try {
      sourceChain = lookupChainAlias(ctx.chains, args.sourceChain)
    } catch (err) {
      throw new APIError(`couldn't create tx: problem parsing chainID ${goQuote(args.sourceChain)}: ${messageOf(err)}`)
    }
    let to: Uint8Array
    try {
      to = api.parseAddr(args.to)
    } catch (err) {
      throw new APIError(`couldn't create tx: couldn't parse argument 'to' to an address: ${messageOf(err)}`)
    }
    const from = api.parseAddrs(args.from)
    const keys = await userKeys(args.username, args.password, from, origin).catch((err: unknown) => {
      throw new APIError(`couldn't create tx: ${messageOf(err)}`)
    })
    try {
      const change = changeOf(keys, args.changeAddr)
      const t = now()
      let atomic: PVMUTXO[]
      try {
        atomic = ctx.p.getAtomicUTXOs(sourceChain, keys.map((k) => k.shortAddress), new Uint8Array(20), new Uint8Array(32), MAX_IMPORT_UTXOS).utxos.map(decodePVMUTXO)
      } catch (err) {
        throw new APIError(`couldn't create tx: problem retrieving atomic UTXOs: ${messageOf(err)}`)
      }
      const imported: { input: PVMTransferableInput; signers: Uint8Array[] }[] = []
      let importedAmount = 0n
      for (const u of atomic) {
        if (!same(u.assetID, avaxID) || u.locktime !== undefined) continue
        const m = match(u.out, keys, t)
        if (m === undefined) continue
        importedAmount += u.out.amount
        imported.push({ input: { utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: m.sigIndices } }, signers: m.signers })
      }
      if (imported.length === 0) throw new APIError("couldn't create tx: no spendable funds were found")
      imported.sort((a, b) => compareTransferableInputs(a.input, b.input))
      const importedInputs = imported.map((p) => p.input)
      const price = ctx.p.price()
      const build = (ins: PVMTransferableInput[], outs: PVMTransferableOutput[]): PVMUnsignedTx => ({
        typeID: PVM_TYPE_ID.ImportTx, ...base, outs: sortOuts(outs), ins, sourceChain, importedInputs,
      })
      // The imported AVAX pays the fee when it can; the rest goes to `to`.
      let utx = build([], [{ assetID: avaxID, out: single(1n, to) }])
      let localSigners: Uint8Array[][] = []
      const fee = calculateFee(utx, price)
      if (importedAmount > fee) {
        utx = build([], [{ assetID: avaxID, out: single(importedAmount - fee, to) }])
      } else {
        // Not enough to pay for itself: local funds pay the fee, everything imported goes to `to`.
        const toOut: PVMTransferableOutput = { assetID: avaxID, out: single(importedAmount, to) }
        ;({ utx, localSigners } = fund(spendable(keys, t), importedAmount, importedAmount, change, (ins, changeOut) => build(ins, [toOut, ...changeOut])))
      }
      const txID = await issue(utx, [...localSigners, ...imported.map((p) => p.signers)])
      return { txID, changeAddr: formatLocalAddress(addrCtx, pChainID, change) }
    } finally {
      zero(keys)
    }
  })

  return {
    'platform.exportAVAX': deprecatedDef(ctx, 'platform.exportAVAX', exportDef),
    'platform.importAVAX': deprecatedDef(ctx, 'platform.importAVAX', importDef),
  }
}

/**
 * The X-Chain's keystore wallet: `avm.send`, `avm.export` and `avm.import` built from a keystore user's keys
 * and UTXOs, signed and issued (avalanchego v1.12.1: vms/avm/service.go Send/buildSendMultiple, buildImport,
 * buildExport; vms/avm/vm.go LoadUser/selectChangeAddr/lookupAssetID). The fee (txFee, 1,000,000 nAVAX
 * locally) is paid in AVAX. Checks run in avalanchego's order; every failure is a domain error whose
 * message is avalanchego's text.
 */
import { parseExportDestination } from '../avalanche/address.js'
import { utxoInputID } from '../avalanche/avax.js'
import { cb58Decode, cb58Encode } from '../avalanche/cb58.js'
import type { KeyPair } from '../avalanche/keychain.js'
import { lookupChainAlias } from '../avalanche/networks.js'
import { ChainWallet, MAX_IMPORT_UTXOS, WalletError, inContext, payTo, withKeys, type SpendHeader, type UserArgs } from '../avalanche/wallet.js'
import type { TransferableInput, TransferableOutput, UTXO } from '../avalanche/types.js'
import { compareTransferableOutputs } from '../avalanche/compare.js'
import { avaxKeySpace } from '../keystore/chainKeys.js'
import { shown } from '../keystore/errors.js'
import type { KeystoreCaller } from '../keystore/keystore.js'
import { userKeys, type KeystoreWalletOptions } from '../keystore/userKeys.js'
import { goQuote } from '../util/goQuote.js'
import { AVM_TYPE_ID } from './codec.js'
import { AVAX_SYMBOL } from './genesis.js'
import type { XChainService } from './service.js'
import { assetKey, changeOutputs, outputsTo, spend, spendAll, type AssetAmounts, type Spent } from './spend.js'
import { MAX_MEMO_SIZE, decodeAVMUTXO, signAVMTx, type AVMUnsignedTx } from './tx.js'

const UINT64_MAX = 0xffffffffffffffffn

export interface SendArgs extends SpendHeader {
  amount: bigint
  assetID: string
  to: string
  memo: string
}
export interface ExportArgs extends SpendHeader {
  amount: bigint
  targetChain: string
  to: string
  assetID: string
}
export interface ImportArgs extends UserArgs {
  sourceChain: string
  to: string
}

/** Builds, signs and issues the keystore-backed X-Chain transactions of one node. */
export class XWallet extends ChainWallet {
  private readonly avax: string

  constructor(
    private readonly x: XChainService,
    private readonly opts: KeystoreWalletOptions,
  ) {
    super(opts, opts.chains.xChainID)
    this.avax = assetKey(opts.avaxAssetID)
  }

  /** `avm.send`: `amount` of an asset to `to`, the change to `changeAddr` (else the first key). */
  async send(args: SendArgs, caller: KeystoreCaller): Promise<{ txID: string; changeAddr: string }> {
    const memo = new Uint8Array(Buffer.from(args.memo, 'utf8'))
    if (memo.length > MAX_MEMO_SIZE) throw new WalletError(`max memo length is ${MAX_MEMO_SIZE} but provided memo field is length ${memo.length}`)
    const keys = await this.keys(args, this.parseFrom(args.from), caller)
    return withKeys(keys, async () => {
      const change = this.changeOf(keys, args.changeAddr)
      if (args.amount === 0n) throw new WalletError('amount must be positive')
      const assetID = this.lookupAsset(args.assetID)
      if (assetID === undefined) throw new WalletError(`couldn't find asset ${args.assetID}`)
      const to = inContext(`problem parsing to address ${goQuote(args.to)}: `, () => this.parseAddr(args.to))
      const need: AssetAmounts = new Map([[assetKey(assetID), args.amount]])
      this.addFee(need, need.get(this.avax) ?? 0n)
      const s = spend(this.userUTXOs(keys), keys, need, this.now())
      const outs = [{ assetID, out: payTo(args.amount, to) }, ...changeOutputs(s.spent, need, change)]
      const txID = await this.issue({ typeID: AVM_TYPE_ID.BaseTx, ...this.base(outs, s.ins, memo) }, s.signers)
      return { txID, changeAddr: this.formatAddr(change) }
    })
  }

  /** `avm.export`: `amount` of an asset to `to` on `targetChain` (or the chain `to` names). */
  async export(args: ExportArgs, caller: KeystoreCaller): Promise<{ txID: string; changeAddr: string }> {
    const assetID = this.lookupAsset(args.assetID)
    if (assetID === undefined) throw new WalletError(`asset '${args.assetID}' not found`)
    const { chainID, address: to } = parseExportDestination(this.addrs, args.to, args.targetChain)
    if (args.amount === 0n) throw new WalletError('amount must be positive')
    const keys = await this.keys(args, this.parseFrom(args.from), caller)
    return withKeys(keys, async () => {
      const change = this.changeOf(keys, args.changeAddr)
      const need: AssetAmounts = new Map()
      if (assetKey(assetID) === this.avax) {
        this.addFee(need, args.amount)
      } else {
        this.addFee(need, 0n)
        need.set(assetKey(assetID), args.amount)
      }
      const s = spend(this.userUTXOs(keys), keys, need, this.now())
      const txID = await this.issue(
        {
          typeID: AVM_TYPE_ID.ExportTx,
          ...this.base(changeOutputs(s.spent, need, change), s.ins),
          destinationChain: chainID,
          exportedOuts: [{ assetID, out: payTo(args.amount, to) }],
        },
        s.signers,
      )
      return { txID, changeAddr: this.formatAddr(change) }
    })
  }

  /** `avm.import`: every atomic UTXO from `sourceChain` the user's keys can spend, less the fee, to `to`. */
  async import(args: ImportArgs, caller: KeystoreCaller): Promise<{ txID: string }> {
    const sourceChain = inContext(`problem parsing chainID ${goQuote(args.sourceChain)}: `, () => lookupChainAlias(this.opts.chains, args.sourceChain))
    const to = inContext(`problem parsing to address ${goQuote(args.to)}: `, () => this.parseAddr(args.to))
    const keys = await this.keys(args, [], caller)
    return withKeys(keys, async () => {
      const fee = this.x.txFee
      const atomic =
        keys.length === 0
          ? []
          : inContext("problem retrieving user's atomic UTXOs: ", () =>
              this.x
                .getAtomicUTXOs(
                  sourceChain,
                  keys.map((k) => k.shortAddress),
                  new Uint8Array(20),
                  new Uint8Array(32),
                  MAX_IMPORT_UTXOS,
                )
                .utxos.map(decodeAVMUTXO),
            )
      const t = this.now()
      const imported = spendAll(atomic, keys, t)
      const amounts = new Map(imported.spent)
      const importedAVAX = amounts.get(this.avax) ?? 0n
      // The imported AVAX pays the fee when it can; local UTXOs pay the rest.
      let local: Spent = { ins: [], signers: [], spent: new Map() }
      if (importedAVAX < fee) {
        local = spend(this.userUTXOs(keys), keys, new Map([[this.avax, fee - importedAVAX]]), t)
        for (const [asset, amount] of local.spent) amounts.set(asset, (amounts.get(asset) ?? 0n) + amount)
      }
      amounts.set(this.avax, (amounts.get(this.avax) ?? 0n) - fee)
      const txID = await this.issue(
        {
          typeID: AVM_TYPE_ID.ImportTx,
          ...this.base(outputsTo(amounts, to), local.ins),
          sourceChain,
          importedIns: imported.ins,
        },
        [...local.signers, ...imported.signers],
      )
      return { txID }
    })
  }

  /** The user's keys (LoadUser), with avalanchego's `problem retrieving user` context on failure. */
  private keys(args: UserArgs, from: readonly Uint8Array[], caller: KeystoreCaller): Promise<KeyPair[]> {
    return userKeys(this.opts.keystore, avaxKeySpace(this.chainID), args.username, args.password, from, caller, `problem retrieving user ${goQuote(shown(args.username))}: `)
  }

  /** Adds the fee to the AVAX `need` (on top of `amount`); uint64 overflow is refused. */
  private addFee(need: AssetAmounts, amount: bigint): void {
    const total = amount + this.x.txFee
    if (total > UINT64_MAX) throw new WalletError('problem calculating required spend amount: overflow')
    need.set(this.avax, total)
  }

  /** selectChangeAddr: `changeAddr`, else the first key's address. */
  private changeOf(keys: readonly KeyPair[], text: string): Uint8Array {
    if (keys.length === 0) throw new WalletError('from addresses have no keys or funds')
    if (text === '') return keys[0]!.shortAddress
    return inContext("couldn't parse changeAddr: ", () => this.parseAddr(text))
  }

  /** lookupAssetID: the `AVAX` alias, else a CB58 ID. */
  private lookupAsset(text: string): Uint8Array | undefined {
    if (text === AVAX_SYMBOL || text === cb58Encode(this.opts.avaxAssetID)) return this.opts.avaxAssetID
    try {
      const id = cb58Decode(text)
      return id.length === 32 ? id : undefined
    } catch {
      return undefined
    }
  }

  /** LoadUser's UTXOs: every UTXO any of the keys owns, once. */
  private userUTXOs(keys: readonly KeyPair[]): UTXO[] {
    const seen = new Set<string>()
    const out: UTXO[] = []
    for (const k of keys) {
      for (const u of this.x.utxosOf(k.shortAddress)) {
        const id = assetKey(utxoInputID(u.utxoID))
        if (seen.has(id)) continue
        seen.add(id)
        out.push(u)
      }
    }
    return out
  }

  private base(outs: TransferableOutput[], ins: TransferableInput[], memo = new Uint8Array(0)) {
    return { networkID: this.opts.networkID, blockchainID: this.chainID, outs: outs.sort(compareTransferableOutputs), ins, memo }
  }

  private issue(utx: AVMUnsignedTx, signers: Uint8Array[][]): Promise<string> {
    const tx = signAVMTx(utx, signers)
    return inContext('problem issuing transaction: ', async () => cb58Encode(await this.x.issueTx(tx.signedBytes)))
  }
}

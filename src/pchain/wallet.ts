/**
 * The P-Chain's keystore wallet: `platform.exportAVAX` and `platform.importAVAX` built from a keystore user's
 * keys and UTXOs, signed and issued (avalanchego v1.11.0: vms/platformvm/service.go, the last release serving
 * them). The fee is the Etna dynamic fee: the gas of the built tx times the current price. Checks run in
 * avalanchego's order; every failure is a domain error whose message is avalanchego's text.
 */
import { parseExportDestination } from '../avalanche/address.js'
import { utxoInputID } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { matchOwners, type KeyMatch, type KeyPair } from '../avalanche/keychain.js'
import { lookupChainAlias } from '../avalanche/networks.js'
import { ChainWallet, MAX_IMPORT_UTXOS, WalletError, inContext, payTo, withKeys, type SpendHeader } from '../avalanche/wallet.js'
import { compareTransferableInputs, compareTransferableOutputs } from '../avalanche/compare.js'
import { avaxKeySpace } from '../keystore/chainKeys.js'
import { shown } from '../keystore/errors.js'
import type { KeystoreCaller } from '../keystore/keystore.js'
import { userKeys, type KeystoreWalletOptions } from '../keystore/userKeys.js'
import { goQuote } from '../util/goQuote.js'
import { PVM_TYPE_ID } from './codec.js'
import { calculateFee } from './fees.js'
import type { PChainService } from './service.js'
import { type PVMTransferableInput, type PVMTransferableOutput, type PVMUTXO, type PVMUnsignedTx, decodePVMUTXO, signPVMTx } from './tx.js'

export interface ExportAVAXArgs extends SpendHeader {
  amount: bigint
  targetChain: string
  to: string
}
export interface ImportAVAXArgs extends SpendHeader {
  sourceChain: string
  to: string
}

/** avalanchego's prefix of every P-Chain build failure. */
const CREATE = "couldn't create tx: "

/** A UTXO the user's keys can spend now, with the match. */
export type Spendable = { utxo: PVMUTXO } & KeyMatch

/** A built tx and the signers of its local inputs, in input order. */
export interface Funded {
  utx: PVMUnsignedTx
  localSigners: Uint8Array[][]
}

const toInput = (c: Spendable): PVMTransferableInput => ({
  utxoID: c.utxo.utxoID,
  assetID: c.utxo.assetID,
  in: { amount: c.utxo.out.amount, sigIndices: c.sigIndices },
})
const sortOuts = (outs: PVMTransferableOutput[]): PVMTransferableOutput[] => outs.sort((a, b) => compareTransferableOutputs(a, b))

/**
 * Coin selection under the dynamic fee: takes `candidates` in order until they (with `extraIn` already consumed)
 * cover `needed` plus the fee of the tx `build` makes of them, with a change output to `change` when there is
 * change. Throws avalanchego's `provided keys have balance ... but need ...` when they never do.
 */
export function fund(
  candidates: readonly Spendable[],
  needed: bigint,
  extraIn: bigint,
  change: Uint8Array,
  avaxAssetID: Uint8Array,
  price: bigint,
  build: (ins: PVMTransferableInput[], changeOut: PVMTransferableOutput[]) => PVMUnsignedTx,
): Funded {
  const chosen: Spendable[] = []
  let consumed = extraIn
  const attempt = (): Funded | undefined => {
    const sorted = [...chosen].sort((a, b) => compareTransferableInputs(toInput(a), toInput(b)))
    const ins = sorted.map(toInput)
    const localSigners = sorted.map((c) => c.signers)
    const placeholder: PVMTransferableOutput = { assetID: avaxAssetID, out: payTo(1n, change) }
    const feeWithChange = calculateFee(build(ins, [placeholder]), price)
    if (consumed > needed + feeWithChange) {
      return { utx: build(ins, [{ assetID: avaxAssetID, out: payTo(consumed - needed - feeWithChange, change) }]), localSigners }
    }
    const feeNoChange = calculateFee(build(ins, []), price)
    if (consumed >= needed + feeNoChange) return { utx: build(ins, []), localSigners }
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
    throw new WalletError(`${CREATE}couldn't generate tx inputs/outputs: provided keys have balance (unlocked, locked) (${consumed - extraIn}, 0) but need (${needed + fee - extraIn}, 0)`)
  }
  return done
}

/** Builds, signs and issues the keystore-backed P-Chain transactions of one node. */
export class PWallet extends ChainWallet {
  constructor(
    private readonly p: PChainService,
    private readonly opts: KeystoreWalletOptions,
  ) {
    super(opts, opts.chains.pChainID)
  }

  /** `platform.exportAVAX`: `amount` nAVAX to `to` on `targetChain` (or the chain `to` names). */
  async exportAVAX(args: ExportAVAXArgs, caller: KeystoreCaller): Promise<{ txID: string; changeAddr: string }> {
    if (args.amount === 0n) throw new WalletError(`${CREATE}argument 'amount' must be > 0`)
    const { chainID, address: to } = inContext(CREATE, () => parseExportDestination(this.addrs, args.to, args.targetChain))
    const keys = await this.keys(args, caller)
    return withKeys(keys, async () => {
      const change = this.changeOf(keys, args.changeAddr)
      const exportedOutputs = [{ assetID: this.opts.avaxAssetID, out: payTo(args.amount, to) }]
      const { utx, localSigners } = fund(this.spendable(keys, this.now()), args.amount, 0n, change, this.opts.avaxAssetID, this.p.price(), (ins, changeOut) => ({
        typeID: PVM_TYPE_ID.ExportTx,
        ...this.base(),
        outs: sortOuts(changeOut),
        ins,
        destinationChain: chainID,
        exportedOutputs,
      }))
      const txID = await this.issue(utx, localSigners)
      return { txID, changeAddr: this.formatAddr(change) }
    })
  }

  /** `platform.importAVAX`: the AVAX exported to P from `sourceChain` to the user's keys, less the fee, to `to`. */
  async importAVAX(args: ImportAVAXArgs, caller: KeystoreCaller): Promise<{ txID: string; changeAddr: string }> {
    const sourceChain = inContext(`${CREATE}problem parsing chainID ${goQuote(args.sourceChain)}: `, () => lookupChainAlias(this.opts.chains, args.sourceChain))
    const to = inContext(`${CREATE}couldn't parse argument 'to' to an address: `, () => this.parseAddr(args.to))
    const keys = await this.keys(args, caller)
    return withKeys(keys, async () => {
      const change = this.changeOf(keys, args.changeAddr)
      const t = this.now()
      const atomic = inContext(`${CREATE}problem retrieving atomic UTXOs: `, () =>
        this.p
          .getAtomicUTXOs(
            sourceChain,
            keys.map((k) => k.shortAddress),
            new Uint8Array(20),
            new Uint8Array(32),
            MAX_IMPORT_UTXOS,
          )
          .utxos.map(decodePVMUTXO),
      )
      const imported: Spendable[] = []
      let importedAmount = 0n
      for (const u of atomic) {
        if (!this.isAVAX(u) || u.locktime !== undefined) continue
        const m = matchOwners(u.out, keys, t)
        if (m === undefined) continue
        importedAmount += u.out.amount
        imported.push({ utxo: u, ...m })
      }
      if (imported.length === 0) throw new WalletError(`${CREATE}no spendable funds were found`)
      imported.sort((a, b) => compareTransferableInputs(toInput(a), toInput(b)))
      const importedInputs = imported.map(toInput)
      const price = this.p.price()
      const build = (ins: PVMTransferableInput[], outs: PVMTransferableOutput[]): PVMUnsignedTx => ({
        typeID: PVM_TYPE_ID.ImportTx,
        ...this.base(),
        outs: sortOuts(outs),
        ins,
        sourceChain,
        importedInputs,
      })
      const avaxID = this.opts.avaxAssetID
      // The imported AVAX pays the fee when it can; the rest goes to `to`.
      let funded: Funded = { utx: build([], [{ assetID: avaxID, out: payTo(1n, to) }]), localSigners: [] }
      const fee = calculateFee(funded.utx, price)
      if (importedAmount > fee) {
        funded = { utx: build([], [{ assetID: avaxID, out: payTo(importedAmount - fee, to) }]), localSigners: [] }
      } else {
        // Not enough to pay for itself: local funds pay the fee, everything imported goes to `to`.
        const toOut: PVMTransferableOutput = { assetID: avaxID, out: payTo(importedAmount, to) }
        funded = fund(this.spendable(keys, t), importedAmount, importedAmount, change, avaxID, price, (ins, changeOut) => build(ins, [toOut, ...changeOut]))
      }
      const txID = await this.issue(funded.utx, [...funded.localSigners, ...imported.map((c) => c.signers)])
      return { txID, changeAddr: this.formatAddr(change) }
    })
  }

  /**
   * The user's keys for `from`. A keystore failure keeps its class (a throttled client answers -32005, as on every
   * keystore-backed method: docs/SECURITY.md, K5) under avalanchego's context `couldn't create tx: problem retrieving user`.
   */
  private keys(args: SpendHeader, caller: KeystoreCaller): Promise<KeyPair[]> {
    return userKeys(
      this.opts.keystore,
      avaxKeySpace(this.chainID),
      args.username,
      args.password,
      this.parseFrom(args.from),
      caller,
      `${CREATE}problem retrieving user ${goQuote(shown(args.username))}: `,
    )
  }

  private isAVAX(u: PVMUTXO): boolean {
    return Buffer.compare(u.assetID, this.opts.avaxAssetID) === 0
  }

  /** The user's unlocked AVAX UTXOs on P (an expired stakeable lock spends as a plain input), each once. */
  private spendable(keys: readonly KeyPair[], t: bigint): Spendable[] {
    const seen = new Set<string>()
    const out: Spendable[] = []
    for (const k of keys) {
      for (const u of this.p.utxosOf(k.shortAddress)) {
        const id = Buffer.from(utxoInputID(u.utxoID)).toString('hex')
        if (seen.has(id)) continue
        seen.add(id)
        if (!this.isAVAX(u) || (u.locktime !== undefined && u.locktime > t)) continue
        const m = matchOwners(u.out, keys, t)
        if (m !== undefined) out.push({ utxo: u, ...m })
      }
    }
    return out
  }

  /** `changeAddr`, else the first key's address. */
  private changeOf(keys: readonly KeyPair[], text: string): Uint8Array {
    if (keys.length === 0) throw new WalletError(`${CREATE}user has no keys or funds`)
    if (text === '') return keys[0]!.shortAddress
    return inContext(`${CREATE}couldn't parse changeAddr: `, () => this.parseAddr(text))
  }

  private base() {
    return { networkID: this.opts.networkID, blockchainID: this.chainID, memo: new Uint8Array(0) }
  }

  private issue(utx: PVMUnsignedTx, signers: Uint8Array[][]): Promise<string> {
    const tx = signPVMTx(utx, signers)
    return inContext('', async () => cb58Encode(await this.p.issueTx(tx.signedBytes)))
  }
}

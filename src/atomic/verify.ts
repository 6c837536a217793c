/**
 * Syntactic verification of atomic txs (coreth atomic/{import_tx,export_tx}.go Verify; sort orders: avalanchego vms/components/avax/transferables.go).
 * Checks run in coreth's order; the first failure is thrown as an VerifyError with coreth's text.
 */
import { utxoInputID } from '../avalanche/avax.js'
import { CodecWriter, TYPE_ID } from '../avalanche/codec.js'
import { VerifyError } from '../avalanche/errors.js'
import { PLATFORM_CHAIN_ID } from '../avalanche/networks.js'
import { writeTransferOutput } from '../avalanche/secp256k1fx.js'
import type { EVMInput, EVMOutput, OutputOwners, TransferableInput, TransferableOutput, TransferInput, TransferOutput, UnsignedAtomicTx, UnsignedExportTx, UnsignedImportTx } from './types.js'

/** The upgrades that change the rules; a local network has all of them from genesis. */
export interface AtomicRules {
  isApricotPhase1: boolean
  isApricotPhase2: boolean
  isApricotPhase3: boolean
  isApricotPhase5: boolean
  isBanff: boolean
}

export const CURRENT_RULES: AtomicRules = { isApricotPhase1: true, isApricotPhase2: true, isApricotPhase3: true, isApricotPhase5: true, isBanff: true }

/** The C-Chain's snow.Context as Verify reads it. */
export interface VerifyContext {
  networkID: number
  /** this chain (the C-Chain) */
  chainID: Uint8Array
  xChainID: Uint8Array
  avaxAssetID: Uint8Array
  /** chains of the same subnet (verify.SameSubnet); default X and P */
  peerChainIDs?: readonly Uint8Array[]
  rules?: AtomicRules
}

function fail(message: string): never {
  throw new VerifyError(message)
}

/** bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b)
}

const isEmptyID = (id: Uint8Array): boolean => id.every((b) => b === 0)
const sameID = (a: Uint8Array, b: Uint8Array): boolean => compareBytes(a, b) === 0

/** utils.IsSortedAndUnique / slices.IsSortedFunc over a comparator. */
export function isSorted<T>(items: readonly T[], compare: (a: T, b: T) => number, strict: boolean): boolean {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]!, items[i]!)
    if (c > 0 || (strict && c === 0)) return false
  }
  return true
}

/** TransferableInput.Compare: (txID bytes, outputIndex). */
export function compareTransferableInputs(a: TransferableInput, b: TransferableInput): number {
  return compareBytes(a.utxoID.txID, b.utxoID.txID) || a.utxoID.outputIndex - b.utxoID.outputIndex
}

/** EVMOutput.Compare / EVMInput.Compare: (address, assetID). */
export function compareEVMInOut(a: EVMOutput | EVMInput, b: EVMOutput | EVMInput): number {
  return compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID)
}

function outputCodecBytes(out: TransferOutput): Uint8Array {
  const w = new CodecWriter().u32(TYPE_ID.TransferOutput)
  writeTransferOutput(w, out)
  return w.finish()
}

/** avax.SortTransferableOutputs order: assetID, then the codec bytes of the output (type ID included). */
export function compareTransferableOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(a.assetID, b.assetID) || compareBytes(outputCodecBytes(a.out), outputCodecBytes(b.out))
}

/** Sorts in place as the builders must (inputs by UTXOID, outputs by asset then bytes, EVM sides by address). */
export const sortTransferableInputs = (ins: TransferableInput[]): TransferableInput[] => ins.sort(compareTransferableInputs)
export const sortTransferableOutputs = (outs: TransferableOutput[]): TransferableOutput[] => outs.sort(compareTransferableOutputs)
export const sortEVMInOuts = <T extends EVMOutput | EVMInput>(items: T[]): T[] => items.sort(compareEVMInOut)

/** secp256k1fx.Input.Verify (sig indices strictly ascending) inside TransferInput.Verify. */
export function verifyTransferInput(input: TransferInput): void {
  if (input.amount === 0n) fail('input has no value')
  if (!isSorted(input.sigIndices, (a, b) => a - b, true)) fail('address indices not sorted and unique')
}

/** secp256k1fx.OutputOwners.Verify. */
export function verifyOutputOwners(owners: OutputOwners): void {
  if (owners.threshold > owners.addrs.length) fail('output is unspendable')
  if (owners.threshold === 0 && owners.addrs.length > 0) fail('output representation should be optimized')
  if (!isSorted(owners.addrs, compareBytes, true)) fail('addresses not sorted and unique')
}

/** secp256k1fx.TransferOutput.Verify. */
export function verifyTransferOutput(out: TransferOutput): void {
  if (out.amount === 0n) fail('output has no value')
  verifyOutputOwners(out)
}

/** avax.TransferableOutput.Verify: asset, then the output. */
export function verifyTransferableOutput(out: TransferableOutput | undefined): void {
  if (out === undefined || out === null) fail('nil transferable output is not valid')
  if (out.out === undefined || out.out === null) fail('nil transferable feature extension output is not valid')
  if (isEmptyID(out.assetID)) fail('empty asset ID is not valid')
  verifyTransferOutput(out.out)
}

export function verifyTransferableInput(input: TransferableInput): void {
  if (input.in === undefined || input.in === null) fail('nil transferable feature extension input is not valid')
  if (isEmptyID(input.assetID)) fail('empty asset ID is not valid')
  verifyTransferInput(input.in)
}

function prefixed(prefix: string, check: () => void): void {
  try {
    check()
  } catch (err) {
    if (err instanceof VerifyError) fail(`${prefix}${err.message}`)
    throw err
  }
}

function verifyPeerChain(ctx: VerifyContext, rules: AtomicRules, peer: Uint8Array): void {
  if (rules.isApricotPhase5) {
    const peers = ctx.peerChainIDs ?? [ctx.xChainID, PLATFORM_CHAIN_ID]
    if (sameID(peer, ctx.chainID) || !peers.some((p) => sameID(p, peer))) fail('tx has wrong chain ID')
  } else if (!sameID(peer, ctx.xChainID)) {
    fail('tx has wrong chain ID')
  }
}

/** UnsignedImportTx.Verify (coreth: plugin/evm/atomic/import_tx.go). */
export function verifyImportTx(ctx: VerifyContext, utx: UnsignedImportTx): void {
  const rules = ctx.rules ?? CURRENT_RULES
  if (utx.importedInputs.length === 0) fail('tx has no imported inputs')
  if (utx.networkID !== ctx.networkID) fail('tx was issued with a different network ID')
  if (!sameID(utx.blockchainID, ctx.chainID)) fail('tx has wrong chain ID')
  if (rules.isApricotPhase3 && utx.outs.length === 0) fail('tx has no EVM outputs')
  verifyPeerChain(ctx, rules, utx.sourceChain)
  for (const out of utx.outs) {
    prefixed('EVM Output failed verification: ', () => {
      if (out.amount === 0n) fail('output has no value')
      if (isEmptyID(out.assetID)) fail('empty asset ID is not valid')
    })
    if (rules.isBanff && !sameID(out.assetID, ctx.avaxAssetID)) fail('import output cannot contain non-AVAX in Banff')
  }
  for (const input of utx.importedInputs) {
    prefixed('atomic input failed verification: ', () => verifyTransferableInput(input))
    if (rules.isBanff && !sameID(input.assetID, ctx.avaxAssetID)) fail('import input cannot contain non-AVAX in Banff')
  }
  if (!isSorted(utx.importedInputs, compareTransferableInputs, true)) fail('inputs not sorted and unique')
  if (rules.isApricotPhase2) {
    if (!isSorted(utx.outs, compareEVMInOut, true)) fail('outputs not sorted and unique')
  } else if (rules.isApricotPhase1 && !isSorted(utx.outs, compareEVMInOut, false)) {
    fail('tx outputs not sorted')
  }
}

/** UnsignedExportTx.Verify (coreth: plugin/evm/atomic/export_tx.go). */
export function verifyExportTx(ctx: VerifyContext, utx: UnsignedExportTx): void {
  const rules = ctx.rules ?? CURRENT_RULES
  if (utx.exportedOutputs.length === 0) fail('tx has no export outputs')
  if (utx.networkID !== ctx.networkID) fail('tx was issued with a different network ID')
  if (!sameID(utx.blockchainID, ctx.chainID)) fail('tx has wrong chain ID')
  verifyPeerChain(ctx, rules, utx.destinationChain)
  for (const input of utx.ins) {
    if (input.amount === 0n) fail('input has no value')
    if (isEmptyID(input.assetID)) fail('empty asset ID is not valid')
    if (rules.isBanff && !sameID(input.assetID, ctx.avaxAssetID)) fail('export input cannot contain non-AVAX in Banff')
  }
  for (const out of utx.exportedOutputs) {
    verifyTransferableOutput(out)
    const isAVAX = sameID(out.assetID, ctx.avaxAssetID)
    if (!isAVAX && sameID(utx.destinationChain, PLATFORM_CHAIN_ID)) fail('tx has wrong chain ID')
    if (rules.isBanff && !isAVAX) fail('export output cannot contain non-AVAX in Banff')
  }
  if (!isSorted(utx.exportedOutputs, compareTransferableOutputs, false)) fail('tx outputs not sorted')
  if (rules.isApricotPhase1 && !isSorted(utx.ins, compareEVMInOut, true)) fail('inputs not sorted and unique')
}

/** UnsignedAtomicTx.Verify for either kind. */
export function verifyUnsignedTx(ctx: VerifyContext, utx: UnsignedAtomicTx): void {
  if (utx.typeID === TYPE_ID.ImportTx) verifyImportTx(ctx, utx)
  else verifyExportTx(ctx, utx)
}

/** The 32-byte conflict key of an EVMInput: u64 nonce ‖ u32 20 ‖ address (export_tx.go InputUTXOs). */
export function evmInputConflictID(input: EVMInput): Uint8Array {
  const id = new Uint8Array(32)
  const view = new DataView(id.buffer)
  view.setBigUint64(0, input.nonce)
  view.setUint32(8, 20)
  id.set(input.address, 12)
  return id
}

/** InputUTXOs: the tx's conflict set (import: UTXO InputIDs; export: nonce/address keys), duplicates removed. */
export function inputUTXOs(utx: UnsignedAtomicTx): Uint8Array[] {
  const ids = utx.typeID === TYPE_ID.ImportTx
    ? utx.importedInputs.map((input) => utxoInputID(input.utxoID))
    : utx.ins.map(evmInputConflictID)
  const seen = new Set<string>()
  return ids.filter((id) => {
    const key = Buffer.from(id).toString('hex')
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

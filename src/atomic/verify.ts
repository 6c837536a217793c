/**
 * Syntactic verification of atomic txs (coreth: plugin/evm/atomic/import_tx.go, export_tx.go Verify).
 * Checks run in coreth's order; the first failure is thrown as an VerifyError with coreth's text.
 */
import { utxoInputID } from '../avalanche/avax.js'
import { TYPE_ID } from '../avalanche/codec.js'
import { compareBytes, compareTransferableInputs, compareTransferableOutputs, isSorted } from '../avalanche/compare.js'
import { VerifyError } from '../avalanche/errors.js'
import { PLATFORM_CHAIN_ID } from '../avalanche/networks.js'
import { isEmptyID, verifyTransferableInput, verifyTransferableOutput } from '../avalanche/verify.js'
import type { EVMInput, EVMOutput, UnsignedAtomicTx, UnsignedExportTx, UnsignedImportTx } from './types.js'

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

const sameID = (a: Uint8Array, b: Uint8Array): boolean => compareBytes(a, b) === 0

/** EVMOutput.Compare / EVMInput.Compare: (address, assetID). */
export function compareEVMInOut(a: EVMOutput | EVMInput, b: EVMOutput | EVMInput): number {
  return compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID)
}

/** Sorts EVM inputs or outputs in place by address, as the builders must. */
export const sortEVMInOuts = <T extends EVMOutput | EVMInput>(items: T[]): T[] => items.sort(compareEVMInOut)

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
  const ids = utx.typeID === TYPE_ID.ImportTx ? utx.importedInputs.map((input) => utxoInputID(input.utxoID)) : utx.ins.map(evmInputConflictID)
  const seen = new Set<string>()
  return ids.filter((id) => {
    const key = Buffer.from(id).toString('hex')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

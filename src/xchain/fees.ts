/**
 * X-Chain fees and the flow check (avalanchego vms/avm/txs/executor/syntactic_verifier.go, vms/components/avax
 * transferables.go VerifyTx + flow_checker.go; genesis/genesis_local.go LocalParams). The AVM's fee is static:
 * every BaseTx/ImportTx/ExportTx burns at least TxFee of AVAX (over-payment is accepted and burned too).
 */
import { VerifyError } from '../avalanche/errors.js'
import { FlowChecker } from '../avalanche/flowChecker.js'
import type { TransferableInput, TransferableOutput } from '../avalanche/types.js'
import { compareTransferableInputs, compareTransferableOutputs, isSorted } from '../avalanche/compare.js'
import { verifyTransferableInput, verifyTransferableOutput } from '../avalanche/verify.js'
import { AVM_TYPE_ID } from './codec.js'
import type { AVMUnsignedTx } from './tx.js'

/** Local (and Fuji/mainnet) X-Chain TxFee: 1 milliAVAX = 1,000,000 nAVAX (LocalParams.TxFee). */
export const X_TX_FEE = 1_000_000n
/** Local CreateAssetTxFee (LocalParams.CreateAssetTxFee, units.MilliAvax), what `avm.getTxFee` reports. */
export const X_CREATE_ASSET_TX_FEE = 1_000_000n

/** The `avm.getTxFee` reply: uint64 json fields are decimal strings (avajson.Uint64). */
export function avmTxFeeReply(txFee = X_TX_FEE, createAssetTxFee = X_CREATE_ASSET_TX_FEE): { txFee: string; createAssetTxFee: string } {
  return { txFee: txFee.toString(), createAssetTxFee: createAssetTxFee.toString() }
}

function fail(message: string): never {
  throw new VerifyError(message)
}

/** The input groups and output groups avax.VerifyTx sees for each tx kind. */
export function avmFlowGroups(utx: AVMUnsignedTx): { ins: TransferableInput[][]; outs: TransferableOutput[][] } {
  switch (utx.typeID) {
    case AVM_TYPE_ID.ImportTx:
      return { ins: [utx.ins, utx.importedIns], outs: [utx.outs] }
    case AVM_TYPE_ID.ExportTx:
      return { ins: [utx.ins], outs: [utx.outs, utx.exportedOuts] }
    default:
      return { ins: [utx.ins], outs: [utx.outs] }
  }
}

/**
 * avax.VerifyTx: `fee` of `feeAssetID` counts as produced; each output group is verified and must be sorted
 * (`outputs not sorted`), each input group sorted and unique (`inputs not sorted and unique`); then every
 * asset must be consumed at least as much as produced (`insufficient funds`, or `overflow`).
 */
export function verifyAVMFlow(utx: AVMUnsignedTx, feeAssetID: Uint8Array, fee: bigint = X_TX_FEE): void {
  const flow = new FlowChecker()
  flow.produce(feeAssetID, fee)
  const { ins, outs } = avmFlowGroups(utx)
  for (const group of outs) {
    for (const out of group) {
      verifyTransferableOutput(out)
      flow.produce(out.assetID, out.out.amount)
    }
    if (!isSorted(group, compareTransferableOutputs, false)) fail('outputs not sorted')
  }
  for (const group of ins) {
    for (const input of group) {
      verifyTransferableInput(input)
      flow.consume(input.assetID, input.in.amount)
    }
    if (!isSorted(group, compareTransferableInputs, true)) fail('inputs not sorted and unique')
  }
  const failure = flow.verify()
  if (failure !== undefined) fail(failure)
}

/** Σ consumed − Σ produced of `assetID` over all groups: what the tx burns (the fee actually paid). */
export function avmBurned(utx: AVMUnsignedTx, assetID: Uint8Array): bigint {
  const is = (id: Uint8Array): boolean => Buffer.compare(id, assetID) === 0
  const { ins, outs } = avmFlowGroups(utx)
  let input = 0n
  let output = 0n
  for (const g of ins) for (const i of g) if (is(i.assetID)) input += i.in.amount
  for (const g of outs) for (const o of g) if (is(o.assetID)) output += o.out.amount
  if (input < output) fail('underflow')
  return input - output
}

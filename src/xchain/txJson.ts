import { credentialJson, fxID, object, signedTxJson, type AddressFormatter } from '../avalanche/txJson.js'
import { AVM_TYPE_ID } from './codec.js'
import type { AVMCredential, ParsedAVMTx } from './tx.js'

/** The fx of a credential's Go type (avalanchego vms/avm/tx_init.go sets each FxCredential.FxID from it). */
function credentialFx(c: AVMCredential): string {
  if (c.typeID === AVM_TYPE_ID.NFTCredential) return fxID('nftfx')
  if (c.typeID === AVM_TYPE_ID.PropertyCredential) return fxID('propertyfx')
  return fxID('secp256k1fx')
}

/**
 * avm.getTx's `encoding: "json"` answer (avalanchego vms/avm/service.go GetTx): the txs.Tx after
 * txInit (fxIDs set, owners formatted for this chain): `{unsignedTx, credentials: [{fxID, credential}], id}`.
 */
export function avmTxJson(tx: ParsedAVMTx, formatAddr: AddressFormatter): string {
  const utx = tx.tx.unsignedTx
  const extra =
    utx.typeID === AVM_TYPE_ID.ImportTx
      ? { sourceChain: utx.sourceChain, importedInputs: utx.importedIns }
      : utx.typeID === AVM_TYPE_ID.ExportTx
        ? { destinationChain: utx.destinationChain, exportedOutputs: utx.exportedOuts }
        : undefined
  const creds = tx.tx.creds.map((c) =>
    object([
      ['fxID', JSON.stringify(credentialFx(c))],
      ['credential', credentialJson(c.sigs)],
    ]),
  )
  return signedTxJson(utx, extra, creds, tx.id, formatAddr)
}

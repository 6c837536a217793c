import { credentialJson, signedTxJson, type AddressFormatter } from '../avalanche/txJson.js'
import { PVM_TYPE_ID } from './codec.js'
import type { ParsedPVMTx } from './tx.js'

/**
 * platform.getTx's `encoding: "json"` answer (avalanchego vms/platformvm/service.go GetTx): the txs.Tx
 * after InitCtx (fxIDs set, owners formatted for this chain): `{unsignedTx, credentials: [{signatures}], id}`;
 * a CreateSubnetTx's unsignedTx ends with `owner` (`{addresses, locktime, threshold}`).
 */
export function pvmTxJson(tx: ParsedPVMTx, formatAddr: AddressFormatter): string {
  const utx = tx.tx.unsignedTx
  const extra = utx.typeID === PVM_TYPE_ID.ImportTx || utx.typeID === PVM_TYPE_ID.ExportTx || utx.typeID === PVM_TYPE_ID.CreateSubnetTx ? utx : undefined
  return signedTxJson(
    utx,
    extra,
    tx.tx.creds.map((c) => credentialJson(c.sigs)),
    tx.id,
    formatAddr,
  )
}

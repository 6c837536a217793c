import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { PVM_TYPE_ID } from '../../../src/pchain/codec.js'
import { toParsedPVMTx } from '../../../src/pchain/tx.js'
import { pvmTxJson } from '../../../src/pchain/txJson.js'

const id = (n: number): Uint8Array => new Uint8Array(32).fill(n)
const SECP = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ'

describe('pvmTxJson (avalanchego vms/platformvm/service.go GetTx, encoding json)', () => {
  it('an ImportTx with a stakeable LockOut output and LockIn input; credentials as bare {signatures}', () => {
    const owners = { locktime: 0n, threshold: 1, addrs: [new Uint8Array(20).fill(1)] }
    const tx = toParsedPVMTx({
      unsignedTx: {
        typeID: PVM_TYPE_ID.ImportTx,
        networkID: 5,
        blockchainID: id(0),
        outs: [{ assetID: id(9), out: { amount: 7n, ...owners }, locktime: 99n }],
        ins: [{ utxoID: { txID: id(3), outputIndex: 0 }, assetID: id(9), in: { amount: 8n, sigIndices: [0] }, locktime: 42n }],
        memo: new Uint8Array(0),
        sourceChain: id(2),
        importedInputs: [{ utxoID: { txID: id(4), outputIndex: 1 }, assetID: id(9), in: { amount: 3n, sigIndices: [] } }],
      },
      creds: [{ sigs: [] }, { sigs: [new Uint8Array(65)] }],
    })
    const json = pvmTxJson(tx, () => 'P-fuji1x')
    expect(json).toBe(
      `{"unsignedTx":{"networkID":5,"blockchainID":"${cb58Encode(id(0))}",` +
        `"outputs":[{"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","output":{"locktime":99,"output":{"addresses":["P-fuji1x"],"amount":7,"locktime":0,"threshold":1}}}],` +
        `"inputs":[{"txID":"${cb58Encode(id(3))}","outputIndex":0,"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","input":{"locktime":42,"input":{"amount":8,"signatureIndices":[0]}}}],` +
        `"memo":"0x","sourceChain":"${cb58Encode(id(2))}",` +
        `"importedInputs":[{"txID":"${cb58Encode(id(4))}","outputIndex":1,"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","input":{"amount":3,"signatureIndices":[]}}]},` +
        `"credentials":[{"signatures":[]},{"signatures":["0x${'00'.repeat(65)}"]}],"id":"${cb58Encode(tx.id)}"}`,
    )
  })

  it('an ExportTx: destinationChain and exportedOutputs after the BaseTx fields', () => {
    const tx = toParsedPVMTx({
      unsignedTx: {
        typeID: PVM_TYPE_ID.ExportTx,
        networkID: 5,
        blockchainID: id(0),
        outs: [],
        ins: [],
        memo: new Uint8Array(0),
        destinationChain: id(6),
        exportedOutputs: [{ assetID: id(9), out: { amount: 1n, locktime: 0n, threshold: 1, addrs: [] } }],
      },
      creds: [],
    })
    expect(pvmTxJson(tx, () => '')).toContain(
      `"memo":"0x","destinationChain":"${cb58Encode(id(6))}","exportedOutputs":[{"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","output":{"addresses":[],"amount":1,"locktime":0,"threshold":1}}]},"credentials":[],`,
    )
  })
})

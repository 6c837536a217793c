import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/avalanche/cb58.js'
import { AVM_TYPE_ID } from '../../../src/xchain/codec.js'
import { toParsedAVMTx } from '../../../src/xchain/tx.js'
import { avmTxJson } from '../../../src/xchain/txJson.js'

const id = (n: number): Uint8Array => new Uint8Array(32).fill(n)
const addr = new Uint8Array(20).fill(7)
const SECP = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ'
const out = (amount: bigint) => ({ assetID: id(9), out: { amount, locktime: 5n, threshold: 1, addrs: [addr] } })
const input = (n: number) => ({ utxoID: { txID: id(n), outputIndex: 2 }, assetID: id(9), in: { amount: 18_446_744_073_709_551_615n, sigIndices: [0] } })
const base = { networkID: 12345, blockchainID: id(1), outs: [], ins: [input(3)], memo: new Uint8Array(0) }
const sig = new Uint8Array(65).fill(0xab)

describe('avmTxJson (avalanchego vms/avm/service.go GetTx, encoding json)', () => {
  it('an ExportTx: the BaseTx fields, destinationChain, exportedOutputs; credentials with their fxID; uint64 exact', () => {
    const tx = toParsedAVMTx({
      unsignedTx: { typeID: AVM_TYPE_ID.ExportTx, ...base, destinationChain: id(2), exportedOuts: [out(1000n)] },
      creds: [{ typeID: AVM_TYPE_ID.Credential, sigs: [sig] }],
    })
    const a = cb58Encode(addr)
    expect(avmTxJson(tx, (b) => `X-${cb58Encode(b)}`)).toBe(
      `{"unsignedTx":{"networkID":12345,"blockchainID":"${cb58Encode(id(1))}","outputs":[],` +
        `"inputs":[{"txID":"${cb58Encode(id(3))}","outputIndex":2,"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","input":{"amount":18446744073709551615,"signatureIndices":[0]}}],` +
        `"memo":"0x","destinationChain":"${cb58Encode(id(2))}",` +
        `"exportedOutputs":[{"assetID":"${cb58Encode(id(9))}","fxID":"${SECP}","output":{"addresses":["X-${a}"],"amount":1000,"locktime":5,"threshold":1}}]},` +
        `"credentials":[{"fxID":"${SECP}","credential":{"signatures":["0x${'ab'.repeat(65)}"]}}],"id":"${cb58Encode(tx.id)}"}`,
    )
  })

  it('an ImportTx: sourceChain and importedInputs after the BaseTx fields; an nftfx credential names its fx', () => {
    const tx = toParsedAVMTx({
      unsignedTx: { typeID: AVM_TYPE_ID.ImportTx, ...base, ins: [], outs: [out(1n)], memo: Uint8Array.of(1, 2), sourceChain: id(4), importedIns: [input(5)] },
      creds: [{ typeID: AVM_TYPE_ID.NFTCredential, sigs: [] }],
    })
    const json = avmTxJson(tx, () => 'X-x')
    expect(json).toContain(`"inputs":[],"memo":"0x0102","sourceChain":"${cb58Encode(id(4))}","importedInputs":[{"txID":"${cb58Encode(id(5))}",`)
    expect(json).toContain('"credentials":[{"fxID":"qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT","credential":{"signatures":[]}}]')
  })
})

/**
 * CreateSubnetTx with AvalancheJS 5.2.0 (issue 17): the steps of AvalancheJS's own example
 * (avalanchejs: examples/p-chain/createSubnet.ts with examples/p-chain/utils/etna-helper.ts) against the node:
 * the context and fee state read from the node, `pvm.newCreateSubnetTx` paying the Etna fee AvalancheJS computes,
 * `addTxSignatures`, `issueSignedTx` answering the tx ID; then the tx Committed, its inputs spent and its change
 * there, a replay, an underpaying tx and a malformed owner refused with their texts.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Context, addTxSignatures, pvm, utils, type Utxo } from '@avalabs/avalanchejs'
import { EWOQ_KEY, cb58, sha256 } from '../helpers/avalanchejs.js'
import { AVAX, EWOQ_P } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { parsePVMTx } from '../../src/pchain/tx.js'
import { LOCAL_FEE_CONFIG, toGas, txComplexity } from '../../src/pchain/fees.js'

let tn: TestNode
let baseURL: string

async function gorilla(method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(`${baseURL}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

/** AvalancheJS's createSubnet example up to the signed tx: context, fee state and UTXOs read from the node. */
async function exampleTx(opts: { price?: bigint; threshold?: number } = {}) {
  // setupEtnaExample: the API, the context and the fee state, all from the node.
  const pvmApi = new pvm.PVMApi(baseURL)
  const context = await Context.getContextFromURI(baseURL)
  const feeState = await pvmApi.getFeeState()
  const { utxos } = await pvmApi.getUTXOs({ addresses: [EWOQ_P] })
  const testPAddr = utils.bech32ToBytes(EWOQ_P)
  const tx = pvm.newCreateSubnetTx(
    {
      feeState: { ...feeState, price: opts.price ?? feeState.price },
      fromAddressesBytes: [testPAddr],
      utxos,
      subnetOwners: [testPAddr],
      ...(opts.threshold !== undefined && { threshold: opts.threshold }),
    },
    context,
  )
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] })
  return { pvmApi, feeState, utxos, signed: tx.getSignedTx() }
}

const utxoKey = (u: Utxo): string => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`
const amountOf = (u: Utxo): bigint => (u.output as unknown as { amount(): bigint }).amount()

beforeAll(async () => {
  tn = await startTestNode()
  baseURL = `http://127.0.0.1:${tn.port}`
})
afterAll(async () => {
  await tn?.stop()
  if (tn !== undefined) rmSync(tn.dataDir, { recursive: true, force: true })
})

describe('P-Chain CreateSubnetTx with AvalancheJS', () => {
  it("runs AvalancheJS's createSubnet example: issueSignedTx answers the tx ID, Committed, inputs spent, change there; a replay is refused", async () => {
    const { pvmApi, feeState, utxos, signed } = await exampleTx()
    const { txID } = await pvmApi.issueSignedTx(signed)
    expect(txID).toBe(cb58(sha256(signed.toBytes())))
    expect(await pvmApi.getTxStatus({ txID })).toEqual({ status: 'Committed' })

    // The fee AvalancheJS paid is the node's gas × price: avalanchego's CreateSubnetTx complexity plus the owner's.
    const parsed = parsePVMTx(signed.toBytes())
    const spentKeys = new Set(parsed.tx.unsignedTx.ins.map((i) => `${cb58(i.utxoID.txID)}:${i.utxoID.outputIndex}`))
    const consumed = utxos.filter((u) => spentKeys.has(utxoKey(u))).reduce((s, u) => s + amountOf(u), 0n)
    const produced = parsed.tx.unsignedTx.outs.reduce((s, o) => s + o.out.amount, 0n)
    expect(consumed - produced).toBe(toGas(txComplexity(parsed.tx.unsignedTx), LOCAL_FEE_CONFIG.weights) * feeState.price)

    const after = (await pvmApi.getUTXOs({ addresses: [EWOQ_P] })).utxos.map(utxoKey)
    for (const k of spentKeys) expect(after).not.toContain(k)
    expect(after).toContain(`${txID}:0`)

    const json = await gorilla('platform.getTx', { txID, encoding: 'json' })
    expect(json.result.tx.unsignedTx.owner).toEqual({ addresses: [EWOQ_P], locktime: 0, threshold: 1 })
    expect(json.result.tx.id).toBe(txID)

    await expect(pvmApi.issueSignedTx(signed)).rejects.toThrow('duplicate transaction')

    // The subnet is the tx's ID: permissioned, owned by ewoq, listed, validated by nobody.
    expect((await gorilla('platform.getSubnet', { subnetID: txID })).result).toEqual({
      isPermissioned: true,
      controlKeys: [EWOQ_P],
      threshold: '1',
      locktime: '0',
      subnetTransformationTxID: '11111111111111111111111111111111LpoYY',
      conversionID: '11111111111111111111111111111111LpoYY',
      managerChainID: '11111111111111111111111111111111LpoYY',
      managerAddress: null,
    })
    expect((await gorilla('platform.getSubnets', {})).result.subnets).toContainEqual({ id: txID, controlKeys: [EWOQ_P], threshold: '1' })
    expect((await gorilla('platform.getSubnets', { ids: [txID, txID] })).result).toEqual({ subnets: [{ id: txID, controlKeys: [EWOQ_P], threshold: '1' }] })
    expect((await gorilla('platform.getCurrentValidators', { subnetID: txID })).result).toEqual({ validators: [] })
    expect((await gorilla('platform.getValidatorsAt', { height: 1, subnetID: txID })).result).toEqual({})
  })

  it('refuses a CreateSubnetTx paying less than its fee with the shortfall in AVAX', async () => {
    // A zero price makes the builder pay no fee at all.
    const { pvmApi, signed } = await exampleTx({ price: 0n })
    const price = (await pvmApi.getFeeState()).price
    const fee = toGas(txComplexity(parsePVMTx(signed.toBytes()).tx.unsignedTx), LOCAL_FEE_CONFIG.weights) * price
    await expect(pvmApi.issueSignedTx(signed)).rejects.toThrow(`insufficient unlocked funds: needs ${fee} more ${AVAX}`)
    expect(await pvmApi.getTxStatus({ txID: cb58(sha256(signed.toBytes())) })).toEqual({ status: 'Unknown' })
  })

  it('refuses an owner whose threshold exceeds its addresses (secp256k1fx OutputOwners.Verify)', async () => {
    const { pvmApi, signed } = await exampleTx({ threshold: 2 })
    await expect(pvmApi.issueSignedTx(signed)).rejects.toThrow('output is unspendable')
  })
})

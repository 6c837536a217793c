/**
 * The X-Chain with AvalancheJS 5.2.0 as a wallet uses it (issue 7): ewoq's genesis funds, an `avm.newBaseTx`
 * transfer, C->X (EVM export, then `avm.newImportTx`), X->C (`avm.newExportTx`, then the C-Chain import),
 * a second import of the same UTXO refused on both sides, and the X state across a restart.
 */
import { rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransferableOutput, addTxSignatures, avm, evm, info, secp256k1, utils, type Context, type Utxo } from '@avalabs/avalanchejs'
import { EWOQ as ewoqShort, EWOQ_ETH as ewoqEth, EWOQ_KEY as privateKey, cb58, importIntoC, sha256, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'

const GENESIS = 300_000_000_000_000_000n
const FEE = 1_000_000n

let tn: TestNode
let baseURL: string
let xapi: InstanceType<typeof avm.AVMApi>
let capi: InstanceType<typeof evm.EVMApi>
let context: Context.Context

async function gorilla(path: string, method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(baseURL + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

const xBalance = async (address = EWOQ_X): Promise<bigint> => BigInt(((await xapi.getBalance({ address, assetID: AVAX } as never)) as unknown as { balance: string }).balance)
const cBalance = async (): Promise<bigint> => BigInt(await tn.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
const xUTXOs = async (address = EWOQ_X, sourceChain?: string): Promise<Utxo[]> => (await xapi.getUTXOs({ addresses: [address], ...(sourceChain !== undefined && { sourceChain }) })).utxos

const waitCAccepted = (txID: string): Promise<void> => waitAtomicAccepted(capi, txID)

async function issueX(unsignedTx: ReturnType<typeof avm.newBaseTx>): Promise<{ txID: string; bytes: Uint8Array }> {
  await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
  const signed = unsignedTx.getSignedTx()
  const { txID } = await xapi.issueSignedTx(signed)
  expect(txID).toBe(cb58(sha256(signed.toBytes())))
  const st = await gorilla('/ext/bc/X', 'avm.getTxStatus', { txID })
  expect(st.result).toEqual({ status: 'Accepted', Status: 'Accepted' })
  return { txID, bytes: signed.toBytes() }
}

beforeAll(async () => {
  tn = await startTestNode()
  baseURL = `http://127.0.0.1:${tn.port}`
  xapi = new avm.AVMApi(baseURL)
  capi = new evm.EVMApi(baseURL)
  const { assetID } = await xapi.getAssetDescription('AVAX')
  const { txFee, createAssetTxFee } = await xapi.getTxFee()
  const infoApi = new info.InfoApi(baseURL)
  const { blockchainID: x } = await infoApi.getBlockchainId('X')
  context = Object.freeze({
    networkID: 12345,
    hrp: 'local',
    xBlockchainID: x,
    pBlockchainID: LOCAL_P,
    cBlockchainID: LOCAL_C,
    avaxAssetID: assetID,
    baseTxFee: txFee,
    createAssetTxFee,
    platformFeeConfig: {} as Context.Context['platformFeeConfig'],
  }) as Context.Context
})
afterAll(async () => {
  await tn?.stop()
  if (tn !== undefined) rmSync(tn.dataDir, { recursive: true, force: true })
})

describe('X-Chain with AvalancheJS', () => {
  it('answers the context calls: asset description, tx fee, blockchain ID; served at the CB58 path too', async () => {
    expect(context.xBlockchainID).toBe(LOCAL_X)
    expect(context.avaxAssetID).toBe(AVAX)
    expect(context.baseTxFee).toBe(FEE)
    expect((await gorilla('/ext/bc/X', 'avm.getAssetDescription', { assetID: 'AVAX' })).result).toEqual({ assetID: AVAX, name: 'Avalanche', symbol: 'AVAX', denomination: '9' })
    expect((await gorilla(`/ext/bc/${LOCAL_X}`, 'avm.getTxFee', {})).result).toEqual({ txFee: '1000000', createAssetTxFee: '1000000' })
  })

  it("lists ewoq's genesis UTXO and balance", async () => {
    const utxos = await xUTXOs()
    expect(utxos).toHaveLength(1)
    expect(utxos[0]!.getAssetId()).toBe(AVAX)
    expect(await xBalance()).toBe(GENESIS)
    const raw = await gorilla('/ext/bc/X', 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'hex' })
    expect(raw.result.numFetched).toBe('1')
    expect(raw.result.endIndex.address).toBe(EWOQ_X)
  })

  it('transfers with avm.newBaseTx: accepted, fetched by getTx, balances move by amount + fee; a replay is refused', async () => {
    const to = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(randomBytes(32)))
    const toX = `X-${utils.formatBech32('local', to)}`
    const amount = 1_234_567_890n
    const before = await xBalance()
    const unsignedTx = avm.newBaseTx(context, [ewoqShort], await xUTXOs(), [TransferableOutput.fromNative(AVAX, amount, [to])])
    const { txID, bytes } = await issueX(unsignedTx)
    expect(await xBalance()).toBe(before - amount - FEE)
    expect(await xBalance(toX)).toBe(amount)
    const got = await gorilla('/ext/bc/X', 'avm.getTx', { txID, encoding: 'hex' })
    expect(got.result.tx).toBe(utils.bufferToHex(utils.addChecksum(bytes)))
    const tx = await xapi.getTx({ txID })
    expect(utils.bufferToHex(tx.toBytes())).toBe(utils.bufferToHex(bytes))
    const again = await gorilla('/ext/bc/X', 'avm.issueTx', { tx: utils.bufferToHex(utils.addChecksum(bytes)), encoding: 'hex' })
    expect(again.error?.message).toBe('not found')
  })

  it('refuses a tx that pays less than the fee', async () => {
    const utxos = await xUTXOs()
    const total = utxos.reduce((s, u) => s + (u.output as unknown as { amount(): bigint }).amount(), 0n)
    const unsignedTx = avm.newBaseTx({ ...context, baseTxFee: FEE - 1n }, [ewoqShort], utxos, [TransferableOutput.fromNative(AVAX, total - FEE + 1n, [ewoqShort])])
    await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
    await expect(xapi.issueSignedTx(unsignedTx.getSignedTx())).rejects.toThrow('insufficient funds')
  })

  it('refuses a tx without valid signatures; an unknown txID is Unknown', async () => {
    const unsignedTx = avm.newBaseTx(context, [ewoqShort], await xUTXOs(), [TransferableOutput.fromNative(AVAX, 5n, [ewoqShort])])
    await addTxSignatures({ unsignedTx, privateKeys: [randomBytes(32)] })
    await expect(xapi.issueSignedTx(unsignedTx.getSignedTx())).rejects.toThrow()
    const st = await gorilla('/ext/bc/X', 'avm.getTxStatus', { txID: cb58(randomBytes(32)) })
    expect(st.result).toEqual({ status: 'Unknown', Status: 'Unknown' })
  })

  it('C -> X: EVM export, then avm.newImportTx credits X; a second import of the UTXO is refused', async () => {
    const amount = 500_000_000n
    const baseFee = ((await capi.getBaseFee()) + NANO - 1n) / NANO
    const exportTx = evm.newExportTxFromBaseFee(context, baseFee, amount, LOCAL_X, ewoqEth, [ewoqShort], BigInt(await tn.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])))
    await addTxSignatures({ unsignedTx: exportTx, privateKeys: [privateKey] })
    const { txID: exportID } = await capi.issueSignedTx(exportTx.getSignedTx())
    await waitCAccepted(exportID)

    const atomic = await xUTXOs(EWOQ_X, 'C')
    expect(atomic.map((u) => u.utxoId.txID.toString())).toContain(exportID)
    const before = await xBalance()
    const importTx = avm.newImportTx(context, LOCAL_C, atomic, [ewoqShort], [ewoqShort])
    const { bytes } = await issueX(importTx)
    expect(await xBalance()).toBe(before + amount - FEE)
    expect(await xUTXOs(EWOQ_X, 'C')).toHaveLength(0)

    const again = await gorilla('/ext/bc/X', 'avm.issueTx', { tx: utils.bufferToHex(utils.addChecksum(bytes)), encoding: 'hex' })
    expect(again.error?.message).toBe('not found')
    const other = avm.newImportTx(context, LOCAL_C, atomic, [ewoqShort], [ewoqShort], { memo: new Uint8Array([1]) })
    await addTxSignatures({ unsignedTx: other, privateKeys: [privateKey] })
    await expect(xapi.issueSignedTx(other.getSignedTx())).rejects.toThrow('not found')
  })

  it('X -> C: avm.newExportTx, then the C-Chain import credits the EVM balance; a second import is refused', async () => {
    const amount = 2_000_000_000n
    const before = await xBalance()
    const exportTx = avm.newExportTx(context, LOCAL_C, [ewoqShort], await xUTXOs(), [TransferableOutput.fromNative(AVAX, amount, [ewoqShort])])
    const { txID: exportID } = await issueX(exportTx)
    expect(await xBalance()).toBe(before - amount - FEE)

    const { signed, credit } = await importIntoC(capi, context, 'X', exportID, cBalance)
    expect(credit).toBeGreaterThan((amount - 1_000_000n) * NANO)
    expect(credit).toBeLessThan(amount * NANO)
    await expect(capi.issueSignedTx(signed)).rejects.toThrow(`failed to fetch import UTXOs from ${LOCAL_X} due to: not found`)
  })

  it('keeps the X state across a restart', async () => {
    const [balance, utxos] = [await xBalance(), (await xUTXOs()).map((u) => u.ID())]
    const height = tn.node.xchain.height
    expect(height).toBe(3n) // base, import, export
    await tn.stop()
    tn = await startTestNode({ dataDir: tn.dataDir })
    baseURL = `http://127.0.0.1:${tn.port}`
    xapi = new avm.AVMApi(baseURL)
    expect(await xBalance()).toBe(balance)
    expect((await xUTXOs()).map((u) => u.ID())).toEqual(utxos)
    expect(tn.node.xchain.height).toBe(height)
  })
})

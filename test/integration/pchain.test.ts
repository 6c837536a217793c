/**
 * The P-Chain with AvalancheJS 5.2.0 as a wallet uses it (issue 7): `Context.getContextFromURI` against the node,
 * ewoq's genesis balance (the StakeableLockOut whose lock has passed spends as unlocked), a `pvm.newBaseTx`
 * transfer paying the Etna dynamic fee, C->P and P->C, X->P and P->X (export on one chain, import on the other),
 * a second import refused, and the P state across a restart.
 */
import { rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Context, TransferableOutput, addTxSignatures, avm, evm, pvm, secp256k1, utils, type UnsignedTx, type Utxo } from '@avalabs/avalanchejs'
import { EWOQ as ewoqShort, EWOQ_ETH as ewoqEth, EWOQ_KEY as privateKey, cb58, importIntoC, sha256, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_P, EWOQ_X, LOCAL_C, LOCAL_P, LOCAL_X, NANO } from '../helpers/constants.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { parsePVMTx } from '../../src/pchain/tx.js'
import { LOCAL_FEE_CONFIG, toGas, txComplexity } from '../../src/pchain/fees.js'

const P_GENESIS = 30_000_000_000_000_000n
const X_FEE = 1_000_000n

let tn: TestNode
let baseURL: string
let papi: InstanceType<typeof pvm.PVMApi>
let xapi: InstanceType<typeof avm.AVMApi>
let capi: InstanceType<typeof evm.EVMApi>
let context: Context.Context

async function gorilla(path: string, method: string, params?: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const body: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method }
  if (params !== undefined) body.params = params
  const res = await fetch(baseURL + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

const pBalance = async (address = EWOQ_P): Promise<bigint> => (await papi.getBalance({ addresses: [address] })).balance
const xBalance = async (): Promise<bigint> => BigInt(((await xapi.getBalance({ address: EWOQ_X, assetID: AVAX } as never)) as unknown as { balance: string }).balance)
const cBalance = async (): Promise<bigint> => BigInt(await tn.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
const pUTXOs = async (address = EWOQ_P, sourceChain?: string): Promise<Utxo[]> => (await papi.getUTXOs({ addresses: [address], ...(sourceChain !== undefined && { sourceChain }) })).utxos
const xUTXOs = async (sourceChain?: string): Promise<Utxo[]> => (await xapi.getUTXOs({ addresses: [EWOQ_X], ...(sourceChain !== undefined && { sourceChain }) })).utxos

/** The Etna fee of a signed P tx at price `price`: gas (the node's complexity model) × price. */
const pFee = (bytes: Uint8Array, price: bigint): bigint => toGas(txComplexity(parsePVMTx(bytes).tx.unsignedTx), LOCAL_FEE_CONFIG.weights) * price

const waitCAccepted = (txID: string): Promise<void> => waitAtomicAccepted(capi, txID)

async function issueP(unsignedTx: UnsignedTx): Promise<{ txID: string; bytes: Uint8Array }> {
  await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
  const signed = unsignedTx.getSignedTx()
  const { txID } = await papi.issueSignedTx(signed)
  expect(txID).toBe(cb58(sha256(signed.toBytes())))
  expect(await papi.getTxStatus({ txID })).toEqual({ status: 'Committed' })
  return { txID, bytes: signed.toBytes() }
}

async function issueX(unsignedTx: UnsignedTx): Promise<string> {
  await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
  const { txID } = await xapi.issueSignedTx(unsignedTx.getSignedTx())
  expect((await gorilla('/ext/bc/X', 'avm.getTxStatus', { txID })).result.status).toBe('Accepted')
  return txID
}

async function cExport(amount: bigint, destination: string): Promise<string> {
  const baseFee = ((await capi.getBaseFee()) + NANO - 1n) / NANO
  const exportTx = evm.newExportTxFromBaseFee(context, baseFee, amount, destination, ewoqEth, [ewoqShort], BigInt(await tn.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest'])))
  await addTxSignatures({ unsignedTx: exportTx, privateKeys: [privateKey] })
  const { txID } = await capi.issueSignedTx(exportTx.getSignedTx())
  await waitCAccepted(txID)
  return txID
}

function connect(): void {
  baseURL = `http://127.0.0.1:${tn.port}`
  papi = new pvm.PVMApi(baseURL)
  xapi = new avm.AVMApi(baseURL)
  capi = new evm.EVMApi(baseURL)
}

beforeAll(async () => {
  tn = await startTestNode()
  connect()
})
afterAll(async () => {
  await tn?.stop()
  if (tn !== undefined) rmSync(tn.dataDir, { recursive: true, force: true })
})

describe('P-Chain with AvalancheJS', () => {
  it('Context.getContextFromURI works against the node; fee config and state are JSON numbers', async () => {
    context = await Context.getContextFromURI(baseURL)
    expect(context.pBlockchainID).toBe(LOCAL_P)
    expect(context.xBlockchainID).toBe(LOCAL_X)
    expect(context.cBlockchainID).toBe(LOCAL_C)
    expect(context.avaxAssetID).toBe(AVAX)
    expect(context.networkID).toBe(12345)
    expect(context.platformFeeConfig.minPrice).toBe(1n)
    expect(context.platformFeeConfig.excessConversionConstant).toBe(2_164_043n)
    const cfg = await gorilla('/ext/bc/P', 'platform.getFeeConfig')
    expect(cfg.result).toEqual({ weights: [1, 1000, 1000, 4], maxCapacity: 1_000_000, maxPerSecond: 100_000, targetPerSecond: 50_000, minPrice: 1, excessConversionConstant: 2_164_043 })
    const st = await gorilla(`/ext/bc/${LOCAL_P}`, 'platform.getFeeState')
    expect(st.result).toMatchObject({ capacity: 1_000_000, excess: 0, price: 1 })
    expect(typeof st.result.timestamp).toBe('string')
    expect((await gorilla('/ext/bc/P', 'platform.getHeight')).result).toEqual({ height: '0' })
  })

  it("answers staking methods -32601 (out of scope, issue 7) with gorilla's missing-method text", async () => {
    const r = await gorilla('/ext/bc/P', 'platform.getStake', {})
    expect(r.error).toEqual({ code: -32601, message: 'rpc: can\'t find method "platform.GetStake"', data: null })
  })

  it("shows ewoq's genesis P balance: 20M unlocked and a StakeableLockOut whose lock has passed", async () => {
    const b = await papi.getBalance({ addresses: [EWOQ_P] })
    expect(b.balance).toBe(P_GENESIS)
    expect(b.unlocked).toBe(P_GENESIS)
    expect(b.lockedStakeable).toBe(0n)
    expect(b.lockedNotStakeable).toBe(0n)
    expect(b.utxoIDs).toHaveLength(2)
    const raw = await gorilla('/ext/bc/P', 'platform.getBalance', { addresses: [EWOQ_P] })
    expect(raw.result.balances).toEqual({ [AVAX]: P_GENESIS.toString() })
    const page = await gorilla('/ext/bc/P', 'platform.getUTXOs', { addresses: [EWOQ_P], encoding: 'hex' })
    expect(page.result.numFetched).toBe('2')
    expect(page.result.endIndex.address).toBe(EWOQ_P)
    // codec version(2) ‖ txID(32) ‖ index(4) ‖ assetID(32) ‖ output type ID: 7 TransferOutput, 22 StakeableLockOut
    const types = (page.result.utxos as string[])
      .map((h) => utils.hexToBuffer(h))
      .map((b) => new DataView(b.buffer, b.byteOffset).getUint32(70))
      .sort()
    expect(types).toEqual([22, 7].sort())
  })

  it('transfers with pvm.newBaseTx paying gas × price; a replay is refused', async () => {
    const to = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(randomBytes(32)))
    const toP = `P-${utils.formatBech32('local', to)}`
    const amount = 1_234_567_890n
    const before = await pBalance()
    const feeState = await papi.getFeeState()
    const unsignedTx = pvm.newBaseTx({ feeState, fromAddressesBytes: [ewoqShort], utxos: await pUTXOs(), outputs: [TransferableOutput.fromNative(AVAX, amount, [to])] }, context)
    const { txID, bytes } = await issueP(unsignedTx)
    const fee = pFee(bytes, feeState.price)
    expect(fee).toBeGreaterThan(0n)
    expect(await pBalance()).toBe(before - amount - fee)
    expect(await pBalance(toP)).toBe(amount)
    const got = await gorilla('/ext/bc/P', 'platform.getTx', { txID, encoding: 'hex' })
    expect(got.result.tx).toBe(utils.bufferToHex(utils.addChecksum(bytes)))
    const again = await gorilla('/ext/bc/P', 'platform.issueTx', { tx: utils.bufferToHex(utils.addChecksum(bytes)), encoding: 'hex' })
    expect(again.error?.code).toBe(-32000)
    expect((await gorilla('/ext/bc/P', 'platform.getTxStatus', { txID: cb58(randomBytes(32)), includeReason: true })).result).toEqual({ status: 'Unknown' })
    expect((await gorilla('/ext/bc/P', 'platform.getHeight')).result).toEqual({ height: '1' })
  })

  it('refuses a tx paying less than gas × price', async () => {
    const feeState = await papi.getFeeState()
    const utxos = await pUTXOs()
    const total = utxos.reduce((s, u) => s + (u.output as unknown as { amount(): bigint }).amount(), 0n)
    // A zero price makes the builder pay no fee at all.
    const unsignedTx = pvm.newBaseTx({ feeState: { ...feeState, price: 0n }, fromAddressesBytes: [ewoqShort], utxos, outputs: [TransferableOutput.fromNative(AVAX, total, [ewoqShort])] }, context)
    await addTxSignatures({ unsignedTx, privateKeys: [privateKey] })
    await expect(papi.issueSignedTx(unsignedTx.getSignedTx())).rejects.toThrow('insufficient unlocked funds')
  })

  it('C -> P: EVM export, then pvm.e.newImportTx credits P by amount − fee; a second import is refused', async () => {
    const amount = 700_000_000n
    const exportID = await cExport(amount, LOCAL_P)
    const atomic = await pUTXOs(EWOQ_P, 'C')
    expect(atomic.map((u) => u.utxoId.txID.toString())).toEqual([exportID])
    const before = await pBalance()
    const feeState = await papi.getFeeState()
    const importTx = pvm.e.newImportTx({ feeState, fromAddressesBytes: [ewoqShort], sourceChainId: LOCAL_C, toAddressesBytes: [ewoqShort], utxos: atomic }, context)
    const { bytes } = await issueP(importTx)
    expect(await pBalance()).toBe(before + amount - pFee(bytes, feeState.price))
    expect(await pUTXOs(EWOQ_P, 'C')).toHaveLength(0)

    const again = await gorilla('/ext/bc/P', 'platform.issueTx', { tx: utils.bufferToHex(utils.addChecksum(bytes)), encoding: 'hex' })
    expect(again.error?.code).toBe(-32000)
    const other = pvm.e.newImportTx({ feeState, fromAddressesBytes: [ewoqShort], sourceChainId: LOCAL_C, toAddressesBytes: [randomBytes(20)], utxos: atomic }, context)
    await addTxSignatures({ unsignedTx: other, privateKeys: [privateKey] })
    await expect(papi.issueSignedTx(other.getSignedTx())).rejects.toThrow('not found')
  })

  it('P -> C: pvm.e.newExportTx, then the C-Chain import credits the EVM balance', async () => {
    const amount = 3_000_000_000n
    const before = await pBalance()
    const feeState = await papi.getFeeState()
    const exportTx = pvm.e.newExportTx(
      { feeState, fromAddressesBytes: [ewoqShort], destinationChainId: LOCAL_C, outputs: [TransferableOutput.fromNative(AVAX, amount, [ewoqShort])], utxos: await pUTXOs() },
      context,
    )
    const { txID: exportID, bytes } = await issueP(exportTx)
    expect(await pBalance()).toBe(before - amount - pFee(bytes, feeState.price))

    const { signed, credit } = await importIntoC(capi, context, 'P', exportID, cBalance)
    expect(credit).toBeGreaterThan((amount - 1_000_000n) * NANO)
    expect(credit).toBeLessThan(amount * NANO)
    await expect(capi.issueSignedTx(signed)).rejects.toThrow('not found')
  })

  it('X -> P: avm.newExportTx on X, pvm.e.newImportTx on P', async () => {
    const amount = 4_000_000_000n
    const xBefore = await xBalance()
    const exportID = await issueX(avm.newExportTx(context, LOCAL_P, [ewoqShort], await xUTXOs(), [TransferableOutput.fromNative(AVAX, amount, [ewoqShort])]))
    expect(await xBalance()).toBe(xBefore - amount - X_FEE)
    const atomic = await pUTXOs(EWOQ_P, 'X')
    expect(atomic.map((u) => u.utxoId.txID.toString())).toEqual([exportID])
    const before = await pBalance()
    const feeState = await papi.getFeeState()
    const { bytes } = await issueP(pvm.e.newImportTx({ feeState, fromAddressesBytes: [ewoqShort], sourceChainId: LOCAL_X, toAddressesBytes: [ewoqShort], utxos: atomic }, context))
    expect(await pBalance()).toBe(before + amount - pFee(bytes, feeState.price))
    const again = await gorilla('/ext/bc/P', 'platform.issueTx', { tx: utils.bufferToHex(utils.addChecksum(bytes)), encoding: 'hex' })
    expect(again.error?.code).toBe(-32000)
  })

  it('P -> X: pvm.e.newExportTx on P, avm.newImportTx on X; a second X import is refused', async () => {
    const amount = 5_000_000_000n
    const before = await pBalance()
    const feeState = await papi.getFeeState()
    const { txID: exportID, bytes } = await issueP(
      pvm.e.newExportTx(
        { feeState, fromAddressesBytes: [ewoqShort], destinationChainId: LOCAL_X, outputs: [TransferableOutput.fromNative(AVAX, amount, [ewoqShort])], utxos: await pUTXOs() },
        context,
      ),
    )
    expect(await pBalance()).toBe(before - amount - pFee(bytes, feeState.price))
    const atomic = await xUTXOs('P')
    expect(atomic.map((u) => u.utxoId.txID.toString())).toEqual([exportID])
    const xBefore = await xBalance()
    await issueX(avm.newImportTx(context, LOCAL_P, atomic, [ewoqShort], [ewoqShort]))
    expect(await xBalance()).toBe(xBefore + amount - X_FEE)
    const other = avm.newImportTx(context, LOCAL_P, atomic, [ewoqShort], [ewoqShort], { memo: new Uint8Array([1]) })
    await addTxSignatures({ unsignedTx: other, privateKeys: [privateKey] })
    await expect(xapi.issueSignedTx(other.getSignedTx())).rejects.toThrow('not found')
  })

  it('keeps the P state across a restart', async () => {
    const [balance, utxos, fee] = [await pBalance(), (await pUTXOs()).map((u) => u.ID()), await papi.getFeeState()]
    const height = tn.node.pchain.height
    expect(height).toBe(5n) // base, import from C, export to C, import from X, export to X
    await tn.stop()
    tn = await startTestNode({ dataDir: tn.dataDir })
    connect()
    expect(await pBalance()).toBe(balance)
    expect((await pUTXOs()).map((u) => u.ID())).toEqual(utxos)
    expect(tn.node.pchain.height).toBe(height)
    expect((await gorilla('/ext/bc/P', 'platform.getHeight')).result).toEqual({ height: '5' })
    expect((await papi.getFeeState()).excess).toBeLessThanOrEqual(fee.excess)
    expect(await pUTXOs(EWOQ_P, 'C')).toHaveLength(0)
  })
})
